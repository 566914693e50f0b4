/**
 * The Streamable HTTP protocol logic, once for every host: routing a request (the guard's
 * metadata, the legacy HTTP+SSE paths, the endpoint), a POST to its era, header and body checks
 * within the limits, sessions, GET streams and DELETE. It reads requests and writes replies
 * through http-exchange.ts alone: the node:http handler (server.ts) hands it node's objects, the fetch
 * handler (fetch.ts) its own over Request/Response; neither holds protocol logic of its own.
 */
import type { MessageOutline } from "../framing/scan.js";
import type { EventStore } from "./event-store.js";
import type { SessionDirectory } from "./session-directory.js";
import { BufferedBodies } from "./buffered-bodies.js";
import { checkHostOrigin, type HostOriginOptions } from "./security.js";
import { DEFAULT_MAX_BODY_BYTES, headerValue, sendJsonError, type wholeBody } from "./http-util.js";
import { BODY_TIMEOUT_MS, MAX_NESTING_DEPTH } from "../limits.js";
import { describe } from "../describe.js";
import type { StreamableHttpServerTransport } from "./session-transport.js";
import type { LegacySseMount } from "./legacy-sse-mount.js";
import { isModernPost, serveModernPost } from "./modern.js";
import { bodyOf, refuse, takePost, type PostIntake, type ReadPost } from "./post-intake.js";
import { StatelessTransports, type SessionTable } from "./session-table.js";
import type { EndpointCore } from "./legacy-endpoint.js";
import type { ResourceServerGuard } from "../auth/server/guard.js";
import type { AuthInfo } from "../auth/principal.js";
import type { HttpReply, HttpRequestIn } from "../http-exchange.js";
import type { MessageContext } from "../transport.js";

/** Protocol revisions whose `MCP-Protocol-Version` header value the server accepts by default. */
export const DEFAULT_HTTP_PROTOCOL_VERSIONS: readonly string[] = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
];

/** What both hosts' handlers take; `Req` is the request `onsession` is handed (node's IncomingMessage on node:http). */
export interface HttpEndpointOptions<Req extends HttpRequestIn = HttpRequestIn> extends HostOriginOptions {
  /** The MCP endpoint path (default "/mcp"). */
  path?: string;
  /**
   * Called with each new Transport: one per MCP session (stateful), or one per POST (stateless).
   * Connect the session layer to it here; the first message is delivered after this returns
   * (or after its promise resolves). `request` is the HTTP request that opened it (headers such as
   * MCP-Protocol-Version for a stateless session, authentication); its body is already consumed.
   */
  onsession: (transport: StreamableHttpServerTransport, request: Req) => void | Promise<void>;
  /** No `Mcp-Session-Id`, no GET stream, no DELETE, no resumability; each POST gets its own transport. */
  stateless?: boolean;
  /** Session id generator (visible ASCII only); default crypto.randomUUID. */
  sessionIdGenerator?: () => string;
  /**
   * How a POST carrying requests is answered: "auto" (default) replies in plain JSON unless the
   * server sends related requests/notifications first, then switches to SSE; "json" always
   * JSON (related messages go to the GET stream); "sse" always SSE.
   */
  responseMode?: "auto" | "json" | "sse";
  /** Resumability store; default an in-memory store (stateful mode); false disables resumability and priming. */
  eventStore?: EventStore | false;
  /**
   * Several instances of one server: where the legacy sessions of all of them are found, so a
   * request reaching an instance other than its session's is forwarded there (docs/scale-out.md).
   */
  sessionDirectory?: SessionDirectory;
  /** `retry` (ms) sent in each SSE priming event (default 1000). */
  retryMs?: number;
  /** Keep-alive comment interval on the GET stream in ms (default 25000; 0 disables). */
  keepAliveMs?: number;
  /**
   * Close a session after this long without client messages while it has no open stream or
   * outstanding request (ms; default 30 minutes; 0 = never). Clients that vanish without DELETE
   * otherwise keep their session until the server closes.
   */
  sessionIdleTimeoutMs?: number;
  /** Largest accepted POST body in bytes (default 4 MiB); bigger gets 413. */
  maxBodyBytes?: number;
  /** Deepest array/object nesting accepted in a POST body (default 128); deeper gets 400 / -32600. */
  maxDepth?: number;
  /** Live sessions at once (default 10 000); an `initialize` beyond gets 503. */
  maxSessions?: number;
  /** Time a client has to send a POST body (default 30 s); slower gets 408. */
  bodyTimeoutMs?: number;
  /**
   * Bytes of POST bodies this handler buffers while reading them, all requests together (default
   * 256 MiB); a body that would pass it gets 503 with Retry-After at once. The legacy SSE handler
   * mounted with `legacySse` has its own.
   */
  maxBufferedBodyBytes?: number;
  /** Refusals that are not any session's (limits tripped, bad POSTs, handler failures); default console.error. */
  onerror?: (error: Error) => void;
  /** Accepted `MCP-Protocol-Version` values; others get 400 (absent means 2025-03-26). */
  supportedProtocolVersions?: readonly string[];
  /**
   * Also serve the 2024-11-05 HTTP+SSE transport (see createLegacySseHandler) on its own paths;
   * `auth` guards them too, whatever guard the legacy handler was created with.
   */
  legacySse?: LegacySseMount;
  /**
   * Serve 2026-07-28 POSTs (a modern MCP-Protocol-Version header or `_meta` protocol version) on
   * the stateless modern path, each with its own transport whose `era` is "modern" (default true).
   * Legacy traffic (initialize, a live Mcp-Session-Id, legacy headers) is served as before.
   */
  modern?: boolean;
  /** Serve the legacy Streamable HTTP shape (default true); false answers GET and DELETE with 405. */
  legacy?: boolean;
  /**
   * OAuth resource server (`createResourceServer` from `@mcpgen/runtime/auth`): serves the
   * protected-resource metadata (the one public path) and answers every other request, on any
   * path and in either era, only with an acceptable bearer token; each session belongs to the
   * principal that initialized it; handlers see the principal as `ctx.auth`.
   */
  auth?: ResourceServerGuard;
}

