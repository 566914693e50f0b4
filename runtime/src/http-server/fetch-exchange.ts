/**
 * http-exchange.ts over web-standard objects: a Request read as the protocol logic reads a request
 * (its body pumped from its ReadableStream as `data` events, its AbortSignal as `close`), and a
 * reply that becomes the Response the fetch handler returns: a complete body when the reply is
 * written at once, a ReadableStream (an SSE stream) once it is written in parts. No Node API.
 */
import type { HttpHeaders, HttpReply, HttpRequestIn, ReplyHeaders } from "../http-exchange.js";
import { FETCH_WHOLE_BODY_BYTES } from "../limits.js";
import { urlPort } from "./security.js";

const UTF8 = new TextEncoder();

/** Path and query of an absolute URL, as a request target (the fragment never reaches a server). */
function targetOf(url: string): string {
  const scheme = url.indexOf("//");
  const slash = url.indexOf("/", scheme === -1 ? 0 : scheme + 2);
  if (slash === -1) return "/";
  const hash = url.indexOf("#", slash);
  return hash === -1 ? url.slice(slash) : url.slice(slash, hash);
}

type Listener = (...args: never[]) => void;
type RequestEvent = "data" | "end" | "close" | "error";

/** Where each event's one listener is kept (readBody subscribes one of each). */
const SLOT = { data: "ondata", end: "onend", error: "onerror", close: "onclose" } as const;

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * A Request as http-exchange.ts's HttpRequestIn. The body is read only when readBody listens for it,
 * and no longer once it stops listening (the rest is cancelled: a refused body is not read on).
 */
export class FetchRequest implements HttpRequestIn {
  readonly method: string;
  readonly url: string;
  readonly headers: HttpHeaders;
  readonly waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  /** Where it arrived, when the host says (see `socket`). */
  readonly localAddress: string | undefined;
  /** The absolute URL, read off the Request once (a host may make a new string per read). */
  private readonly href: string;
  private ondata: ((chunk: Uint8Array) => void) | undefined;
  private onend: (() => void) | undefined;
  private onerror: ((error: Error) => void) | undefined;
  private onclose: (() => void) | undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private reading = false;
  private aborted = false;

  /** `request` as http-exchange.ts reads one; its client going away is told by the reply (FetchReply's `gone`), which watches the signal. */
  constructor(
    readonly request: Request,
    localAddress: string | undefined,
    waitUntil?: (promise: Promise<unknown>) => void,
  ) {
    this.method = request.method;
    this.waitUntil = waitUntil;
    this.localAddress = localAddress;
    const href = (this.href = request.url);
    this.url = targetOf(href);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // Hosts build a request's URL from its Host header; a Request made in code has only the URL
    // (a URL object only then: a Request's URL is absolute and has no userinfo).
    if (headers.host === undefined) {
      const authority = new URL(href).host;
      if (authority !== "") headers.host = authority;
    }
    this.headers = headers;
  }

  /**
   * The request is its own `socket` (no object per request): `localAddress` as given, and the
   * port of its URL, read only when asked (an Origin header is checked against it).
   */
  get socket(): this {
    return this;
  }

  get localPort(): number {
    return urlPort(new URL(this.href));
  }

  on(event: RequestEvent, listener: Listener): this {
    (this as Record<(typeof SLOT)[RequestEvent], unknown>)[SLOT[event]] = listener;
    if (event === "data") this.pump();
    else if (event === "close" && this.aborted) queueMicrotask(() => this.onclose?.());
    return this;
  }

  off(event: RequestEvent, listener: Listener): this {
    const slots = this as Record<(typeof SLOT)[RequestEvent], unknown>;
    if (slots[SLOT[event]] !== listener) return this;
    slots[SLOT[event]] = undefined;
    if (event === "data") {
      // Nobody reads the rest: let the host stop receiving it.
      this.reader?.cancel().catch(() => {});
      this.reader = undefined;
    }
    return this;
  }

  /** The client went away. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.onclose?.();
  }

  /** Reading the body failed: the client going away, or a host error. */
  private failed(e: unknown): void {
    if (this.aborted) this.onclose?.();
    else this.onerror?.(asError(e));
  }

  private pump(): void {
    if (this.reading) return;
    this.reading = true;
    const body = this.request.body;
    if (body === null) {
      queueMicrotask(() => this.onend?.());
      return;
    }
    // A small body of a declared length is read at once: a ReadableStream reader costs JavaScriptCore
    // (Bun) about a quarter of a request's handling, and what the host holds meanwhile is bounded
    // by that length (the framing of a request off the network; a Request made in code has its body
    // in memory already). A larger or undeclared one is read chunk by chunk, each chunk charged to
    // the handler's buffered bytes as it arrives and a body past a bound cut off there.
    const declared = this.headers["content-length"];
    try {
      if (typeof declared === "string" && isDeclaredUpTo(declared, FETCH_WHOLE_BODY_BYTES))
        this.readWhole(this.request.arrayBuffer());
      else this.readChunks((this.reader = body.getReader()));
    } catch (e) {
      // A body already read (by a framework in front of this handler) cannot be read again.
      queueMicrotask(() => this.onerror?.(asError(e)));
    }
  }

  /** The body chunk by chunk, until readBody stops listening (`off("data")` drops the reader). */
  private readChunks(reader: ReadableStreamDefaultReader<Uint8Array>): void {
    reader.read().then(
      (r) => {
        if (this.reader !== reader) return;
        if (r.done) {
          this.reader = undefined;
          this.onend?.();
          return;
        }
        this.ondata?.(r.value);
        if (this.reader === reader) this.readChunks(reader);
      },
      (e: unknown) => {
        if (this.reader !== reader) return;
        this.reader = undefined;
        this.failed(e);
      },
    );
  }

