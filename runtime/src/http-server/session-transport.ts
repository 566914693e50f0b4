import { unrefTimer, utf8Length, type HttpReply } from "../http-exchange.js";
import { afterIo, afterIoIsImmediate } from "../after-io.js";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { encodeSseComment, encodeSseMessage, encodeSsePriming } from "../framing/sse.js";
import type { EventStore } from "./event-store.js";
import { MAX_UNREAD_BYTES, SSE_HEADERS } from "./http-util.js";
import { modernErrorStatus } from "./modern.js";
import type { FrameError } from "../framing/frame-error.js";
import { markRequest, unmarkAnswer } from "./session-marks.js";

/** One shared settled promise for synchronous sends (the session skips handlers on a repeat). */
const SENT: Promise<void> = Promise.resolve();

/** One logical SSE stream (or a pending POST reply) of a session. */
interface Stream {
  readonly id: string;
  /** The HTTP response currently carrying it; undefined while the client is away (polling, disconnect). */
  res: HttpReply | undefined;
  /** pending: the POST reply's format is not chosen yet; json: collecting a JSON reply; sse: streaming. */
  mode: "pending" | "json" | "sse";
  readonly standalone: boolean;
  /**
   * The POST's request ids; those still awaiting their responses are the ones `byRequest` maps to
   * this stream (no set of its own per POST), `pending` of them.
   */
  readonly ids: readonly RequestId[];
  pending: number;
  /** POST carried a JSON array (2025-03-26 batch): the JSON reply is an array too. */
  readonly batch: boolean;
  readonly allowJson: boolean;
  readonly allowSse: boolean;
  jsonReplies: JSONRPCMessage[] | undefined;
  /** Serialises writes when the event store answers asynchronously. */
  tail: Promise<void> | undefined;
  keepAlive: ReturnType<typeof setInterval> | undefined;
  /** Standalone stream only: encoded events sent while no GET was connected, flushed on the next GET. */
  backlog?: string[];
  /** Characters held in `backlog`. */
  backlogChars?: number;
  /**
   * A POST stream's priming event, held until the stream's first event or the end of the turn it
   * opened in (`release`), to go out in the same write: node frames each write as a chunk of its own.
   */
  prime: string | undefined;
  /** Its neighbours among the transport's open streams (`StreamableHttpServerTransport.open`). */
  prev: Stream | undefined;
  next: Stream | undefined;
}

/** Cap on events held for a standalone stream while no GET is connected. */
const MAX_BACKLOG = 1000;
/** ...and on their size, so a few large notifications cannot pin memory for an absent client. */
const MAX_BACKLOG_CHARS = 16 * 1024 * 1024;

export interface SessionTransportConfig {
  sessionId: string | undefined;
  /** `principalKey` of the principal that initialized the session (a guarded endpoint); undefined otherwise. */
  owner?: string;
  eventStore: EventStore | undefined;
  /** `retry` (ms) sent with each priming event; undefined sends none. */
  retryMs: number | undefined;
  /**
   * The event store is the endpoint's own InMemoryEventStore, whose event ids are this transport's
   * stream ids and a number: one line each, not scanned for line breaks per event. And no session
   * comes from or goes to another instance (no directory), so its `key` is this process's count of
   * sessions alone (from its random start, `processKey()`): short stream and event ids, each one flat
   * string (those of a longer key were two or three strings joined, each copied by every scavenge
   * while the store held them).
   */
  ownStore?: boolean;
  /** Keep-alive comment interval on the standalone GET stream (0 = none). */
  keepAliveMs: number;
  /** Stateless mode: close once no request is outstanding, and when the client drops a reply. */
  closeWhenIdle: boolean;
  /** Called once when the transport closes (the server forgets the session). */
  onclosed: (t: StreamableHttpServerTransport) => void;
  /**
   * 2026-07-28 stateless POST: JSON error replies carry the spec's HTTP status (404 for -32601,
   * 400 for the parameter/header/version/capability errors), and SSE replies get keep-alive
   * comments (a `subscriptions/listen` stream stays open).
   */
  modern?: boolean;
  /**
   * A legacy session taken over from an instance that died (session-record.ts): the prefix of its
   * stream ids and its standalone stream's id there, so a `Last-Event-ID` issued by the dead
   * instance resumes here.
   */
  adopt?: { streams: string; standalone: string | undefined };
  /** The standalone stream got its id (a session record keeps it). */
  onstandalone?: (streamId: string) => void;
}

