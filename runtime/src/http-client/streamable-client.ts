import { ownCopy } from "../session/own-copy.js";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { SseDecoder } from "../framing/sse.js";
import { HttpStatusError, type HttpDriver, type NodeHttpAgent } from "./driver.js";
import { defaultHttpDriver } from "#http-driver";
import { FrameError } from "../framing/frame-error.js";
import { outlineOf, textExceedsDepth } from "../framing/scan.js";
import { CLIENT_MAX_MESSAGE_BYTES, MAX_NESTING_DEPTH } from "../limits.js";
import type { HttpAuthorizer } from "../auth/hook.js";

export interface ReconnectOptions {
  /** First delay when the server gave no `retry` (default 1000 ms). */
  initialDelayMs?: number;
  /** Cap of the back-off (default 30000 ms). */
  maxDelayMs?: number;
  /** Back-off growth (default 1.5). */
  factor?: number;
  /** Failed reconnection attempts in a row before giving up on a stream (default 2). */
  maxRetries?: number;
}

export interface StreamableHttpClientOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** Extra headers on every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Keep-alive agent to use; default one per transport (keep-alive, destroyed on close). */
  agent?: NodeHttpAgent;
  /** Send over this `fetch` instead of the host's default (node:http on Node, fetch elsewhere); e.g. a Workers service binding's. */
  fetch?: typeof fetch;
  /** Resume an existing session. */
  sessionId?: string;
  /** Open the standalone GET stream once `notifications/initialized` is accepted (default true). */
  openGetStream?: boolean;
  reconnect?: ReconnectOptions;
  /** Largest SSE event (characters) or JSON reply (bytes) accepted (default 64 Mi). */
  maxMessageChars?: number;
  /** Deepest array/object nesting accepted in a message (default 128). */
  maxDepth?: number;
  /** Bound on the DELETE sent by close() (default 2000 ms). */
  closeTimeoutMs?: number;
  /** Authorization (e.g. `OAuthClient` from `@mcpgen/runtime/auth`): the header of every request, and what to do on 401/403. */
  auth?: HttpAuthorizer;
}

/** State of one logical SSE stream (a POST reply, or the standalone GET stream) across reconnects. */
interface StreamCtx {
  readonly pending: Set<RequestId>;
  readonly standalone: boolean;
  lastEventId: string | undefined;
  retryMs: number | undefined;
  failures: number;
}