  /** The body in one piece (a `data`, then `end`), unless readBody stopped listening meanwhile. */
  private readWhole(read: Promise<ArrayBuffer>): void {
    read.then(
      (body) => {
        if (this.ondata === undefined) return;
        if (body.byteLength > 0) this.ondata(new Uint8Array(body));
        this.onend?.();
      },
      (e: unknown) => {
        if (this.ondata !== undefined) this.failed(e);
      },
    );
  }
}

/** `value` is a Content-Length (decimal digits only) of at most `max` bytes. */
function isDeclaredUpTo(value: string, max: number): boolean {
  return /^\d{1,15}$/.test(value) && Number(value) <= max;
}

/**
 * The headers of a Response: writeHead's, less `connection` (what the protocol logic sets for
 * node after a refused body it left unread; a fetch host manages its connections itself). Nothing
 * on a fetch host writes another hop-by-hop header (a forwarded reply's are dropped before).
 */
function responseHeaders(h: ReplyHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in h) if (name !== "connection") out[name] = String(h[name]);
  return out;
}

/**
 * A reply written as the protocol logic writes one (writeHead, then end(body), or write()s of an
 * SSE stream), turned into the Response `response` resolves to: at end() when nothing was written
 * before (a complete body), else at the first write or flushHeaders (a streamed body). What the
 * client has not read yet is `writableLength`; the client going away (the request's signal, or
 * the host cancelling the body) is `close`, as on node.
 */
export class FetchReply implements HttpReply {
  readonly response: Promise<Response>;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  private resolve!: (r: Response) => void;
  private status = 200;
  private headers: ReplyHeaders | undefined;
  private preset: Record<string, string> | undefined;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private started = false;
  /** Listeners of `close` until it fires (null then: a later one is called at once). */
  private closeListeners: (() => void)[] | undefined | null;

  /** `request`: told when the client goes away (the signal aborts, or the host cancels the body). */
  constructor(
    signal: AbortSignal | undefined,
    private readonly request: FetchRequest,
  ) {
    this.response = new Promise<Response>((resolve) => (this.resolve = resolve));
    // Some hosts hand requests whose signal never aborts; then only a cancelled Response tells.
    signal?.addEventListener("abort", () => this.gone(), { once: true });
  }

  get writableLength(): number {
    // desiredSize is below 0 by what is queued (null once errored; no controller before streaming).
    return Math.max(0, -(this.controller?.desiredSize ?? 0));
  }

  setHeader(name: string, value: string): this {
    (this.preset ??= {})[name.toLowerCase()] = value;
    return this;
  }

  writeHead(status: number, headers?: ReplyHeaders): this {
    this.status = status;
    this.headers = this.preset === undefined ? headers : { ...this.preset, ...headers };
    this.headersSent = true;
    return this;
  }

  write(chunk: string): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.stream();
    this.controller?.enqueue(UTF8.encode(chunk));
    return true;
  }

  end(body?: string): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.headersSent = true;
    if (!this.started) {
      this.started = true;
      // 1xx, 204, 205 and 304 carry no body; neither does an empty reply here.
      const empty =
        body === undefined || body === "" || this.status === 204 || this.status === 205 || this.status === 304;
      this.respond(empty ? null : body!);
    } else {
      if (body !== undefined && body !== "") this.controller?.enqueue(UTF8.encode(body));
      try {
        this.controller?.close();
      } catch {
        // Cancelled by the host meanwhile.
      }
    }
    queueMicrotask(() => this.emitClose());
    return this;
  }

  flushHeaders(): void {
    this.headersSent = true;
    this.stream();
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    // Nobody is there to read an answer; the host still needs a Response.
    if (!this.bodiless({ status: 400, headers: { connection: "close" } })) {
      try {
        this.controller?.error(new Error("response destroyed"));
      } catch {
        // Closed already.
      }
    }
    queueMicrotask(() => this.emitClose());
    return this;
  }

  on(_event: "close", listener: () => void): this {
    if (this.closeListeners === null) queueMicrotask(listener);
    else (this.closeListeners ??= []).push(listener);
    return this;
  }

  private stream(): void {
    if (this.started) return;
    this.started = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        // The host stopped reading: its client went away.
        cancel: () => this.gone(),
      },
      // Nothing is queued on purpose: desiredSize turns negative by what the client has not read.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.respond(body);
  }

  /** The Response of what writeHead (or setHeader alone) said. */
  private respond(body: string | ReadableStream<Uint8Array> | null): void {
    this.resolve(new Response(body, { status: this.status, headers: responseHeaders(this.headers ?? this.preset) }));
  }

  /** The Response, without a body, unless it was given already (false then). */
  private bodiless(init: ResponseInit): boolean {
    if (this.started) return false;
    this.started = true;
    this.resolve(new Response(null, init));
    return true;
  }

  private gone(): void {
    this.request.abort();
    if (this.destroyed || this.writableEnded) return;
    this.destroyed = true;
    this.bodiless({ status: 499 });
    this.emitClose();
  }

  private emitClose(): void {
    const listeners = this.closeListeners;
    if (listeners === null) return;
    this.closeListeners = null;
    if (listeners !== undefined) for (const l of listeners) l();
  }
}
