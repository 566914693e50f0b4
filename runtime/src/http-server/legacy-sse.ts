import type { IncomingMessage } from "node:http";
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { encodeSseComment, encodeSseEvent, encodeSseMessage } from "../framing/sse.js";
import { checkHostOrigin, type HostOriginOptions } from "./security.js";
import { isJsonMediaType, parseBody } from "./post-checks.js";
import { MAX_HTTP_SESSIONS, MAX_NESTING_DEPTH } from "../limits.js";
import { unreadableAnswers, type FrameError } from "../framing/frame-error.js";
import {
  BodyTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  SSE_HEADERS,
  headerValue,
  readBody,
  sendJsonError,
} from "./http-util.js";
import { BUFFER_FULL_HEADERS, BodyBufferFullError, BufferedBodies } from "./buffered-bodies.js";
import type { ResourceServerGuard } from "../auth/server/guard.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";
import { unrefTimer, type HttpReply, type HttpRequestIn } from "../http-exchange.js";
import type { LegacySseLimits, LegacySseMount } from "./legacy-sse-mount.js";
import { utf8Text } from "../bytes.js";

/** One shared settled promise for synchronous sends (the session skips handlers on a repeat). */
const SENT: Promise<void> = Promise.resolve();

/**
 * Server side of the 2024-11-05 HTTP+SSE transport: one connection = one GET SSE stream that
 * first announces (event `endpoint`) the URI to POST messages to; every server message travels
 * on the stream as event `message`.
 */