/** Streamable HTTP client transport (2025-03-26 … 2025-11-25): node:http with keep-alive on Node, fetch elsewhere. */
export class StreamableHttpClientTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;

  private readonly o: StreamableHttpClientOptions;
  private readonly http: HttpDriver;
  private sid: string | undefined;
  private protocolVersion: string | undefined;
  private closed = false;
  private started = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private getStreamOpen = false;
  /** Requests whose response has not arrived, by the stream that should carry it (a response may come on another). */
  private readonly awaiting = new Map<RequestId, StreamCtx>();

  constructor(options: StreamableHttpClientOptions) {
    this.o = options;
    this.http = defaultHttpDriver({
      url: new URL(options.url),
      agent: options.agent,
      auth: options.auth,
      fetch: options.fetch,
    });
    this.sid = options.sessionId;
  }

  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  get sessionId(): string | undefined {
    return this.sid;
  }

  get url(): URL {
    return this.http.url;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("transport already started");
    this.started = true;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  private headers(accept: string): Record<string, string> {
    // ownCopy, not a spread then new keys: that is slow on Node 20 and this runs per request.
    const h: Record<string, string> = ownCopy(this.o.headers);
    h.accept = accept;
    if (this.sid !== undefined) h["mcp-session-id"] = this.sid;
    if (this.protocolVersion !== undefined) h["mcp-protocol-version"] = this.protocolVersion;
    return h;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: SendOptions): Promise<void> {
    if (this.closed) throw new Error("transport is closed");
    const h = this.headers("application/json, text/event-stream");
    h["content-type"] = "application/json";
    const res = await this.http.request("POST", h, JSON.stringify(message));
    const sid = this.http.header(res, "mcp-session-id");
    if (sid !== undefined && sid !== "") this.sid = sid;
    const status = this.http.status(res);
    if (status === 202) {
      this.http.discard(res);
      if (this.o.openGetStream !== false && !this.getStreamOpen && isInitialized(message)) {
        this.getStreamOpen = true;
        this.openGetStream();
      }
      return;
    }
    if (status < 200 || status >= 300) {
      const text = await this.http.text(res, 64 * 1024).catch(() => "");
      if (status === 404 && h["mcp-session-id"] !== undefined) this.sid = undefined;
      throw new HttpStatusError(
        status,
        text,
        status === 404 && h["mcp-session-id"] !== undefined ? "session expired" : "POST failed",
      );
    }
    const ctype = this.http.header(res, "content-type") ?? "";
    if (ctype.includes("text/event-stream")) {
      const ctx: StreamCtx = {
        pending: requestIds(message),
        standalone: false,
        lastEventId: undefined,
        retryMs: undefined,
        failures: 0,
      };
      for (const id of ctx.pending) this.awaiting.set(id, ctx);
      this.consume(res, ctx);
      return;
    }
    const text = await this.http.text(res, this.o.maxMessageChars ?? CLIENT_MAX_MESSAGE_BYTES);
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`POST reply is not JSON (content-type ${ctype || "none"})`);
    }
    if (this.tooDeep(text, parsed)) return;
    this.deliver(parsed as JSONRPCMessage | JSONRPCMessage[]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.awaiting.clear();
    this.http.abortAll();
    if (this.sid !== undefined) {
      // Best effort: end the server session; 405 (not supported) and errors are fine.
      const del = this.http.request("DELETE", this.headers("application/json, text/event-stream")).then(
        (res) => this.http.discard(res),
        () => {},
      );
      await Promise.race([del, this.delay(this.o.closeTimeoutMs ?? 2000)]);
    }
    this.http.destroy();
    this.onclose?.();
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      // Node only: the bound on close() must not keep a process alive.
      (t as { unref?: () => void }).unref?.();
    });
  }

  /** A message nesting past the limit is not delivered; the request it answers fails at once. */
  private tooDeep(text: string, parsed: unknown): boolean {
    const max = this.o.maxDepth ?? MAX_NESTING_DEPTH;
    if (!textExceedsDepth(text, max)) return false;
    this.frameError(`message nests deeper than ${max} levels`, outlineOf(parsed));
    return true;
  }

  private frameError(message: string, outline: FrameError["outline"]): void {
    const error = new FrameError(
      message,
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: ${message}` } },
      outline,
    );
    if (this.onframeerror) this.onframeerror(error);
    else this.onerror?.(error);
  }

  /** The stream that was to carry these responses is gone for good: their requests fail now, not at their timeout. */
  private lost(ctx: StreamCtx, why: string): void {
    for (const id of ctx.pending) {
      this.awaiting.delete(id);
      this.frameError(why, { kind: "response", id });
    }
    ctx.pending.clear();
  }

  private deliver(m: JSONRPCMessage | JSONRPCMessage[]): void {
    try {
      this.onmessage?.(m);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  private openGetStream(): void {
    this.reconnect(
      { pending: new Set(), standalone: true, lastEventId: undefined, retryMs: undefined, failures: 0 },
      0,
    );
  }

  /** Reads one SSE response; when it ends early, reconnects with GET + Last-Event-ID. */
  private consume(res: unknown, ctx: StreamCtx): void {
    const decoder = new SseDecoder(
      {
        onevent: (e) => {
          if (e.id !== undefined) ctx.lastEventId = e.id;
          if (e.data === "" || (e.event !== undefined && e.event !== "message")) return;
          ctx.failures = 0;
          let m: JSONRPCMessage | JSONRPCMessage[];
          try {
            m = JSON.parse(e.data) as JSONRPCMessage | JSONRPCMessage[];
          } catch {
            this.onerror?.(new Error("SSE event data is not JSON"));
            return;
          }
          if (this.tooDeep(e.data, m)) {
            const o = outlineOf(m);
            if (o.kind === "response" && o.id !== undefined) this.answered(m as JSONRPCMessage);
            return;
          }
          if (Array.isArray(m)) {
            for (const x of m) this.answered(x);
          } else this.answered(m);
          this.deliver(m);
        },
        onretry: (ms) => {
          ctx.retryMs = ms;
        },
        onerror: (e) => {
          this.onerror?.(e);
          // An event too large to buffer was cut: it was most likely the reply this stream carries.
          if ((e as { type?: string }).type === "max-buffer-size-exceeded" && !ctx.standalone) {
            this.lost(ctx, `an SSE event exceeded ${this.o.maxMessageChars ?? CLIENT_MAX_MESSAGE_BYTES} characters`);
            this.http.end(res);
          }
        },
      },
      { maxBufferChars: this.o.maxMessageChars ?? CLIENT_MAX_MESSAGE_BYTES },
    );
    const end = (): void => {
      decoder.end();
      if (this.closed) return;
      if (!ctx.standalone && ctx.pending.size === 0) return;
      if (!ctx.standalone && ctx.lastEventId === undefined) {
        this.lost(ctx, "the SSE reply ended before the response and cannot be resumed (no event id)");
        return;
      }
      this.reconnect(ctx, ctx.retryMs ?? this.backoff(ctx.failures));
    };
    this.http.stream(res, (chunk) => decoder.push(chunk), end);
  }

  private answered(m: JSONRPCMessage): void {
    if (!isResponseTo(m)) return;
    const id = (m as { id: RequestId }).id;
    const ctx = this.awaiting.get(id);
    if (ctx) {
      this.awaiting.delete(id);
      ctx.pending.delete(id);
    }
  }

  private backoff(failures: number): number {
    const r = this.o.reconnect ?? {};
    const initial = r.initialDelayMs ?? 1000;
    return Math.min(initial * Math.pow(r.factor ?? 1.5, failures), r.maxDelayMs ?? 30_000);
  }

  private reconnect(ctx: StreamCtx, delayMs: number): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.get(ctx);
    }, delayMs);
    this.timers.add(t);
  }

  private async get(ctx: StreamCtx): Promise<void> {
    if (this.closed) return;
    const h = this.headers("text/event-stream");
    if (ctx.lastEventId !== undefined) h["last-event-id"] = ctx.lastEventId;
    let res: unknown;
    try {
      res = await this.http.request("GET", h);
    } catch (e) {
      if (!this.closed) this.retryOrGiveUp(ctx, e as Error);
      return;
    }
    const status = this.http.status(res);
    const ctype = this.http.header(res, "content-type") ?? "";
    if (status >= 200 && status < 300 && ctype.includes("text/event-stream")) {
      this.consume(res, ctx);
      return;
    }
    this.http.discard(res);
    // The server offers no GET stream: fine for the standalone stream, fatal for a reply.
    if (status === 405 && ctx.standalone) return;
    this.retryOrGiveUp(ctx, new HttpStatusError(status, "", "SSE GET failed"));
  }

  private retryOrGiveUp(ctx: StreamCtx, error: Error): void {
    const max = this.o.reconnect?.maxRetries ?? 2;
    if (++ctx.failures > max) {
      this.onerror?.(new Error(`SSE stream lost after ${max} reconnection attempts: ${error.message}`));
      this.lost(ctx, `its SSE stream was lost after ${max} reconnection attempts`);
      return;
    }
    this.reconnect(ctx, this.backoff(ctx.failures));
  }
}

/** Peer data: anything JSON can be (a string, a number, null), not only messages. */
function isResponseTo(m: unknown): boolean {
  return typeof m === "object" && m !== null && !("method" in m) && "id" in m;
}

function requestIds(message: JSONRPCMessage | JSONRPCMessage[]): Set<RequestId> {
  const ids = new Set<RequestId>();
  for (const m of Array.isArray(message) ? message : [message]) {
    if ("method" in m && "id" in m && m.id !== undefined) ids.add(m.id);
  }
  return ids;
}

function isInitialized(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  return !Array.isArray(message) && "method" in message && message.method === "notifications/initialized";
}
