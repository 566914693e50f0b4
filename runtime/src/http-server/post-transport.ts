/**
 * The Transport of one stateless POST on an endpoint without the legacy era's HTTP side (a server of
 * 2026-07-28 alone on a fetch host): one request, or a stateless legacy POST such a server answers,
 * and one reply to it, plain JSON or one SSE stream. No session, no event store, no GET stream, no
 * resumption: session-transport.ts serves those, and only servers of a legacy revision load it.
 * Behaves as that transport does for a POST of no session (see
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http).
 */
import { unrefTimer, type HttpReply } from "../http-exchange.js";
import { afterIo } from "../after-io.js";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { encodeSseComment, encodeSseMessage } from "../framing/sse.js";
import { MAX_UNREAD_BYTES, SSE_HEADERS, sendJsonText } from "./http-util.js";
import { modernErrorStatus } from "./modern.js";

/** One shared settled promise for synchronous sends (the session skips handlers on a repeat). */
const SENT: Promise<void> = Promise.resolve();

function uncork(res: HttpReply): void {
  res.uncork?.();
}

export class PostTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /**
   * No closeStream (nothing to resume from without an event store) and no onReplyStreamClosed (a
   * dropped reply closes the transport, which ends every request anyway).
   */
  get hints(): TransportHints {
    return this;
  }

  /** Stateless legacy POST: its MCP-Protocol-Version header (see TransportHints.statelessRequest). */
  statelessRequest: { protocolVersion?: string } | undefined;
  /** The era of every message here: a 2026-07-28 POST is modern (see TransportHints.era). */
  readonly era: "modern" | undefined;
  private closed = false;
  /** The POST's response while its reply is owed; undefined once handed on or the client left. */
  private res: HttpReply | undefined;
  /** pending: the reply's format is not chosen yet; json: collecting a JSON reply; sse: streaming. */
  private mode: "pending" | "json" | "sse" = "pending";
  /** Request ids of the POST still awaiting their responses; undefined before the POST and once its reply is done. */
  private open: Set<RequestId> | undefined;
  private batch = false;
  private allowJson = false;
  private allowSse = false;
  private jsonReplies: JSONRPCMessage[] | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    /** 2026-07-28: modern error statuses on a JSON reply, keep-alive comments on an SSE reply. */
    private readonly modern: boolean,
    private readonly keepAliveMs: number,
  ) {
    this.era = modern ? "modern" : undefined;
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

  /** The POST carries requests: its reply waits for their responses. */
  openPostStream(
    res: HttpReply,
    requestIds: RequestId[],
    o: { allowJson: boolean; allowSse: boolean; batch: boolean },
  ): void {
    this.res = res;
    this.mode = o.allowJson ? "pending" : "sse";
    this.open = new Set(requestIds);
    this.batch = o.batch;
    this.allowJson = o.allowJson;
    this.allowSse = o.allowSse;
    // A client gone before its reply stream opened (while its token was verified) has closed it.
    if (res.destroyed) return this.detach(res);
    if (this.mode === "sse") this.beginSse(res);
    res.on("close", () => this.detach(res));
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new Error("transport is closed"));
    if (Array.isArray(message)) {
      for (const m of message) this.sendOne(m, options?.relatedRequestId);
    } else this.sendOne(message, options?.relatedRequestId);
    return SENT;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.open !== undefined) {
      this.stopKeepAlive();
      const res = this.res;
      this.res = undefined;
      this.open = undefined;
      if (res && !res.writableEnded) {
        if (!res.headersSent && this.mode !== "sse") res.writeHead(404, {});
        res.end();
      }
    }
    this.onclose?.();
  }

  abandonReply(requestId: RequestId): void {
    const open = this.open;
    if (open === undefined || !open.delete(requestId) || open.size > 0) return;
    // Nothing more is owed: end the reply like one whose last response went out.
    if (this.mode === "json") return this.sendJsonReplies();
    if (this.mode === "pending") {
      const res = this.finish();
      if (res && !res.headersSent) res.writeHead(202, { "content-length": 0 }).end();
      return;
    }
    this.endStream();
  }

  private sendOne(m: JSONRPCMessage, related: RequestId | undefined): void {
    const open = this.open;
    if (!("method" in m) && "id" in m) {
      const rid = m.id as RequestId | null;
      // The session's answer to the POST as a whole (a batch no revision of it takes), which no
      // request id routes: the POST's reply, 400 as the endpoint's own refusal of a batch.
      if (rid === null && open !== undefined) return this.answerWhole(m);
      if (open === undefined || !open.delete(rid!)) {
        this.onerror?.(new Error(`no open HTTP stream for the response to request ${String(rid)}`));
        return;
      }
      this.write(m, true);
      return;
    }
    if (
      related === undefined ||
      open === undefined ||
      !open.has(related) ||
      this.mode === "json" ||
      (this.mode === "pending" && !this.allowSse)
    ) {
      this.onerror?.(new Error("no SSE stream to carry a server-initiated message (stateless); it was dropped"));
      return;
    }
    this.write(m, false);
  }

  private write(m: JSONRPCMessage, response: boolean): void {
    const done = response && this.open!.size === 0;
    if (this.mode !== "sse") {
      if (response && !this.batch && done && this.mode === "pending") {
        // The common case: one request, answered without side messages: a plain JSON reply.
        const res = this.finish();
        if (res && !res.writableEnded) {
          const body = JSON.stringify(m);
          const error = (m as { error?: { code?: unknown } }).error;
          const status =
            this.modern && error !== undefined && typeof error.code === "number" ? modernErrorStatus(error.code) : 200;
          sendJsonText(res, status, body);
        }
        return;
      }
      if (this.mode === "pending" && (!response || !this.allowJson)) {
        this.mode = "sse";
        if (this.res !== undefined) this.beginSse(this.res);
      } else {
        this.mode = "json";
        (this.jsonReplies ??= []).push(m);
        if (done) this.sendJsonReplies();
        return;
      }
    }
    const event = encodeSseMessage(JSON.stringify(m));
    if (done) return this.endStream(event);
    const res = this.res;
    if (res && !res.writableEnded) {
      res.write(event);
      if (res.writableLength > MAX_UNREAD_BYTES) {
        this.onerror?.(new Error("SSE client is not reading; connection dropped"));
        res.destroy();
      }
    }
  }

  /** Switch the reply to SSE; what the handler answers within this turn leaves with the headers. */
  private beginSse(res: HttpReply): void {
    if (res.headersSent) return;
    res.writeHead(200, SSE_HEADERS);
    if (this.modern) this.armKeepAlive();
    res.cork?.();
    res.flushHeaders();
    if (res.cork !== undefined) afterIo(uncork, res);
  }

  private sendJsonReplies(): void {
    const res = this.finish();
    const replies = this.jsonReplies ?? [];
    this.jsonReplies = undefined;
    if (res && !res.writableEnded) {
      const body = JSON.stringify(this.batch ? replies : replies[0]);
      sendJsonText(res, 200, body);
    }
  }

  private answerWhole(m: JSONRPCMessage): void {
    if (this.res?.headersSent) return this.endStream(encodeSseMessage(JSON.stringify(m)));
    const res = this.finish();
    if (res && !res.writableEnded) sendJsonText(res, 400, JSON.stringify(m));
  }

  /** All responses are out: end the stream, with its `last` event in the same write. */
  private endStream(last?: string): void {
    this.stopKeepAlive();
    const res = this.finish();
    if (res && !res.writableEnded) res.end(last);
  }

  /** The reply is done: nothing is awaited any more, and the transport closes (it served its one POST). */
  private finish(): HttpReply | undefined {
    const res = this.res;
    this.res = undefined;
    this.open = undefined;
    queueMicrotask(() => void this.close());
    return res;
  }

  /** The client went away: nobody can resume, so a dropped reply ends the work (and its handlers). */
  private detach(res: HttpReply): void {
    if (this.res !== res) return;
    this.res = undefined;
    this.stopKeepAlive();
    if (this.open !== undefined && this.open.size > 0) void this.close();
  }

  private armKeepAlive(): void {
    this.stopKeepAlive();
    const ms = this.keepAliveMs;
    if (ms > 0) {
      this.keepAlive = unrefTimer(
        setInterval(() => {
          const res = this.res;
          if (res && !res.writableEnded) res.write(encodeSseComment("keep-alive"));
        }, ms),
      );
    }
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
  }
}
