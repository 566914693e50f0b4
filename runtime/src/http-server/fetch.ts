/**
 * The web-standard host of the Streamable HTTP endpoint: `createFetchHandler(server)` is a
 * `(request: Request) => Promise<Response>` for Cloudflare Workers, Bun.serve, Deno.serve, Hono,
 * Next.js route handlers and anything else that speaks fetch. The protocol logic is endpoint.ts's,
 * as on node:http; this file only turns a Request and the reply into http-exchange.ts's two halves.
 */
import type { McpServer } from "../server/server.js";
import type { StreamableHttpServerTransport } from "./session-transport.js";
import { StreamableHttpEndpoint, failed, type HttpEndpointOptions } from "./endpoint.js";
import { FetchReply, FetchRequest } from "./fetch-exchange.js";
import type { LegacyHttp } from "./legacy-http.js";
import type { LegacySseLimits, LegacySseMount } from "./legacy-sse-mount.js";
import type { Transport } from "../transport.js";
import { hostLegacyHttp } from "#legacy-http";

export interface FetchHandlerOptions extends Omit<HttpEndpointOptions, "onsession" | "stateless" | "legacySse"> {
  /**
   * Legacy-era sessions (`initialize` opens one, `Mcp-Session-Id`, GET streams, DELETE,
   * resumability). They live in this process's memory, so they need a host that keeps one process
   * serving a client (Node, Bun, Deno); false serves the legacy era stateless, each POST on its own,
   * as a host that may run every request in another isolate needs. Default: true, except on
   * Cloudflare Workers (false). 2026-07-28 is stateless either way.
   */
  sessions?: boolean;
  /**
   * The address the request arrived on, when the host tells (node's `socket.localAddress`): with
   * neither `dnsRebindingProtection` nor `allowedHosts`/`allowedOrigins`, protection is on for a
   * loopback address and off for any other. Without it a fetch host does not say where a request
   * arrived, so protection is on unless `dnsRebindingProtection: false` (a public deployment names
   * its hosts in `allowedHosts` instead).
   */
  localAddress?: (request: Request) => string | undefined;
  /**
   * Also serve the 2024-11-05 HTTP+SSE transport (a GET stream per session on `ssePath`, default
   * "/sse", and POSTs to `messagesPath`, default "/messages"), for clients of that revision alone.
   * Its sessions live in this process: a host that keeps one (Node, Bun, Deno), not Workers. The
   * handler's Host/Origin rules and `auth` guard apply to it too.
   */
  /**
   * Keeps the host serving work that outlives a response (a task's run after its `tools/call` was
   * answered), for hosts that end pending work with the response and take no per-request context
   * (e.g. Vercel's `waitUntil` from `@vercel/functions`). On Cloudflare Workers pass the fetch
   * event's context instead: `fetch: handler` or `handler(request, env, ctx)` uses `ctx.waitUntil`.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  legacySse?: boolean | LegacySseLimits;
}

/** What a Worker's fetch is handed third: `waitUntil` keeps the isolate for a promise beyond the response. */
export interface FetchExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * A fetch handler of one MCP endpoint, and what it holds. Its signature is a Worker module's
 * `fetch(request, env, ctx)`, so `export default { fetch: handler }` hands it `ctx.waitUntil`;
 * other hosts' second argument (Bun's server, Deno's info) is ignored.
 */
export interface FetchHandler {
  (request: Request, env?: unknown, ctx?: FetchExecutionContext): Promise<Response>;
  /** Live legacy sessions by id (with `sessions`). */
  readonly sessions: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** Bytes of POST bodies being read now (bounded by `maxBufferedBodyBytes`). */
  readonly bufferedBodyBytes: number;
  /** Close every session (the server itself stays open). */
  close(): Promise<void>;
}

/**
 * Where toNodeListener (node-listener.ts) finds the endpoint of a handler made here, to serve node's
 * requests on it without making Requests of them.
 */
export const NODE_ROUTE: unique symbol = Symbol("mcpgen.fetchHandler.endpoint");

/** Cloudflare Workers says so in navigator.userAgent; read when a handler is made, not at import. */
function onWorkers(): boolean {
  const nav = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  return nav?.userAgent === "Cloudflare-Workers";
}

/**
 * A fetch handler serving `server` at `options.path` (default "/mcp"): both eras, the same checks
 * and limits as the node:http handler (Host and Origin, body size and time, nesting depth, the
 * auth guard and principal-bound sessions), `subscriptions/listen` and SSE replies as streamed
 * Responses. Requests to other paths get 404.
 */
export function createFetchHandler(server: McpServer, options: FetchHandlerOptions = {}): FetchHandler {
  // The legacy era's HTTP side comes with the server's legacy era (Node's build has its own).
  const legacyHttp = (server.legacyEra?.http as LegacyHttp | undefined) ?? hostLegacyHttp;
  const sessions = options.sessions ?? !onWorkers();
  const localAddress = options.localAddress;
  const sse = options.legacySse;
  const onsession = async (transport: Transport): Promise<void> => {
    await server.connect(transport);
  };
  let legacySse: LegacySseMount | undefined;
  if (sse !== undefined && sse !== false) {
    if (legacyHttp === undefined)
      throw new TypeError(
        "createFetchHandler: legacySse serves the 2024-11-05 HTTP+SSE transport, but the server speaks no legacy revision (it was created without the legacy era)",
      );
    legacySse = legacyHttp.legacySse(sse, options, onsession);
  }
  const endpointOptions = { ...options, legacySse, stateless: !sessions, onsession };
  const endpoint = legacyHttp?.endpoint(endpointOptions) ?? new StreamableHttpEndpoint(endpointOptions);
  const waitUntil = options.waitUntil;
  const handler = (request: Request, _env?: unknown, ctx?: FetchExecutionContext): Promise<Response> => {
    // Where it arrived is unknown unless the host says: taken as loopback, DNS-rebinding protection stays on.
    const req = new FetchRequest(
      request,
      localAddress === undefined ? "127.0.0.1" : localAddress(request),
      typeof ctx?.waitUntil === "function" ? (p) => ctx.waitUntil(p) : waitUntil,
    );
    const res = new FetchReply(request.signal, req);
    let r: Promise<void> | void;
    try {
      r = endpoint.route(req, res);
    } catch (e) {
      r = Promise.reject(e);
    }
    if (r) r.catch((e: unknown) => failed(endpoint, res, e));
    return res.response;
  };
  return Object.defineProperties(handler, {
    [NODE_ROUTE]: { value: endpoint },
    sessions: { value: endpoint.sessions.byId, enumerable: true },
    bufferedBodyBytes: { get: () => endpoint.buffered.used, enumerable: true },
    close: { value: () => endpoint.close(), enumerable: true },
  }) as FetchHandler;
}
