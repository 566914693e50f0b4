/**
 * The node:http host of the Streamable HTTP endpoint (endpoint.ts): node's IncomingMessage and
 * ServerResponse are what the protocol logic reads and writes (http-exchange.ts), passed through as
 * they are, and a node:http server bound to one endpoint.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { nodeHttp } from "../node-http.js";
import type { AddressInfo } from "node:net";
import type { Transport } from "../transport.js";
import { BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS } from "../limits.js";
import type { StreamableHttpServerTransport } from "./session-transport.js";
import { failed, type HttpEndpointOptions } from "./endpoint.js";
import { legacyHttp } from "./legacy-http.js";
import { wholeBody } from "./http-util.js";

export { DEFAULT_HTTP_PROTOCOL_VERSIONS } from "./endpoint.js";

/** Options of the node:http handler: `onsession` is handed node's IncomingMessage. */
export interface StreamableHttpOptions extends HttpEndpointOptions<IncomingMessage> {}

export interface StreamableHttpHandler {
  /** Handle one request; answers 404 for other paths (once admitted, under `auth`). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Live sessions by id (stateful mode). */
  readonly sessions: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** Bytes of POST bodies being read now (bounded by `maxBufferedBodyBytes`). */
  readonly bufferedBodyBytes: number;
  /** Close every session. */
  close(): Promise<void>;
}

/** The request handler of a Streamable HTTP endpoint (usable inside any node:http server). */
export function createStreamableHttpHandler(options: StreamableHttpOptions): StreamableHttpHandler {
  // Sessions whatever `onsession` serves: this host knows no server, and loads node:http anyway.
  const endpoint = legacyHttp.endpoint<IncomingMessage>(options);
  endpoint.bufferedBody = wholeBody;
  return {
    sessions: endpoint.sessions.byId,
    get bufferedBodyBytes() {
      return endpoint.buffered.used;
    },
    handle(req, res) {
      let r: Promise<void> | void;
      try {
        r = endpoint.route(req, res);
      } catch (e) {
        r = Promise.reject(e);
      }
      if (r) r.catch((e: unknown) => failed(endpoint, res, e));
    },
    close: () => endpoint.close(),
  };
}

export interface StreamableHttpServerOptions extends StreamableHttpOptions {
  /** Attach to an existing server instead of creating one (then host/port are not used). */
  server?: Server;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Time a client has to send the request headers (default 10 s); applies to a server this creates. */
  headersTimeoutMs?: number;
}

export interface StreamableHttpServer extends StreamableHttpHandler {
  readonly server: Server;
  /** Start listening (no-op for an attached server that already listens); resolves to the endpoint URL. */
  listen(): Promise<URL>;
  /** The endpoint URL once listening. */
  readonly url: URL | undefined;
}

/** A node:http server exposing one Streamable HTTP MCP endpoint (plus the legacy SSE paths if configured). */
export function createStreamableHttpServer(options: StreamableHttpServerOptions): StreamableHttpServer {
  const handler = createStreamableHttpHandler(options);
  // Slow clients are cut off by our bounds, not Node's defaults (60 s headers, 300 s request, checked every 30 s).
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(headersTimeout, options.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
  const server =
    options.server ??
    nodeHttp().createServer({
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    });
  const owned = options.server === undefined;
  server.on("request", (req, res) => handler.handle(req, res));
  let url: URL | undefined;
  const computeUrl = (): URL | undefined => {
    const a = server.address() as AddressInfo | null;
    if (!a || typeof a !== "object") return undefined;
    const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
    return new URL(`http://${host}:${a.port}${options.path ?? "/mcp"}`);
  };
  return {
    server,
    sessions: handler.sessions,
    get bufferedBodyBytes() {
      return handler.bufferedBodyBytes;
    },
    handle: handler.handle,
    get url() {
      return url ?? computeUrl();
    },
    listen() {
      if (server.listening) return Promise.resolve((url = computeUrl()!));
      return new Promise<URL>((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
          server.off("error", reject);
          resolve((url = computeUrl()!));
        });
      });
    },
    async close() {
      await handler.close();
      if (owned && server.listening) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
    },
  };
}

export type { Transport };
