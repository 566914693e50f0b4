/**
 * `@mcpgen/runtime/fetch`: an MCP server as a web-standard `(request: Request) => Promise<Response>`
 * for Cloudflare Workers, Bun, Deno, Hono and every other fetch host. Nothing it loads imports a
 * Node module or reads a Node global (test/runtime/fetch-entry-bundle.test.ts holds it to that).
 */
export {
  createFetchHandler,
  type FetchExecutionContext,
  type FetchHandler,
  type FetchHandlerOptions,
} from "./http-server/fetch.js";
export { DEFAULT_HTTP_PROTOCOL_VERSIONS } from "./http-server/endpoint.js";
export { InMemoryEventStore, type EventStore } from "./http-server/event-store.js";
export type { StreamableHttpServerTransport } from "./http-server/session-transport.js";
export type { HostOriginOptions } from "./http-server/security.js";
