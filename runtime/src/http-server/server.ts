import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { nodeHttp } from "../node-http.js";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { Transport } from "../transport.js";
import { unreadableAnswers } from "../framing/frame-error.js";
import type { MessageOutline } from "../framing/scan.js";
import { InMemoryEventStore, type EventStore } from "./event-store.js";
import { BUFFER_FULL_HEADERS, BodyBufferFullError, BufferedBodies } from "./buffered-bodies.js";
import { checkHostOrigin, type HostOriginOptions } from "./security.js";
import {
  BodyTimeoutError,
  BodyTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  accepts,
  headerValue,
  readBody,
  sendJson,
  sendJsonError,
  sendJsonRpcError,
} from "./http-util.js";
import { badRequestId, isJsonMediaType, parseBody } from "./post-checks.js";
import { BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_HTTP_SESSIONS, MAX_NESTING_DEPTH, SESSION_IDLE_TIMEOUT_MS } from "../limits.js";
import { describe } from "../describe.js";
import { StreamableHttpServerTransport } from "./session-transport.js";
import type { LegacySseHandler } from "./legacy-sse.js";
import { checkStandardHeaders, isModernPost } from "./modern.js";
import type { ResourceServerGuard } from "../auth/server/guard.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";

/** Protocol revisions whose `MCP-Protocol-Version` header value the server accepts by default. */
export const DEFAULT_HTTP_PROTOCOL_VERSIONS: readonly string[] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

export interface StreamableHttpOptions extends HostOriginOptions {
  /** The MCP endpoint path (default "/mcp"). */
  path?: string;
  /**
   * Called with each new Transport: one per MCP session (stateful), or one per POST (stateless).
   * Connect the session layer to it here; the first message is delivered after this returns
   * (or after its promise resolves). `request` is the HTTP request that opened it (headers such as
   * MCP-Protocol-Version for a stateless session, authentication); its body is already consumed.
   */
  onsession: (transport: StreamableHttpServerTransport, request: IncomingMessage) => void | Promise<void>;
  /** No `Mcp-Session-Id`, no GET stream, no DELETE, no resumability; each POST gets its own transport. */
  stateless?: boolean;
  /** Session id generator (visible ASCII only); default randomUUID. */
  sessionIdGenerator?: () => string;
  /**
   * How a POST carrying requests is answered: "auto" (default) replies in plain JSON unless the
   * server sends related requests/notifications first, then switches to SSE; "json" always
   * JSON (related messages go to the GET stream); "sse" always SSE.
   */
  responseMode?: "auto" | "json" | "sse";
  /** Resumability store; default an in-memory store (stateful mode); false disables resumability and priming. */
  eventStore?: EventStore | false;
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
  legacySse?: LegacySseHandler;
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

/** JSON-RPC batches exist in protocol revision 2025-03-26 only. */
function batchable(version: string): boolean {
  return version === "2025-03-26";
}

function classify(msgs: JSONRPCMessage[]): { requestIds: RequestId[]; initialize: boolean; valid: boolean } {
  const requestIds: RequestId[] = [];
  let initialize = false;
  let valid = true;
  for (const m of msgs) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) {
      valid = false;
      continue;
    }
    if ("method" in m) {
      if ("id" in m && m.id !== undefined && m.id !== null) {
        requestIds.push(m.id);
        if (m.method === "initialize") initialize = true;
      }
    } else if (!("id" in m)) valid = false;
  }
  return { requestIds, initialize, valid };
}

