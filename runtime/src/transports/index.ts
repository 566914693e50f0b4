/** Framing and the real transports (stdio, Streamable HTTP, legacy HTTP+SSE, the HTTP probe). */
export { NdjsonDecoder, encodeNdjson, DEFAULT_MAX_MESSAGE_BYTES } from "../framing/ndjson.js";
export { SseDecoder, encodeSseEvent, encodeSseComment, type SseEvent } from "../framing/sse.js";
export { NdjsonStreamTransport, type NdjsonStreamOptions } from "./ndjson-stream.js";
export { StdioServerTransport, type StdioServerTransportOptions } from "./stdio-server.js";
export { StdioClientTransport, type StdioClientTransportOptions, type ChildExit } from "./stdio-client.js";
export {
  createStreamableHttpServer,
  createStreamableHttpHandler,
  DEFAULT_HTTP_PROTOCOL_VERSIONS,
  type StreamableHttpOptions,
  type StreamableHttpServerOptions,
  type StreamableHttpServer,
  type StreamableHttpHandler,
} from "../http-server/server.js";
export { StreamableHttpServerTransport } from "../http-server/session-transport.js";
export { InMemoryEventStore, type EventStore } from "../http-server/event-store.js";
export type { HostOriginOptions } from "../http-server/security.js";
export { StreamableHttpClientTransport, type StreamableHttpClientOptions, type ReconnectOptions } from "../http-client/streamable-client.js";
export { HttpStatusError } from "../http-client/request.js";
export { HttpProbeClientTransport, connectHttp, type HttpProbeOptions } from "../http-client/probe.js";
export { LegacySseServerTransport, createLegacySseHandler, type LegacySseOptions, type LegacySseHandler } from "../sse-legacy/server.js";
export { LegacySseClientTransport, type LegacySseClientOptions } from "../sse-legacy/client.js";