/**
 * One Streamable HTTP endpoint: routes each request (the guard's metadata, the legacy HTTP+SSE
 * paths, the endpoint), reads POSTs (post-intake.ts), serves 2026-07-28 POSTs on the modern path
 * (modern.ts) and a stateless legacy POST on a transport of its own. This class has no sessions
 * (a server of 2026-07-28 alone on a fetch host); the rest of the legacy shape (an `initialize`
 * opening a session, a message to a live session, GET streams and DELETE) is the subclass the
 * legacy era's HTTP side makes (legacy-http.ts, endpoint-with-legacy.ts), which overrides the
 * protected methods here.
 */
export class StreamableHttpEndpoint<Req extends HttpRequestIn = HttpRequestIn>
  implements PostIntake, EndpointCore<Req>
{
  readonly path: string;
  readonly stateless: boolean;
  readonly mode: "auto" | "json" | "sse";
  readonly maxBody: number;
  readonly bodyTimeoutMs: number;
  readonly maxDepth: number;
  readonly buffered: BufferedBodies;
  /** Refusals that are not any session's; also the host handler's failures. */
  readonly report: (e: Error) => void;
  readonly sessions: SessionTable;
  /** Keep-alive comment interval of SSE replies and streams (ms; 0: none). */
  readonly keepAliveMs: number;
  /**
   * Takes a body node has buffered already (http-util.ts's wholeBody), set by the hosts that hand
   * the endpoint node's requests (server.ts, node-listener.ts); read by the legacy shape's body(),
   * so a fetch host's bundle carries none of it. An endpoint without the legacy era's side (a
   * server of 2026-07-28 alone under Bun's or Deno's conditions, behind toNodeListener) reads every
   * body as it arrives.
   */
  declare bufferedBody: typeof wholeBody | undefined;
  private readonly versions: ReadonlySet<string>;
  private readonly serveModern: boolean;
  /** The `MCP-Protocol-Version` value last accepted. */
  private version: string | undefined;

  /**
   * `stateless`: no legacy session opens (true here: a server of 2026-07-28 alone answers a legacy
   * POST on its own; the subclass with the legacy shape passes `options.stateless`).
   */
  constructor(
    readonly options: HttpEndpointOptions<Req>,
    stateless = true,
  ) {
    this.path = options.path ?? "/mcp";
    this.stateless = stateless;
    this.mode = options.responseMode ?? "auto";
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    this.maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
    this.buffered = new BufferedBodies(options.maxBufferedBodyBytes);
    this.report = options.onerror ?? ((e: Error) => console.error(`[mcpgen http] ${e.message}`));
    this.versions = new Set(options.supportedProtocolVersions ?? DEFAULT_HTTP_PROTOCOL_VERSIONS);
    this.serveModern = options.modern ?? true;
    this.keepAliveMs = options.keepAliveMs ?? 25_000;
    this.sessions = this.openSessions();
  }

  /** The sessions this endpoint consults, made last in its constructor: here no session ever opens. */
  protected openSessions(): SessionTable {
    return new StatelessTransports(this.keepAliveMs);
  }

  body(req: Req, res: HttpReply): Uint8Array | Promise<Uint8Array | undefined> {
    return bodyOf(req, res, this);
  }

  versionOk(req: Req, res: HttpReply): boolean {
    const v = headerValue(req, "mcp-protocol-version");
    // A client sends the same version on every request: one comparison, no hash of a new string.
    if (v === undefined || v === this.version || (this.versions.has(v) && (this.version = v))) return true;
    sendJsonError(
      res,
      400,
      -32000,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(v)} (supported: ${[...this.versions].join(", ")})`,
    );
    return false;
  }

  /** The principal under `options.auth` (undefined without it); false once the guard has answered 401/403. */
  protected admit(req: Req, res: HttpReply, messages: readonly unknown[]): Promise<AuthInfo | false> | undefined {
    return this.options.auth?.admit(req, res, messages).then((who) => who ?? false);
  }

  /**
   * Responses in a POST too large or too deep to deliver, answering requests this server sent:
   * admitted as any POST (false once the guard has answered 401/403), and here nothing else (no
   * session has requests pending; see the subclass's).
   */
  async unreadable(
    req: Req,
    res: HttpReply,
    outlines: readonly MessageOutline[],
    _code: number,
    _why: string,
  ): Promise<boolean> {
    return !answersAny(outlines) || (await this.admit(req, res, [])) !== false;
  }

  /** A POST read (post-intake.ts): the modern path, or the transport of the legacy POST it is. */
  admitted(req: Req, res: HttpReply, post: ReadPost): Promise<void> | undefined {
    // Admitted before routing: whether the session header names a session depends on who asks.
    // Without a guard nothing is awaited: an await costs every POST a promise and a turn.
    return (
      this.admit(req, res, post.list)?.then((auth) =>
        auth === false ? undefined : this.serve(req, res, post, auth),
      ) ?? this.serve(req, res, post, undefined)
    );
  }

  /** An admitted POST: the modern path, else (no session here) a stateless legacy POST. */
  protected serve(req: Req, res: HttpReply, post: ReadPost, auth: AuthInfo | undefined): Promise<void> {
    if (this.isModern(req, post)) return serveModernPost(req, res, post, auth, this.sessions, this.options);
    return this.statelessPost(req, res, post).then((transport) => {
      if (transport !== undefined) this.deliver(req, res, post, auth, transport);
    });
  }

  /** The POST takes the stateless modern path (when it names no live session: see the subclass's `serve`). */
  protected isModern(req: Req, post: ReadPost): boolean {
    return this.serveModern && !post.batch && isModernPost(req, post.parsed, this.versions);
  }

  /** A stateless legacy POST: a transport of its own, served without a handshake at its header's revision. */
  async statelessPost(req: Req, res: HttpReply, post: ReadPost): Promise<StreamableHttpServerTransport | undefined> {
    if (!post.initialize && !this.versionOk(req, res)) return undefined;
    const version = headerValue(req, "mcp-protocol-version");
    if (post.batch && this.refusesBatch(res, version ?? "2025-03-26")) return undefined;
    // Without the legacy era's side, a PostTransport: onsession is then the fetch handler's, which
    // hands it to McpServer.connect as any Transport.
    const transport = this.sessions.transport(undefined) as StreamableHttpServerTransport;
    transport.statelessRequest = version === undefined ? {} : { protocolVersion: version };
    await this.options.onsession(transport, req);
    return transport;
  }

  /**
   * Hands the POST's messages to `transport`, a transport of no session here (see the subclass's
   * for a session's): 202 at once for notifications and responses alone, else their replies' stream.
   */
  deliver(
    req: Req,
    res: HttpReply,
    post: ReadPost,
    auth: AuthInfo | undefined,
    transport: StreamableHttpServerTransport,
  ): void {
    const context: MessageContext = { headers: req.headers, auth, bytes: post.bytes, waitUntil: req.waitUntil };
    const message = post.batch ? post.list : post.list[0]!;
    if (post.requestIds.length === 0) {
      // An empty body with its length: without it node frames the 202 as chunked.
      res.writeHead(202, { "content-length": 0 }).end();
      transport.receive(message, context);
      if (this.stateless) queueMicrotask(() => void transport.close());
      return;
    }
    transport.openPostStream(res, post.requestIds, post);
    transport.receive(message, context);
  }

  refusesBatch(res: HttpReply, version: string): boolean {
    // JSON-RPC batches exist in protocol revision 2025-03-26 only.
    if (version === "2025-03-26") return false;
    refuse(
      this.report,
      res,
      400,
      null,
      -32600,
      `Invalid Request: JSON-RPC batches are not allowed in protocol revision ${describe(version)}`,
    );
    return true;
  }

  /**
   * Handle one request; a promise while it is served asynchronously (its rejection is answered 500
   * by the host's handler). `target`: the request target as sent, when a framework in front has
   * rewritten `req.url` (Express's originalUrl under a mount path).
   */
  route(req: Req, res: HttpReply, target = req.url ?? "/"): Promise<void> | void {
    const q = target.indexOf("?");
    const p = q === -1 ? target : target.slice(0, q);
    const refusal = checkHostOrigin(req, this.options);
    if (refusal) {
      sendJsonError(res, refusal.status, -32000, refusal.message);
      return;
    }
    const auth = this.options.auth;
    if (auth?.serveMetadata(req, res, p)) return;
    if (p === this.path) {
      // A POST is admitted once its body is read (a tools/call needs its tool's scopes).
      if (req.method === "POST") return takePost(req, res, this);
    } else if (this.options.legacySse?.handles(p)) {
      // The legacy transport is guarded by this handler's guard too, whatever it was created with.
      return this.options.legacySse.handle(req, res, auth);
    }
    // Every other answer, a 404 or 405 included, is given only to an admitted request.
    if (auth === undefined) return this.answer(req, res, p, undefined);
    return auth.admit(req, res, []).then((who) => (who === undefined ? undefined : this.answer(req, res, p, who)));
  }

  /** Close every session, and the legacy HTTP+SSE handler's. */
  async close(): Promise<void> {
    await this.sessions.close();
    await this.options.legacySse?.close();
  }

  /** A request other than a POST to the endpoint, admitted: a stateless endpoint serves POSTs alone. */
  protected answer(_req: Req, res: HttpReply, p: string, _auth: AuthInfo | undefined): Promise<void> | void {
    if (p !== this.path) res.writeHead(404).end();
    else res.writeHead(405, { allow: "POST" }).end();
  }
}

/** Whether a response with a usable id is among `outlines` (only such a message answers anything). */
export function answersAny(outlines: readonly MessageOutline[]): boolean {
  return outlines.some((o) => o.kind === "response" && o.id !== undefined);
}

/** What a host's handler does when serving a request failed: report it, and answer 500 if nothing was sent yet. */
export function failed(endpoint: { report(e: Error): void }, res: HttpReply, e: unknown): void {
  endpoint.report(e instanceof Error ? e : new Error(describe(e)));
  // A shared store that is down (data.retryable) is the service being unavailable, for now.
  const retryable = (e as { data?: { retryable?: unknown } } | undefined)?.data?.retryable === true;
  if (!res.headersSent) sendJsonError(res, retryable ? 503 : 500, -32603, "Internal error");
  else res.end();
}