let streamKeySeq = 0;

/**
 * POST streams whose SSE began in this I/O turn, each with its response (a stream, a response, a
 * stream, ...): once the turn is over, by one callback for all of them (no Immediate and no object
 * per POST), each priming event goes out unless an event took it along (or the stream moved on),
 * and node's cork is released. Where that callback is a timer (workerd, Deno), each stream has its
 * own: workerd drops a request's timers when it ends, and a shared one would strand the rest.
 */
let held: unknown[] = [];
function release(list: unknown[]): void {
  if (list === held) held = [];
  for (let i = 0; i < list.length; i += 2) {
    const s = list[i] as Stream;
    const res = list[i + 1] as HttpReply;
    const prime = s.prime;
    if (prime !== undefined && s.res === res) {
      s.prime = undefined;
      if (!res.writableEnded) res.write(prime);
    }
    res.uncork?.();
  }
}
function releaseAfterTurn(s: Stream, res: HttpReply): void {
  if (!afterIoIsImmediate) return afterIo(release, [s, res]);
  if (held.length === 0) afterIo(release, held);
  held.push(s, res);
}

/**
 * What sets this process's stream ids apart from another's behind the same event store (node's
 * pid was used; a Worker isolate has none), and with the endpoint's own store from the process it
 * replaced (a client's Last-Event-ID from before a restart then names no stream of its new
 * session): drawn once, on first use, not at import.
 */
let drawnKey: number | undefined;
function processKey(): number {
  return (drawnKey ??= globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!);
}

/** A POST's stream (`o`: how it may be answered), or the standalone one: one literal, one shape. */
function newStream(
  id: string,
  res: HttpReply | undefined,
  ids: readonly RequestId[],
  o: { readonly allowJson: boolean; readonly allowSse: boolean; readonly batch: boolean } | undefined,
): Stream {
  return {
    id,
    res,
    mode: o?.allowJson ? "pending" : "sse",
    standalone: o === undefined,
    ids,
    pending: 0,
    batch: o?.batch ?? false,
    allowJson: o?.allowJson ?? false,
    allowSse: o?.allowSse ?? true,
    jsonReplies: undefined,
    tail: undefined,
    keepAlive: undefined,
    prime: undefined,
    prev: undefined,
    next: undefined,
  };
}

/**
 * The Transport of one Streamable HTTP session (or, in stateless mode, of one POST). The server
 * creates it and hands it to `onsession`; it routes each outgoing message to exactly one stream:
 * responses to the POST that carried their request, related messages (`relatedRequestId`) to that
 * POST's stream, everything else to the standalone GET stream.
 */
