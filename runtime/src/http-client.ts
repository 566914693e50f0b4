/**
 * `@mcpgen/runtime/http-client`: the HTTP client transports alone (Streamable HTTP of both eras,
 * the legacy HTTP+SSE client and the probe that picks one), for programs that host no server: an
 * agent on Cloudflare Workers, Bun, Deno or in a browser. Nothing here imports Node; the requests
 * go over node:http with keep-alive on Node and over `fetch` everywhere else (runtime/package.json
 * "imports" `#http-driver`). `@mcpgen/runtime/http` exports the same classes beside the servers.
 */
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
export { LegacySseClientTransport, type LegacySseClientOptions } from "./http-client/legacy-sse.js";
