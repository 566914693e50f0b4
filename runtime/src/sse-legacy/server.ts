import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport } from "../transport.js";
import { encodeSseComment, encodeSseEvent } from "../framing/sse.js";
import { checkHostOrigin, type HostOriginOptions } from "../http-server/security.js";
import { isJsonMediaType, parseBody } from "../http-server/post-checks.js";
import { MAX_HTTP_SESSIONS, MAX_NESTING_DEPTH } from "../limits.js";
import { unreadableAnswers, type FrameError } from "../framing/frame-error.js";
import {
  BodyTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  SSE_HEADERS,
  headerValue,
  readBody,
  sendJsonError,
} from "../http-server/http-util.js";

/** One shared settled promise for synchronous sends (the session skips handlers on a repeat). */
const SENT: Promise<void> = Promise.resolve();

/**
 * Server side of the 2024-11-05 HTTP+SSE transport: one connection = one GET SSE stream that
 * first announces (event `endpoint`) the URI to POST messages to; every server message travels
 * on the stream as event `message`.
 */
export class LegacySseServerTransport implements Transport {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;
  readonly sessionId: string;
  private res: ServerResponse | undefined;
  private closed = false;
  private keepAlive: NodeJS.Timeout | undefined;
  private readonly onclosed: (t: LegacySseServerTransport) => void;

  constructor(sessionId: string, res: ServerResponse, endpoint: string, keepAliveMs: number, onclosed: (t: LegacySseServerTransport) => void) {
    this.sessionId = sessionId;
    this.res = res;
    this.onclosed = onclosed;
    res.writeHead(200, SSE_HEADERS);
    res.write(encodeSseEvent({ event: "endpoint", data: endpoint }));
    res.on("close", () => void this.close());
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.res?.write(encodeSseComment("keep-alive")), keepAliveMs);
      this.keepAlive.unref();
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
    for (const e of errors) {
      if (this.onframeerror) this.onframeerror(e);
      else this.onerror?.(e);
    }
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: SendOptions): Promise<void> {
    const res = this.res;
    if (this.closed || !res) return Promise.reject(new Error("transport is closed"));
    res.write(encodeSseEvent({ event: "message", data: JSON.stringify(message) }));
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

export interface LegacySseOptions extends HostOriginOptions {
  /** Path of the GET SSE endpoint (default "/sse"). */
  ssePath?: string;
  /** Path clients POST to; the endpoint event adds `?sessionId=…` (default "/messages"). */
  messagesPath?: string;
  onsession: (transport: LegacySseServerTransport, request: IncomingMessage) => void | Promise<void>;
  maxBodyBytes?: number;
  /** Keep-alive comment interval (default 25000 ms; 0 disables). */
  keepAliveMs?: number;
  /** Open SSE connections at once (default 10 000); more get 503. */
  maxSessions?: number;
}

export interface LegacySseHandler {
  handles(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  readonly sessions: ReadonlyMap<string, LegacySseServerTransport>;
  close(): Promise<void>;
}

export function createLegacySseHandler(options: LegacySseOptions): LegacySseHandler {
  const ssePath = options.ssePath ?? "/sse";
  const messagesPath = options.messagesPath ?? "/messages";
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keepAliveMs = options.keepAliveMs ?? 25_000;
  const sessions = new Map<string, LegacySseServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = checkHostOrigin(req, options);
    if (refusal) {
      sendJsonError(res, refusal.status, -32000, refusal.message);
      return;
    }
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === ssePath && req.method === "GET") {
      if (sessions.size >= (options.maxSessions ?? MAX_HTTP_SESSIONS)) {
        sendJsonError(res, 503, -32000, "Service Unavailable: too many open sessions", { "retry-after": "5" });
        return;
      }
      const id = randomUUID();
      const t = new LegacySseServerTransport(id, res, `${messagesPath}?sessionId=${id}`, keepAliveMs, (x) => {
        if (sessions.get(x.sessionId) === x) sessions.delete(x.sessionId);
      });
      sessions.set(id, t);
      await options.onsession(t, req);
      return;
    }
    if (url.pathname === messagesPath && req.method === "POST") {
      const id = url.searchParams.get("sessionId");
      if (!id) {
        sendJsonError(res, 400, -32000, "Bad Request: sessionId query parameter is required");
        return;
      }
      const t = sessions.get(id);
      if (!t) {
        sendJsonError(res, 404, -32001, "Session not found");
        return;
      }
      const ctype = headerValue(req, "content-type");
      if (!isJsonMediaType(ctype)) {
        sendJsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
        return;
      }
      let body: Buffer;
      try {
        body = await readBody(req, maxBody, undefined, true);
      } catch (e) {
        if (e instanceof BodyTooLargeError) {
          if (e.outline !== undefined) t.receiveUnreadable(unreadableAnswers([e.outline], -32000, `exceeds ${maxBody} bytes (maxBodyBytes)`));
          sendJsonError(res, 413, -32000, `Payload Too Large: ${e.message}`, { connection: "close" });
        } else res.destroy();
        return;
      }
      const read = parseBody(body.toString("utf8"), MAX_NESTING_DEPTH);
      if (!("value" in read)) {
        if (read.outlines !== undefined) t.receiveUnreadable(unreadableAnswers(read.outlines, read.code, `nests deeper than ${MAX_NESTING_DEPTH} levels`));
        sendJsonError(res, read.status, read.code, read.message);
        return;
      }
      const message = read.value;
      if (message === null || typeof message !== "object") {
        sendJsonError(res, 400, -32600, "Invalid Request: expected a JSON-RPC message");
        return;
      }
      res.writeHead(202).end("Accepted");
      t.receive(message as JSONRPCMessage, { sessionId: id, headers: req.headers });
      return;
    }
    res.writeHead(url.pathname === ssePath || url.pathname === messagesPath ? 405 : 404).end();
  }

  return {
    sessions,
    handles: (p) => p === ssePath || p === messagesPath,
    handle,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
    },
  };
}
