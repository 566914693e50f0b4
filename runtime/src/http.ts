/**
 * `@mcpgen/runtime/http`: SSE framing, Streamable HTTP server and client, legacy HTTP+SSE
 * (2024-11-05) server and client, and the client's backwards-compatible probe.
 */
export { SseDecoder, encodeSseEvent, encodeSseComment, type SseEvent } from "./framing/sse.js";
export {
  createStreamableHttpServer,
  createStreamableHttpHandler,
  DEFAULT_HTTP_PROTOCOL_VERSIONS,
  type StreamableHttpOptions,
  type StreamableHttpServerOptions,
  type StreamableHttpServer,
  type StreamableHttpHandler,
} from "./http-server/server.js";
export { StreamableHttpServerTransport } from "./http-server/session-transport.js";
export { InMemoryEventStore, type EventStore } from "./http-server/event-store.js";
export type { SessionDirectory } from "./http-server/session-directory.js";
export type { HostOriginOptions } from "./http-server/security.js";
export { parseBody, badRequestId, isJsonMediaType, type PostRefusal } from "./http-server/post-checks.js";
export { readBody, BodyTooLargeError, BodyTimeoutError } from "./http-server/http-util.js";
export { BufferedBodies, BodyBufferFullError } from "./http-server/buffered-bodies.js";
export {
  StreamableHttpClientTransport,
  type StreamableHttpClientOptions,
  type ReconnectOptions,
} from "./http-client/streamable-client.js";
export { HttpStatusError } from "./http-client/driver.js";
export {
  ModernHttpClientTransport,
  requestHeaders,
  type ModernHttpClientOptions,
} from "./http-client/modern-client.js";
export { HttpProbeClientTransport, connectHttp, type HttpProbeOptions } from "./http-client/probe.js";
export {
  LegacySseServerTransport,
  createLegacySseHandler,
  type LegacySseOptions,
  type LegacySseHandler,
} from "./http-server/legacy-sse.js";
export { LegacySseClientTransport, type LegacySseClientOptions } from "./http-client/legacy-sse.js";
