/**
 * `@mcpgen/runtime/node`: a fetch handler (`@mcpgen/runtime/fetch`) mounted in node:http, Express
 * or Fastify, as a node request listener (docs/deploy-node.md).
 */
export { toNodeListener, type NodeListener } from "./http-server/node-listener.js";