export class StreamableHttpServerTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;

  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  readonly sessionId: string | undefined;
  /** Protocol revision set by the session after negotiation. */
  protocolVersion: string | undefined;
  /** Stateless legacy POST: its MCP-Protocol-Version header (see TransportHints.statelessRequest). */
  statelessRequest: { protocolVersion?: string } | undefined;

  private readonly cfg: SessionTransportConfig;
  /** Prefix of every stream id of this session, so a Last-Event-ID from another session is refused. */
  readonly key: string;
  private streamSeq = 0;
  private readonly byRequest = new Map<RequestId, Stream>();
  /**
   * The open streams, newest first, linked through their own `prev`/`next`: no Map keyed by stream
   * id, whose new id string per POST was hashed and written and deleted once a call. Only a client
   * resuming looks a stream up by id (a walk of this session's open streams).
   */
  private open: Stream | undefined;
  private standalone: Stream | undefined;
  private closed = false;
  private sessionHeader: Record<string, string>;
  /** The priming events' `retry:` line, made once. */
  private readonly retryLine: string;
  /** SSE_HEADERS with sessionHeader, made once: every SSE reply of the session sends them. */
  private sseHeaders: Readonly<Record<string, string>> | undefined;
  private sse(): Readonly<Record<string, string>> {
    return (this.sseHeaders ??= { ...SSE_HEADERS, ...this.sessionHeader });
  }
  /** The initialize request that decides whether this session is born (see expectInitialize). */
  private initializeId: RequestId | undefined;
  /** Requests that end when the client closes their reply's stream (onReplyStreamClosed); made on first use. */
  private endsWithStream: Map<RequestId, (requestId: RequestId) => void> | undefined;
  /** Requests restore() delivered whose replies nobody reads. */
  private restoring: Set<RequestId> | undefined;

  constructor(cfg: SessionTransportConfig) {
    this.cfg = cfg;
    this.sessionId = cfg.sessionId;
    if (cfg.adopt === undefined) {
      const n = ++streamKeySeq;
      this.key = cfg.ownStore
        ? (processKey() + n).toString(36)
        : `${processKey().toString(36)}${n.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    } else {
      this.key = cfg.adopt.streams;
      // The dead instance numbered its streams from 1, one per POST: ours start at the takeover's
      // microsecond, past any it could have reached (and past an earlier takeover's).
      this.streamSeq = Date.now() * 1000;
    }
    this.sessionHeader = cfg.sessionId !== undefined ? { "mcp-session-id": cfg.sessionId } : {};
    this.retryLine = cfg.retryMs === undefined ? "" : `retry: ${Math.max(0, Math.floor(cfg.retryMs))}\n`;
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** The era of every message here, when known: a 2026-07-28 POST is modern (see TransportHints.era). */
  get era(): "modern" | undefined {
    return this.cfg.modern ? "modern" : undefined;
  }

  /** `principalKey` of the principal this session belongs to: the server serves its id to that principal only. */
  get owner(): string | undefined {
    return this.cfg.owner;
  }

  /** Stateless mode: this transport serves one POST; there is no session and no handshake state to keep. */
  get stateless(): boolean {
    return this.cfg.closeWhenIdle;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether a standalone GET stream is connected. */
  get hasStandaloneStream(): boolean {
    return this.standalone?.res !== undefined;
  }

  // ---- called by the server ------------------------------------------------------------------

  /** Deliver inbound messages to the session. */
  /** Last time (ms since epoch) the client sent anything on this session. */
  lastActivity = Date.now();

  /**
   * Whether any reply or GET stream is still connected or awaited. A cancelled request is no
   * longer awaited (abandonReply), so a listen whose client went away keeps nothing busy.
   */
  get busy(): boolean {
    if (this.byRequest.size > 0) return true;
    for (let s = this.open; s !== undefined; s = s.next) if (s.res) return true;
    return false;
  }

  receive(message: JSONRPCMessage | JSONRPCMessage[], context: MessageContext): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    if (this.cfg.adopt !== undefined) message = this.unmark(message);
    try {
      this.onmessage?.(message, context);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  /**
   * Answers in `messages` to requests the instance this session was taken over from sent: they
   * can never be delivered (the requests died with it). Undefined when there are none (always, for
   * a session never taken over).
   */
  staleAnswers(messages: readonly unknown[]): unknown[] | undefined {
    if (this.cfg.adopt === undefined) return undefined;
    const ids = messages
      .filter((m) => unmarkAnswer(m as JSONRPCMessage) === undefined)
      .map((m) => (m as { id: unknown }).id);
    return ids.length > 0 ? ids : undefined;
  }

  private unmark(message: JSONRPCMessage | JSONRPCMessage[]): JSONRPCMessage | JSONRPCMessage[] {
    if (!Array.isArray(message)) return unmarkAnswer(message) ?? message;
    return message.map((m) => unmarkAnswer(m) ?? m);
  }

  /** Responses POSTed to this session too large or too deep to deliver: the requests they answer fail now rather than at their timeout. */
  receiveUnreadable(errors: readonly FrameError[]): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    for (const e of errors) (this.onframeerror ?? this.onerror)?.(e);
  }

  /** A POST carrying requests: its reply waits for their responses. */
  openPostStream(
    res: HttpReply,
    requestIds: RequestId[],
    o: { allowJson: boolean; allowSse: boolean; batch: boolean },
  ): void {
    const stream = newStream(this.newStreamId(), res, requestIds, o);
    this.link(stream);
    // Counted once each, as a set would (a batch may repeat an id).
    for (const id of requestIds) {
      if (this.byRequest.get(id) === stream) continue;
      this.byRequest.set(id, stream);
      stream.pending++;
    }
    // A client gone before its reply stream opened (while its token was verified) has closed it.
    if (res.destroyed) return this.detach(stream, res);
    if (stream.mode === "sse") this.beginSse(stream);
    res.on("close", () => this.detach(stream, res));
  }

  /**
   * Rebuild a taken-over session's state by delivering the messages that made it (its
   * `initialize`, `notifications/initialized`, its log level and subscriptions) as its client
   * once sent them; the replies to those requests go nowhere.
   */
  restore(messages: readonly JSONRPCMessage[], auth: MessageContext["auth"]): void {
    this.restoring = new Set();
    for (const m of messages) if ("method" in m && "id" in m) this.restoring.add(m.id);
    const context = auth === undefined ? { sessionId: this.sessionId } : { sessionId: this.sessionId, auth };
    for (const m of messages) this.receive(m, context);
  }

  /** Whether a reply to `id` is still awaited on some POST of this session. */
  awaitsReply(id: RequestId): boolean {
    return this.byRequest.has(id);
  }

  /**
   * The session is provisional until the response to its `initialize` (request `id`): an error
   * response goes out without the Mcp-Session-Id header and the transport closes, so a failed
   * handshake leaves no session (and holds no memory) behind.
   */
  expectInitialize(id: RequestId): void {
    this.initializeId = id;
  }

  /** GET without Last-Event-ID. Returns false when one is already connected (409). */
  openStandaloneStream(res: HttpReply): boolean {
    let s = this.standalone;
    if (s?.res) return false;
    if (!s) s = this.createDetachedStandalone();
    s.res = res;
    this.beginSse(s);
    const backlog = s.backlog;
    if (backlog) {
      s.backlog = undefined;
      s.backlogChars = 0;
      for (const ev of backlog) res.write(ev);
    }
    this.armKeepAlive(s);
    res.on("close", () => this.detach(s!, res));
    return true;
  }

  /**
   * GET with Last-Event-ID: replay what followed that event on its stream, then keep the stream
   * live on this connection if it has not finished. Returns an HTTP status on refusal.
   */
  async resumeStream(res: HttpReply, lastEventId: string): Promise<number | undefined> {
    const store = this.cfg.eventStore;
    if (!store) return undefined;
    const streamId = await store.streamIdFor(lastEventId);
    if (streamId === undefined || !streamId.startsWith(this.key + "-")) return 404;
    let live = this.open;
    while (live !== undefined && live.id !== streamId) live = live.next;
    // The standalone stream of the instance this session was taken over from continues here, once
    // its stored events are replayed (the store then numbers new events after them).
    const adopting = live === undefined && this.standalone === undefined && streamId === this.cfg.adopt?.standalone;
    if (live?.res && live.res !== res) {
      // A newer connection for the same stream wins; the old one is ended.
      const old = live.res;
      live.res = undefined;
      const prime = live.prime;
      live.prime = undefined;
      old.end(prime);
    }
    res.writeHead(200, this.sse());
    res.flushHeaders();
    await store.replayEventsAfter(lastEventId, (eventId, message) => {
      res.write(encodeSseMessage(JSON.stringify(message), eventId));
    });
    if (adopting && this.standalone === undefined) live = this.createDetachedStandalone(streamId);
    // Still among the open streams (close() leaves its streams' links as they were, hence the test of closed).
    if (live && (live.prev !== undefined || this.open === live) && !this.closed) {
      live.backlog = undefined;
      live.backlogChars = 0;
      live.res = res;
      live.mode = "sse";
      if (live.standalone) this.armKeepAlive(live);
      res.on("close", () => this.detach(live, res));
    } else {
      res.end();
    }
    return undefined;
  }

  // ---- Transport -----------------------------------------------------------------------------

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
    for (let s = this.open; s !== undefined; s = s.next) {
      this.stopKeepAlive(s);
      const res = s.res;
      s.res = undefined;
      const prime = s.prime;
      s.prime = undefined;
      if (res && !res.writableEnded) {
        if (!res.headersSent && s.mode !== "sse") res.writeHead(404, this.sessionHeader);
        res.end(prime);
      }
      void this.cfg.eventStore?.removeStream?.(s.id);
    }
    this.open = undefined;
    this.byRequest.clear();
    this.endsWithStream = undefined;
    this.standalone = undefined;
    this.cfg.onclosed(this);
    this.onclose?.();
  }

  /**
   * Ends the HTTP connection of the stream carrying `requestId` without ending the logical stream
   * (2025-11-25 polling): the client reconnects with GET + Last-Event-ID after `retry`. A reply
   * still pending turns into an SSE stream first, so the client gets an event id to resume from.
   * Without an event store the client cannot resume, so this is refused (returns false).
   */
  closeStream(requestId: RequestId): boolean {
    return this.pollClose(this.byRequest.get(requestId));
  }

  /** Same for the standalone GET stream. */
  closeStandaloneStream(): boolean {
    return this.pollClose(this.standalone);
  }

  /** See TransportHints.onReplyStreamClosed. */
  onReplyStreamClosed(requestId: RequestId, ongone: (requestId: RequestId) => void): void {
    // Stateless: a dropped reply closes the transport (detach), which ends every request anyway.
    if (this.cfg.closeWhenIdle) return;
    const s = this.byRequest.get(requestId);
    if (s === undefined) return;
    if (s.res === undefined) return ongone(requestId);
    (this.endsWithStream ??= new Map()).set(requestId, ongone);
  }

  /** See TransportHints.abandonReply. */
  abandonReply(requestId: RequestId): void {
    this.endsWithStream?.delete(requestId);
    const s = this.byRequest.get(requestId);
    if (s === undefined) return;
    this.byRequest.delete(requestId);
    if (--s.pending > 0 || s.standalone) return;
    // Nothing more is owed on this stream: end it like one whose last reply went out.
    if (s.mode === "json") return this.sendJsonReplies(s);
    if (s.mode === "pending") {
      const res = this.finish(s);
      if (res && !res.headersSent) res.writeHead(202, { ...this.sessionHeader, "content-length": 0 }).end();
      return;
    }
    // Nobody resumes a cancelled request's stream: its stored events go too.
    const drop = (): void => {
      this.endStream(s);
      void this.cfg.eventStore?.removeStream?.(s.id);
    };
    if (s.tail) void s.tail.then(drop);
    else drop();
  }

  // ---- internals -----------------------------------------------------------------------------

  private newStreamId(): string {
    return `${this.key}-${(++this.streamSeq).toString(36)}`;
  }

  private link(s: Stream): void {
    const next = this.open;
    s.next = next;
    if (next !== undefined) next.prev = s;
    this.open = s;
  }

  /** Out of the open streams, once (a stream may be finished twice); unlinked, a promoted stream holds no other. */
  private unlink(s: Stream): void {
    const { prev, next } = s;
    if (prev !== undefined) prev.next = next;
    else if (this.open === s) this.open = next;
    else return;
    if (next !== undefined) next.prev = prev;
    s.prev = s.next = undefined;
  }

  private pollClose(s: Stream | undefined): boolean {
    if (!s || !this.cfg.eventStore) return false;
    const res = s.res;
    if (!res) return true;
    if (s.mode !== "sse") {
      // A batch already collecting its JSON reply cannot turn into a stream any more.
      if (!s.allowSse || s.mode === "json") return false;
      s.mode = "sse";
      this.beginSse(s);
    }
    this.stopKeepAlive(s);
    s.res = undefined;
    // The priming event is what the client resumes from.
    const prime = s.prime;
    s.prime = undefined;
    if (s.tail) void s.tail.then(() => res.end(prime));
    else res.end(prime);
    return true;
  }

  private sendOne(m: JSONRPCMessage, related: RequestId | undefined): void {
    if (this.cfg.adopt !== undefined) m = markRequest(m);
    const response = !("method" in m) && "id" in m;
    const rid = response ? (m as { id: RequestId }).id : related;
    let s = rid !== undefined ? this.byRequest.get(rid) : undefined;
    if (response) {
      if (!s) {
        if (this.restoring?.delete(rid!)) return;
        // Stateless: the session's answer to the POST as a whole (a batch its revision does not
        // take), which no request id routes, is that POST's reply, 400 as the endpoint's own
        // refusal of a batch (its stream the transport's one: no standalone stream without a session).
        if (rid === null && this.stateless && this.open) {
          return this.answerWhole(this.open, m);
        }
        this.onerror?.(new Error(`no open HTTP stream for the response to request ${String(rid)}`));
        return;
      }
      this.byRequest.delete(rid!);
      s.pending--;
      this.endsWithStream?.delete(rid!);
      if (rid === this.initializeId) {
        this.initializeId = undefined;
        if ("error" in m) {
          this.sessionHeader = {};
          this.sseHeaders = undefined;
          this.write(s, m, response);
          void (s.tail ?? Promise.resolve()).then(() => this.close());
          return;
        }
      }
    } else if (!s || s.mode === "json" || (s.mode === "pending" && !s.allowSse)) {
      // Unrelated, or its POST is answered in plain JSON: the standalone stream carries it.
      s = this.standalone;
      if (!s) {
        if (this.sessionId === undefined) {
          this.onerror?.(new Error("no SSE stream to carry a server-initiated message (stateless); it was dropped"));
          return;
        }
        // Held until the client opens its GET stream.
        s = this.createDetachedStandalone();
      }
    }
    this.write(s, m, response);
  }

  private createDetachedStandalone(id = this.newStreamId()): Stream {
    const s = newStream(id, undefined, [], undefined);
    this.standalone = s;
    this.link(s);
    this.cfg.onstandalone?.(id);
    return s;
  }

  private write(s: Stream, m: JSONRPCMessage, response: boolean): void {
    const done = response && s.pending === 0 && !s.standalone;
    if (s.mode === "pending" || s.mode === "json") {
      if (response && !s.batch && done && s.mode === "pending") {
        // The common case: one request, answered without side messages: a plain JSON reply.
        const error = (m as { error?: { code?: unknown } }).error;
        return this.endJson(
          s,
          this.cfg.modern && error !== undefined && typeof error.code === "number"
            ? modernErrorStatus(error.code)
            : 200,
          m,
        );
      }
      if (s.mode === "pending" && (!response || !s.allowJson)) {
        s.mode = "sse";
        this.beginSse(s);
      } else {
        s.mode = "json";
        (s.jsonReplies ??= []).push(m);
        if (done) this.sendJsonReplies(s);
        return;
      }
    }
    const store = this.cfg.eventStore;
    // Serialised once, for the stream and the store alike.
    const data = JSON.stringify(m);
    const stored =
      store === undefined
        ? undefined
        : s.tail
          ? s.tail.then(() => store.storeEvent(s.id, m, data))
          : store.storeEvent(s.id, m, data);
    if (typeof stored !== "object") return this.put(s, done, encodeSseMessage(data, stored, this.cfg.ownStore));
    // Without an id when the store could not keep the event: it cannot be replayed.
    s.tail = stored.then(
      // A store answering with promises is never the endpoint's own: its ids are checked.
      (eventId) => this.put(s, done, encodeSseMessage(data, eventId)),
      (e: unknown) => {
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
        // The store is down (a shared one lost): the message still goes out, only not resumable;
        // a reply is never held back for resumability's sake.
        this.put(s, done, encodeSseMessage(data));
      },
    );
  }

  /** A message event onto its stream; the stream's last response ends it. */
  private put(s: Stream, done: boolean, event: string): void {
    if (done) this.endStream(s, event);
    else this.emit(s, event);
  }

  private emit(s: Stream, event: string): void {
    const res = s.res;
    if (res) {
      if (s.prime !== undefined) {
        event = s.prime + event;
        s.prime = undefined;
      }
      if (!res.writableEnded) {
        res.write(event);
        if (res.writableLength > MAX_UNREAD_BYTES) {
          this.onerror?.(new Error("SSE client is not reading; connection dropped"));
          res.destroy();
        }
      }
    } else if (s.standalone) {
      const backlog = (s.backlog ??= []);
      const chars = (s.backlogChars ?? 0) + event.length;
      if (backlog.length < MAX_BACKLOG && chars <= MAX_BACKLOG_CHARS) {
        backlog.push(event);
        s.backlogChars = chars;
      } else this.onerror?.(new Error("standalone SSE backlog full; server message dropped"));
    }
  }

  /** Switch a stream's response to SSE and send the priming event (id + retry) when resumable. */
  private beginSse(s: Stream): void {
    const res = s.res;
    if (!res || res.headersSent) return;
    res.writeHead(200, this.sse());
    if (this.cfg.modern) this.armKeepAlive(s);
    // A POST's stream opens at once, but what the handler answers within this turn of the event
    // loop (a reply, often) leaves in the same packet as the headers and the priming event (and,
    // the priming event held meanwhile, in the same chunk). The server SHOULD send the priming
    // event "immediately" (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server):
    // held to the end of the turn (setImmediate, no timer), it still precedes every other event
    // of the stream and never waits on a slow handler.
    const post = !s.standalone;
    if (post) res.cork?.();
    const store = this.cfg.eventStore;
    if (!store) {
      res.flushHeaders();
      if (post && res.cork !== undefined) releaseAfterTurn(s, res);
      return;
    }
    const stored = s.tail ? s.tail.then(() => store.storeEvent(s.id, null)) : store.storeEvent(s.id, null);
    if (typeof stored === "string") {
      const prime = encodeSsePriming(stored, this.retryLine, this.cfg.ownStore === true);
      if (post) {
        s.prime = prime;
        releaseAfterTurn(s, res);
      } else res.write(prime);
    } else {
      if (post && res.cork !== undefined) releaseAfterTurn(s, res);
      res.flushHeaders();
      s.tail = stored.then(
        (eventId) => {
          if (!res.writableEnded) res.write(encodeSsePriming(eventId, this.retryLine, false));
        },
        (e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))),
      );
    }
  }

  /** The collected JSON replies of a POST, as its one HTTP response. */
  private sendJsonReplies(s: Stream): void {
    const replies = s.jsonReplies ?? [];
    s.jsonReplies = undefined;
    this.endJson(s, 200, s.batch ? replies : replies[0]);
  }

  private answerWhole(s: Stream, m: JSONRPCMessage): void {
    if (s.mode === "sse") return this.endStream(s, encodeSseMessage(JSON.stringify(m)));
    this.endJson(s, 400, m);
  }

  /** A POST stream ended by one JSON reply: `value` with `status`. */
  private endJson(s: Stream, status: number, value: unknown): void {
    const res = this.finish(s);
    if (res && !res.writableEnded) {
      const body = JSON.stringify(value);
      // A literal plus one assignment, not a spread, as this runs once per POST.
      const h: Record<string, string | number> = {
        "content-type": "application/json",
        "content-length": utf8Length(body),
      };
      const sid = this.sessionHeader["mcp-session-id"];
      if (sid !== undefined) h["mcp-session-id"] = sid;
      res.writeHead(status, h);
      res.end(body);
    }
  }

  /** All responses of a POST stream are out: end it, with its `last` event in the same write. */
  private endStream(s: Stream, last?: string): void {
    this.stopKeepAlive(s);
    const prime = s.prime;
    s.prime = undefined;
    const res = this.finish(s);
    if (res && !res.writableEnded) res.end(prime === undefined ? last : last === undefined ? prime : prime + last);
  }

  /**
   * The stream is done: out of the open streams and `byRequest`, and its response handed to the
   * caller and no longer referenced by the stream. `byRequest` churns once per POST and V8
   * reallocates a long-lived Map's table in the old generation; a discarded table keeps its entries
   * reachable for the scavenger until the next mark-compact, so a stream that still held its
   * response would get the response, its request and their headers promoted with it (see
   * HttpRequester's InflightList).
   */
  private finish(s: Stream): HttpReply | undefined {
    this.unlink(s);
    if (s.pending > 0) for (const id of s.ids) if (this.byRequest.get(id) === s) this.byRequest.delete(id);
    const res = s.res;
    s.res = undefined;
    if (this.cfg.closeWhenIdle && this.open === undefined) queueMicrotask(() => void this.close());
    return res;
  }

  /**
   * The client went away from a stream: not a cancellation in the legacy eras (it may resume),
   * except for the requests that end with their stream (onReplyStreamClosed).
   */
  private detach(s: Stream, res: HttpReply): void {
    if (s.res === res) {
      s.res = undefined;
      s.prime = undefined;
      this.stopKeepAlive(s);
      const watched = this.endsWithStream;
      if (watched !== undefined && watched.size > 0) {
        for (const id of s.ids) {
          if (this.byRequest.get(id) !== s) continue;
          const ongone = watched.get(id);
          if (ongone === undefined) continue;
          watched.delete(id);
          ongone(id);
        }
      }
      // Stateless: nobody can resume, so a dropped reply ends the work (and its handlers).
      if (this.cfg.closeWhenIdle && s.pending > 0) void this.close();
    }
  }

  private armKeepAlive(s: Stream): void {
    this.stopKeepAlive(s);
    const ms = this.cfg.keepAliveMs;
    if (ms > 0) {
      s.keepAlive = unrefTimer(
        setInterval(() => {
          const res = s.res;
          if (res && !res.writableEnded) res.write(encodeSseComment("keep-alive"));
        }, ms),
      );
    }
  }

  private stopKeepAlive(s: Stream): void {
    if (s.keepAlive) {
      clearInterval(s.keepAlive);
      s.keepAlive = undefined;
    }
  }
}