export class LegacySseServerTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;
  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  readonly sessionId: string;
  /** `principalKey` of the principal that opened the stream (a guarded handler); only it may POST to this session. */
  readonly owner: string | undefined;
  private res: HttpReply | undefined;
  private closed = false;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private readonly onclosed: (t: LegacySseServerTransport) => void;

  constructor(
    sessionId: string,
    res: HttpReply,
    endpoint: string,
    keepAliveMs: number,
    onclosed: (t: LegacySseServerTransport) => void,
    owner?: string,
  ) {
    this.sessionId = sessionId;
    this.owner = owner;
    this.res = res;
    this.onclosed = onclosed;
    res.writeHead(200, SSE_HEADERS);
    res.write(encodeSseEvent({ event: "endpoint", data: endpoint }));
    res.on("close", () => void this.close());
    if (keepAliveMs > 0) {
      this.keepAlive = unrefTimer(setInterval(() => this.res?.write(encodeSseComment("keep-alive")), keepAliveMs));
    }
  }

  async start(): Promise<void> {}

  receive(message: JSONRPCMessage | JSONRPCMessage[], context: MessageContext): void {
    if (this.closed) return;
    try {
      this.onmessage?.(message, context);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  /** Responses POSTed too large or too deep to deliver: the requests they answer fail now rather than at their timeout. */
  receiveUnreadable(errors: readonly FrameError[]): void {
    if (this.closed) return;
    for (const e of errors) (this.onframeerror ?? this.onerror)?.(e);
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: SendOptions): Promise<void> {
    const res = this.res;
    if (this.closed || !res) return Promise.reject(new Error("transport is closed"));
    res.write(encodeSseMessage(JSON.stringify(message)));
    // A client that stops reading must not make the server buffer without bound.
    if (res.writableLength > 16 * 1024 * 1024) {
      this.onerror?.(new Error("SSE client is not reading; connection dropped"));
      res.destroy();
    }
    return SENT;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    const res = this.res;
    this.res = undefined;
    if (res && !res.writableEnded) res.end();
    this.onclosed(this);
    this.onclose?.();
  }
}

export interface LegacySseOptions extends HostOriginOptions, LegacySseLimits {
  onsession: (transport: LegacySseServerTransport, request: IncomingMessage) => void | Promise<void>;
  /** Refusals that are not any session's (the buffered bodies' bound tripped); default console.error. */
  onerror?: (error: Error) => void;
  /**
   * OAuth resource server (`createResourceServer` from `@mcpgen/runtime/auth`), as on the
   * Streamable HTTP handler: serves the protected-resource metadata, admits the GET with the
   * required scopes and each POSTed message with the scopes it needs, binds each session to the
   * principal that opened it, and hands handlers that principal as `ctx.auth`.
   */
  auth?: ResourceServerGuard;
}

export interface LegacySseHandler extends LegacySseMount {
  readonly sessions: ReadonlyMap<string, LegacySseServerTransport>;
  /** Bytes of POST bodies being read now (bounded by `maxBufferedBodyBytes`). */
  readonly bufferedBodyBytes: number;
}

/**
 * The 2024-11-05 HTTP+SSE endpoint: a GET on the SSE path opens a session (its stream), each POST
 * to the messages path carries one message to the session its `sessionId` names.
 */
class LegacySseEndpoint {
  readonly ssePath: string;
  readonly messagesPath: string;
  readonly buffered: BufferedBodies;
  readonly sessions = new Map<string, LegacySseServerTransport>();
  private readonly maxBody: number;
  private readonly keepAliveMs: number;
  private readonly report: (e: Error) => void;
  /** This handler's own guard. */
  readonly own: ResourceServerGuard | undefined;

  constructor(private readonly options: LegacySseOptions) {
    this.ssePath = options.ssePath ?? "/sse";
    this.messagesPath = options.messagesPath ?? "/messages";
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.keepAliveMs = options.keepAliveMs ?? 25_000;
    this.buffered = new BufferedBodies(options.maxBufferedBodyBytes);
    this.report = options.onerror ?? ((e: Error) => console.error(`[mcpgen sse] ${e.message}`));
    this.own = options.auth;
  }

  /**
   * The principal, admitted by the mounting guard and by this handler's own (each answers its
   * 401/403 itself: false then); undefined when neither exists. With two guards the mounting
   * one's principal is the session's, as on the endpoint it is mounted beside.
   */
  private async admit(
    req: HttpRequestIn,
    res: HttpReply,
    mount: ResourceServerGuard | undefined,
    messages: readonly unknown[],
  ): Promise<AuthInfo | undefined | false> {
    let auth: AuthInfo | undefined;
    if (mount !== undefined) {
      auth = await mount.admit(req, res, messages);
      if (auth === undefined) return false;
    }
    const own = this.own;
    if (own !== undefined && own !== mount) {
      const mine = await own.admit(req, res, messages);
      if (mine === undefined) return false;
      auth ??= mine;
    }
    return auth;
  }

  /**
   * Responses POSTed too large or too deep to deliver (`errors`) to the session `id` names: admitted
   * as any POST and delivered only to a session of the principal admitted, where the requests they
   * answer fail now rather than at their timeout. False once a guard has answered (401/403).
   */
  private async unreadable(
    req: HttpRequestIn,
    res: HttpReply,
    mount: ResourceServerGuard | undefined,
    id: string | null,
    errors: readonly FrameError[],
  ): Promise<boolean> {
    if (errors.length === 0) return true;
    const auth = await this.admit(req, res, mount, []);
    if (auth === false) return false;
    const t = id === null ? undefined : this.sessions.get(id);
    if (t !== undefined && t.owner === principalKey(auth)) t.receiveUnreadable(errors);
    return true;
  }

  async handle(req: HttpRequestIn, res: HttpReply, mount?: ResourceServerGuard): Promise<void> {
    const refusal = checkHostOrigin(req, this.options);
    if (refusal) {
      sendJsonError(res, refusal.status, -32000, refusal.message);
      return;
    }
    // The path as sent, as the Streamable HTTP handler reads it: `new URL` would take "//host/sse"
    // for "/sse" and throw on a target such as "//[".
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const pathname = q === -1 ? target : target.slice(0, q);
    if (this.own?.serveMetadata(req, res, pathname)) return;
    if (pathname === this.ssePath && req.method === "GET") return this.openStream(req, res, mount);
    if (pathname === this.messagesPath && req.method === "POST") {
      return this.postMessage(
        req,
        res,
        mount,
        q === -1 ? null : new URLSearchParams(target.slice(q + 1)).get("sessionId"),
      );
    }
    // Nothing else is answered before the guard has admitted the request.
    if ((await this.admit(req, res, mount, [])) === false) return;
    res.writeHead(pathname === this.ssePath || pathname === this.messagesPath ? 405 : 404).end();
  }

  /** A GET of the SSE path: a session of the admitted principal, its stream this response. */
  private async openStream(req: HttpRequestIn, res: HttpReply, mount: ResourceServerGuard | undefined): Promise<void> {
    const auth = await this.admit(req, res, mount, []);
    // A client gone while its token was verified would leave a session nothing ever closes.
    if (auth === false || res.destroyed) return;
    const sessions = this.sessions;
    if (sessions.size >= (this.options.maxSessions ?? MAX_HTTP_SESSIONS)) {
      sendJsonError(res, 503, -32000, "Service Unavailable: too many open sessions", { "retry-after": "5" });
      return;
    }
    const id = globalThis.crypto.randomUUID();
    const t = new LegacySseServerTransport(
      id,
      res,
      `${this.messagesPath}?sessionId=${id}`,
      this.keepAliveMs,
      (x) => {
        if (sessions.get(x.sessionId) === x) sessions.delete(x.sessionId);
      },
      principalKey(auth),
    );
    sessions.set(id, t);
    // The node:http handler hands node's request; a host of its own hands what it has.
    await this.options.onsession(t, req as IncomingMessage);
  }

  /** A POST of one message to the session `id` names (of the principal admitted for the message). */
  private async postMessage(
    req: HttpRequestIn,
    res: HttpReply,
    mount: ResourceServerGuard | undefined,
    id: string | null,
  ): Promise<void> {
    const ctype = headerValue(req, "content-type");
    if (!isJsonMediaType(ctype)) {
      sendJsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    const body = await this.bodyOf(req, res, mount, id);
    if (body === undefined) return;
    const read = parseBody(utf8Text(body), MAX_NESTING_DEPTH);
    if (!("value" in read)) {
      if (
        read.outlines !== undefined &&
        !(await this.unreadable(
          req,
          res,
          mount,
          id,
          unreadableAnswers(read.outlines, read.code, `nests deeper than ${MAX_NESTING_DEPTH} levels`),
        ))
      )
        return;
      sendJsonError(res, read.status, read.code, read.message);
      return;
    }
    const message = read.value;
    if (message === null || typeof message !== "object") {
      sendJsonError(res, 400, -32600, "Invalid Request: expected a JSON-RPC message");
      return;
    }
    // Admitted per message, as a Streamable HTTP POST is: a tools/call needs its tool's scopes.
    const auth = await this.admit(req, res, mount, Array.isArray(message) ? message : [message]);
    if (auth === false) return;
    if (!id) {
      sendJsonError(res, 400, -32000, "Bad Request: sessionId query parameter is required");
      return;
    }
    const t = this.sessions.get(id);
    // Another principal's session is answered as no session: its existence is not confirmed.
    if (!t || t.owner !== principalKey(auth)) {
      sendJsonError(res, 404, -32001, "Session not found");
      return;
    }
    res.writeHead(202).end("Accepted");
    t.receive(message as JSONRPCMessage, { sessionId: id, headers: req.headers, auth, bytes: read.bytes });
  }

  /** The POST's body within maxBodyBytes and maxBufferedBodyBytes; undefined once refused. */
  private async bodyOf(
    req: HttpRequestIn,
    res: HttpReply,
    mount: ResourceServerGuard | undefined,
    id: string | null,
  ): Promise<Uint8Array | undefined> {
    try {
      // Only a live session has requests awaiting answers: only there is an oversized body read on for its id.
      return await readBody(req, this.maxBody, undefined, id !== null && this.sessions.has(id), this.buffered);
    } catch (e) {
      if (e instanceof BodyTooLargeError) {
        if (
          e.outline !== undefined &&
          !(await this.unreadable(
            req,
            res,
            mount,
            id,
            unreadableAnswers([e.outline], -32000, `exceeds ${this.maxBody} bytes (maxBodyBytes)`),
          ))
        )
          return undefined;
        sendJsonError(res, 413, -32000, `Payload Too Large: ${e.message}`, { connection: "close" });
      } else if (e instanceof BodyBufferFullError) {
        this.report(new Error(`POST refused (503): ${e.message}`));
        sendJsonError(res, 503, -32000, `Service Unavailable: ${e.message}`, BUFFER_FULL_HEADERS);
      } else res.destroy();
      return undefined;
    }
  }
}

export function createLegacySseHandler(options: LegacySseOptions): LegacySseHandler {
  const endpoint = new LegacySseEndpoint(options);
  const sessions = endpoint.sessions;
  return {
    sessions,
    get bufferedBodyBytes() {
      return endpoint.buffered.used;
    },
    handles: (p) => p === endpoint.ssePath || p === endpoint.messagesPath || p === endpoint.own?.metadataPath,
    handle: (req, res, mount) => endpoint.handle(req, res, mount),
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
    },
  };
}