/** The request handler of a Streamable HTTP endpoint (usable inside any node:http server). */
export function createStreamableHttpHandler(options: StreamableHttpOptions): StreamableHttpHandler {
  const path = options.path ?? "/mcp";
  const stateless = options.stateless ?? false;
  const mode = options.responseMode ?? "auto";
  const store: EventStore | undefined = stateless || options.eventStore === false
    ? undefined
    : (options.eventStore ?? new InMemoryEventStore());
  const retryMs = options.retryMs ?? 1000;
  const keepAliveMs = options.keepAliveMs ?? 25_000;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const versions = new Set(options.supportedProtocolVersions ?? DEFAULT_HTTP_PROTOCOL_VERSIONS);
  const genId = options.sessionIdGenerator ?? randomUUID;
  const sessions = new Map<string, StreamableHttpServerTransport>();
  const legacy = options.legacySse;
  const serveModern = options.modern ?? true;
  const serveLegacy = options.legacy ?? true;
  const idleMs = options.sessionIdleTimeoutMs ?? SESSION_IDLE_TIMEOUT_MS;
  const maxSessions = options.maxSessions ?? MAX_HTTP_SESSIONS;
  const maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const buffered = new BufferedBodies(options.maxBufferedBodyBytes);
  const report = options.onerror ?? ((e: Error) => console.error(`[mcpgen http] ${e.message}`));
  /** Answer a refused POST and log why. */
  const refuse = (res: ServerResponse, status: number, id: RequestId | null, code: number, message: string): void => {
    report(new Error(`POST refused (${status}): ${message}`));
    sendJsonRpcError(res, status, id, code, message);
  };
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    const now = Date.now();
    for (const t of sessions.values()) {
      if (!t.busy && now - t.lastActivity > idleMs) {
        report(new Error(`session closed after ${idleMs} ms without activity (sessionIdleTimeoutMs)`));
        void t.close();
      }
    }
    if (sessions.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  const newTransport = (sessionId: string | undefined, modern = false, owner?: string): StreamableHttpServerTransport =>
    new StreamableHttpServerTransport({
      sessionId,
      owner,
      eventStore: modern ? undefined : store,
      retryMs,
      keepAliveMs,
      modern,
      closeWhenIdle: stateless || modern,
      onclosed: (t) => {
        if (t.sessionId !== undefined && sessions.get(t.sessionId) === t) sessions.delete(t.sessionId);
      },
    });

  /**
   * The live session `sid` names, if `auth`'s principal owns it. Another principal's session is
   * no session to this request: it is neither joined nor confirmed to exist (404 like an unknown
   * id). A session id is not a credential:
   * https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#session-hijacking
   */
  const owned = (sid: string | undefined, auth: AuthInfo | undefined): StreamableHttpServerTransport | undefined => {
    const t = sid === undefined ? undefined : sessions.get(sid);
    return t !== undefined && t.owner === principalKey(auth) ? t : undefined;
  };

  /** Session lookup shared by POST (non-initialize), GET and DELETE; answers the error itself. */
  const lookup = (req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined, sid = headerValue(req, "mcp-session-id")): StreamableHttpServerTransport | undefined => {
    if (sid === undefined) {
      sendJsonError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return undefined;
    }
    const t = owned(sid, auth);
    if (!t) {
      sendJsonError(res, 404, -32001, "Session not found");
      return undefined;
    }
    return t;
  };

  const versionOk = (req: IncomingMessage, res: ServerResponse): boolean => {
    const v = headerValue(req, "mcp-protocol-version");
    if (v === undefined || versions.has(v)) return true;
    sendJsonError(
      res,
      400,
      -32000,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(v)} (supported: ${[...versions].join(", ")})`,
    );
    return false;
  };

  /** The principal under `options.auth` (undefined without it); false once the guard has answered 401/403. */
  const admit = async (req: IncomingMessage, res: ServerResponse, messages: readonly unknown[]): Promise<AuthInfo | undefined | false> =>
    options.auth === undefined ? undefined : ((await options.auth.admit(req, res, messages)) ?? false);

  /**
   * Responses in a POST too large or too deep to deliver, answering requests this server sent on
   * the POST's session (sampling, elicitation, roots): those requests fail now rather than at their
   * timeout. Admitted as any POST to the session first, and delivered only to a session of the
   * principal it admits; false once the guard has answered (401/403).
   */
  const unreadable = async (req: IncomingMessage, res: ServerResponse, outlines: readonly MessageOutline[], code: number, why: string): Promise<boolean> => {
    const errors = unreadableAnswers(outlines, code, why);
    if (errors.length === 0) return true;
    const auth = await admit(req, res, []);
    if (auth === false) return false;
    owned(headerValue(req, "mcp-session-id"), auth)?.receiveUnreadable(errors);
    return true;
  };

  async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ctype = headerValue(req, "content-type");
    if (!isJsonMediaType(ctype)) {
      sendJsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    const accept = headerValue(req, "accept");
    const allowJson = mode !== "sse" && accepts(accept, "application/json");
    const allowSse = mode !== "json" && accepts(accept, "text/event-stream");
    if (!allowJson && !allowSse) {
      sendJsonError(res, 406, -32000, "Not Acceptable: Accept must list application/json and text/event-stream");
      return;
    }
    // Only a live session has requests of this server awaiting answers: only there is an oversized body read on for its id.
    const sid = headerValue(req, "mcp-session-id");
    let body: Buffer;
    try {
      body = await readBody(req, maxBody, bodyTimeoutMs, sid !== undefined && sessions.has(sid), buffered);
    } catch (e) {
      if (e instanceof BodyTooLargeError) {
        if (e.outline !== undefined && !(await unreadable(req, res, [e.outline], -32000, `exceeds ${maxBody} bytes (maxBodyBytes)`))) return;
        report(new Error(`POST refused (413): ${e.message}`));
        sendJsonError(res, 413, -32000, `Payload Too Large: ${e.message}`, { connection: "close" });
      } else if (e instanceof BodyTimeoutError) {
        report(new Error(`POST refused (408): ${e.message}`));
        sendJsonError(res, 408, -32000, `Request Timeout: ${e.message}`, { connection: "close" });
      } else if (e instanceof BodyBufferFullError) {
        report(new Error(`POST refused (503): ${e.message}`));
        sendJsonError(res, 503, -32000, `Service Unavailable: ${e.message}`, BUFFER_FULL_HEADERS);
      } else if (!res.headersSent) res.destroy();
      return;
    }
    const read = parseBody(body.toString("utf8"), maxDepth);
    if (!("value" in read)) {
      if (read.outlines !== undefined && !(await unreadable(req, res, read.outlines, read.code, `nests deeper than ${maxDepth} levels (maxDepth)`))) return;
      return refuse(res, read.status, read.id, read.code, read.message);
    }
    const parsed = read.value;
    const batch = Array.isArray(parsed);
    const list = (batch ? parsed : [parsed]) as JSONRPCMessage[];
    const { requestIds, initialize, valid } = classify(list);
    if (!valid || list.length === 0 || parsed === null || typeof parsed !== "object") {
      sendJsonError(res, 400, -32600, "Invalid Request: expected a JSON-RPC message or batch");
      return;
    }
    if (initialize && (batch || list.length > 1)) {
      sendJsonError(res, 400, -32600, "Invalid Request: initialize must be sent alone, not in a batch");
      return;
    }
    const badId = badRequestId(list);
    if (badId) return refuse(res, badId.status, badId.id, badId.code, badId.message);
    // Admitted before routing: whether the session header names a session depends on who asks.
    const auth = await admit(req, res, list);
    if (auth === false) return;
    const live = headerValue(req, "mcp-session-id");
    const session = owned(live, auth);
    if (serveModern && !batch && session === undefined && isModernPost(req, parsed, versions)) {
      await postModern(req, res, parsed as JSONRPCMessage, requestIds, allowJson, allowSse, auth, read.bytes);
      return;
    }
    let transport: StreamableHttpServerTransport;
    if (stateless) {
      if (!initialize && !versionOk(req, res)) return;
      if (batch && !batchable(headerValue(req, "mcp-protocol-version") ?? "2025-03-26")) return refuseBatch(res, headerValue(req, "mcp-protocol-version")!);
      transport = newTransport(undefined);
      const version = headerValue(req, "mcp-protocol-version");
      transport.statelessRequest = version === undefined ? {} : { protocolVersion: version };
      await options.onsession(transport, req);
    } else if (initialize) {
      if (sessions.size >= maxSessions) {
        report(new Error(`initialize refused (503): ${maxSessions} sessions are open (maxSessions)`));
        sendJsonError(res, 503, -32000, "Service Unavailable: too many open sessions", { "retry-after": "5" });
        return;
      }
      const sid = genId();
      // The id travels in a header: visible ASCII only (2025-03-26 §Session Management).
      if (!/^[\x21-\x7e]+$/.test(sid)) throw new Error("sessionIdGenerator returned an id with characters outside 0x21-0x7E");
      transport = newTransport(sid, false, principalKey(auth));
      // The session exists only if initialize succeeds: an error answer closes it.
      transport.expectInitialize(requestIds[0]!);
      sessions.set(sid, transport);
      if (idleMs > 0 && !sweeper) {
        sweeper = setInterval(sweep, Math.max(10, Math.min(idleMs / 2, 60_000)));
        sweeper.unref();
      }
      try {
        await options.onsession(transport, req);
      } catch (e) {
        sessions.delete(sid);
        throw e;
      }
    } else {
      const t = session ?? lookup(req, res, auth, live);
      if (!t || !versionOk(req, res)) return;
      if (batch && t.protocolVersion !== undefined && !batchable(t.protocolVersion)) return refuseBatch(res, t.protocolVersion);
      // A reply is routed by id: a second request with an id still in flight would steal the first one's.
      const busy = requestIds.find((id) => t.awaitsReply(id));
      if (busy !== undefined) return refuse(res, 400, list.length === 1 ? busy : null, -32600, `Invalid Request: request id ${describe(busy)} is already in progress`);
      transport = t;
    }
    const context = transport.sessionId !== undefined
      ? { sessionId: transport.sessionId, headers: req.headers, auth, bytes: read.bytes }
      : { headers: req.headers, auth, bytes: read.bytes };
    const message = batch ? list : list[0]!;
    if (requestIds.length === 0) {
      // An empty body with its length: without it node frames the 202 as chunked.
      res.writeHead(202, transport.sessionId !== undefined ? { "mcp-session-id": transport.sessionId, "content-length": 0 } : { "content-length": 0 });
      res.end();
      transport.receive(message, context);
      if (stateless) queueMicrotask(() => void transport.close());
      return;
    }
    transport.openPostStream(res, requestIds, { allowJson, allowSse, batch });
    transport.receive(message, context);
  }

  /** One stateless 2026-07-28 POST: headers checked against the body, then a transport of its own. */
  async function postModern(
    req: IncomingMessage,
    res: ServerResponse,
    message: JSONRPCMessage,
    requestIds: RequestId[],
    allowJson: boolean,
    allowSse: boolean,
    auth: AuthInfo | undefined,
    bytes: number,
  ): Promise<void> {
    const m = message as { id?: RequestId; method?: unknown; params?: unknown };
    if (typeof m.method !== "string") {
      // Clients POST no responses in 2026-07-28 (nothing asked them anything).
      const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
      sendJson(res, 400, { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request: a 2026-07-28 POST carries one request or notification" } });
      return;
    }
    if (requestIds.length === 0) {
      // No client notification is defined over HTTP in 2026-07-28 (cancellation is closing the stream).
      res.writeHead(202, { "content-length": 0 }).end();
      return;
    }
    const refused = checkStandardHeaders(req, m.method, m.params);
    if (refused !== undefined) {
      sendJson(res, 400, { jsonrpc: "2.0", id: requestIds[0], error: refused });
      return;
    }
    // Closing the stream cancels the request in 2026-07-28: a client gone while its token was
    // verified cancelled it before it started (and a listen on a closed response would never end).
    if (res.destroyed) return;
    const transport = newTransport(undefined, true);
    await options.onsession(transport, req);
    transport.openPostStream(res, requestIds, { allowJson, allowSse, batch: false });
    transport.receive(message, { headers: req.headers, auth, bytes });
  }

  function refuseBatch(res: ServerResponse, version: string): void {
    refuse(res, 400, null, -32600, `Invalid Request: JSON-RPC batches are not allowed in protocol revision ${describe(version)}`);
  }

  async function get(req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined): Promise<void> {
    if (stateless || !serveLegacy) {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    if (!accepts(headerValue(req, "accept"), "text/event-stream")) {
      sendJsonError(res, 406, -32000, "Not Acceptable: Accept must list text/event-stream");
      return;
    }
    const t = lookup(req, res, auth);
    if (!t || !versionOk(req, res)) return;
    // A client gone while its token was verified: a stream attached to its closed response would
    // never be detached, and every later GET of the session would be refused 409.
    if (res.destroyed) return;
    const lastEventId = headerValue(req, "last-event-id");
    if (lastEventId !== undefined && store) {
      const refused = await t.resumeStream(res, lastEventId);
      if (refused !== undefined) sendJsonError(res, refused, -32000, "Unknown Last-Event-ID for this session");
      return;
    }
    if (!t.openStandaloneStream(res)) {
      sendJsonError(res, 409, -32000, "Conflict: only one standalone SSE stream is allowed per session");
    }
  }

  async function del(req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined): Promise<void> {
    if (stateless || !serveLegacy) {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const t = lookup(req, res, auth);
    if (!t || !versionOk(req, res)) return;
    await t.close();
    res.writeHead(200).end();
  }

  function route(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const p = q === -1 ? url : url.slice(0, q);
    const refusal = checkHostOrigin(req, options);
    if (refusal) {
      sendJsonError(res, refusal.status, -32000, refusal.message);
      return;
    }
    if (options.auth?.serveMetadata(req, res, p)) return;
    if (p === path) {
      // A POST is admitted once its body is read (a tools/call needs its tool's scopes).
      if (req.method === "POST") return post(req, res);
    } else if (legacy && legacy.handles(p)) {
      // The legacy transport is guarded by this handler's guard too, whatever it was created with.
      return legacy.handle(req, res, options.auth);
    }
    // Every other answer, a 404 or 405 included, is given only to an admitted request.
    if (options.auth === undefined) return answer(req, res, p, undefined);
    return options.auth.admit(req, res, []).then((auth) => (auth === undefined ? undefined : answer(req, res, p, auth)));
  }

  /** A request other than a POST to the endpoint, admitted. */
  function answer(req: IncomingMessage, res: ServerResponse, p: string, auth: AuthInfo | undefined): Promise<void> | void {
    if (p !== path) {
      res.writeHead(404).end();
      return;
    }
    switch (req.method) {
      case "GET":
        return get(req, res, auth);
      case "DELETE":
        return del(req, res, auth);
      default:
        res.writeHead(405, { allow: stateless ? "POST" : "GET, POST, DELETE" }).end();
    }
  }

  return {
    sessions,
    get bufferedBodyBytes() {
      return buffered.used;
    },
    handle(req, res) {
      let r: Promise<void> | void;
      try {
        r = route(req, res);
      } catch (e) {
        r = Promise.reject(e);
      }
      if (r) {
        r.catch((e: unknown) => {
          report(e instanceof Error ? e : new Error(describe(e)));
          if (!res.headersSent) sendJsonError(res, 500, -32603, "Internal error");
          else res.end();
        });
      }
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await legacy?.close();
    },
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
  const server = options.server ?? nodeHttp().createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout) });
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
