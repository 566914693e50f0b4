/**
 * `@mcpgen/runtime/node`: a fetch handler (`@mcpgen/runtime/fetch`) mounted in node:http, Express
 * or Fastify, as a node request listener or a Fastify plugin (docs/deploy-node.md).
 */
export { toNodeListener, fastifyPlugin, type NodeListener, type FastifyLike } from "./http-server/node-listener.js";
