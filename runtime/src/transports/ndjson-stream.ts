import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { NdjsonDecoder } from "../framing/ndjson.js";
import { FrameError } from "../framing/frame-error.js";
import { resultText } from "../framing/result-text.js";
import { STDIO_DRAIN_TIMEOUT_MS } from "../limits.js";
import { afterIo } from "../after-io.js";

/** One shared settled promise for synchronous sends (the session skips handlers on a repeat). */
const SENT: Promise<void> = Promise.resolve();

export interface NdjsonStreamOptions {
  /** Largest accepted inbound message in bytes (default 4 MiB; 64 MiB for the stdio client). */
  maxMessageBytes?: number;
  /** Deepest array/object nesting accepted in an inbound message (default 128). */
  maxDepth?: number;
  /**
   * Once the input has ended, how long the requests already received may take to be answered
   * and flushed before the transport closes without them (default 10 000 ms).
   */
  drainTimeoutMs?: number;
}

/**
 * A Transport over a pair of byte streams carrying NDJSON (stdio both ways, or any socket).
 * Bad lines are answered with a JSON-RPC error (id null) and reported through `onerror`; the
 * stream goes on. The input ending stops reading, not answering: the session answers what
 * arrived (`oninputend`), then the output is flushed and the transport closes, within
 * `drainTimeoutMs`.
 */
export class NdjsonStreamTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;
  oninputend?: () => Promise<void>;
  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  readonly inputEnds = true;

  protected input: Readable | undefined;
  protected output: Writable | undefined;
  private decoder: NdjsonDecoder;
  private closed = false;
  private started = false;
  private waitingDrain: Promise<void> | undefined;
  /** The input ended; what arrived is still being answered. */
  private inputEnded = false;
  protected readonly drainTimeoutMs: number;

  /**
   * Sends of one burst leave in one write. A burst is what one input chunk brings: from its second
   * send on, lines are appended to `batch` (one string; no stream bookkeeping per message, which a
   * corked stream spends on each write) and written together when the burst ends, so the answers
   * to a chunk of pipelined requests go out in one write instead of one syscall each. When the
   * chunk held several messages, the burst lasts until the event loop's check phase, so what their
   * handlers and continuations send (a client's next requests) goes out together too. A chunk of
   * one message (sequential calls) writes at once.
   */
  private burst = -1;
  private batch = "";
  private delivered = 0;
  private flushing = false;
  private readonly flushBound = (): void => {
    this.flushing = false;
    this.endBurst();
  };
  private readonly ondata = (chunk: Buffer | string): void => {
    if (this.burst < 0) this.burst = 0;
    this.delivered = 0;
    try {
      this.decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
    } finally {
      if (this.flushing) {
        // The open burst ends in the check phase already scheduled.
      } else if (this.delivered > 1) {
        this.flushing = true;
        afterIo(this.flushBound, undefined);
      } else this.endBurst();
    }
  };

  private endBurst(): void {
    this.burst = -1;
    this.writeBatch();
  }

  /** Writes what the open burst holds back; its back-pressure reaches the sends that follow. */
  protected writeBatch(): void {
    const text = this.batch;
    if (text.length === 0) return;
    this.batch = "";
    const out = this.output;
    if (out !== undefined && !out.write(text)) this.backPressure(out);
  }

  private readonly onend = (): void => {
    if (this.inputEnded || this.closed) return;
    this.inputEnded = true;
    // A last line without its newline is a message too.
    this.decoder.end();
    const answering = this.oninputend?.();
    if (answering === undefined) return this.endInput();
    // Unref'd: it bounds the wait, it must not be what keeps a process alive.
    const timer = setTimeout(() => {
      this.onerror?.(
        new Error(
          `the input ended and requests were still unanswered after ${this.drainTimeoutMs} ms (drainTimeoutMs); closing without them`,
        ),
      );
      this.endInput();
    }, this.drainTimeoutMs);
    timer.unref?.();
    const done = (): void => {
      clearTimeout(timer);
      this.endInput();
    };
    answering
      .then(() => this.flushed())
      .then(done, (e: Error) => {
        this.onerror?.(e);
        done();
      });
  };
  private readonly onstreamerror = (error: Error): void => {
    this.onerror?.(error);
  };

  constructor(options: NdjsonStreamOptions = {}) {
    const drain = options.drainTimeoutMs ?? STDIO_DRAIN_TIMEOUT_MS;
    // setTimeout takes at most 2^31-1 ms (and turns more, or NaN, into 1).
    if (!(drain >= 0 && drain <= 0x7fffffff))
      throw new RangeError(`drainTimeoutMs must be 0 to 2147483647 ms, got ${drain}`);
    this.drainTimeoutMs = drain;
    this.decoder = new NdjsonDecoder({
      maxMessageBytes: options.maxMessageBytes,
      maxDepth: options.maxDepth,
      onmessage: (m) => this.deliver(m),
      onbadline: (error, reply, outline) => {
        if (this.onframeerror) return this.onframeerror(new FrameError(error.message, reply, outline));
        this.onerror?.(error);
        if (!this.closed) this.send(reply).catch(() => {});
      },
    });
  }

  /** A throwing handler must not unwind into the stream's 'data' event (that would kill the process). */
  private deliver(m: JSONRPCMessage | JSONRPCMessage[]): void {
    this.delivered++;
    try {
      this.onmessage?.(m);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error("onmessage threw a non-Error value"));
    }
  }

  /** Attach the streams (subclasses call this from start()). */
  protected attach(input: Readable, output: Writable): void {
    if (this.started) throw new Error("transport already started");
    this.started = true;
    this.input = input;
    this.output = output;
    input.on("data", this.ondata);
    input.on("end", this.onend);
    input.on("close", this.onend);
    input.on("error", this.onstreamerror);
    output.on("error", this.onstreamerror);
  }

  async start(): Promise<void> {
    throw new Error("NdjsonStreamTransport.start must be provided by a subclass");
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    return this.sendText(JSON.stringify(message), options);
  }

  /** See TransportHints.sendResult. */
  sendResult(id: RequestId, result: Record<string, unknown>, options?: SendOptions): Promise<void> {
    const idText = typeof id === "number" ? String(id) : JSON.stringify(id);
    return this.sendText(`{"jsonrpc":"2.0","id":${idText},"result":${resultText(result)}}`, options);
  }

  /** See TransportHints.sendText: `text` is one message's JSON, which never holds a raw LF. */
  sendText(text: string, _options?: SendOptions): Promise<void> {
    const out = this.output;
    if (this.closed || !out) return Promise.reject(new Error("transport is closed"));
    const line = text + "\n";
    if (this.burst >= 0 && ++this.burst >= 2) {
      this.batch += line;
      // A burst holds back at most what the stream would buffer before asking writers to wait.
      if (this.batch.length < out.writableHighWaterMark) return this.waitingDrain ?? SENT;
      const text = this.batch;
      this.batch = "";
      return out.write(text) ? SENT : this.backPressure(out);
    }
    return out.write(line) ? SENT : this.backPressure(out);
  }

  /** Back-pressure: callers that await send() slow down to the pipe's pace. */
  private backPressure(out: Writable): Promise<void> {
    if (!this.waitingDrain) {
      this.waitingDrain = new Promise<void>((resolve) => {
        const done = (): void => {
          out.off("drain", done);
          out.off("close", done);
          this.waitingDrain = undefined;
          resolve();
        };
        out.on("drain", done);
        out.on("close", done);
      });
    }
    return this.waitingDrain;
  }

  async close(): Promise<void> {
    this.closeNow();
  }

  protected get isClosed(): boolean {
    return this.closed;
  }

  /** What the input brought is answered and flushed, or the drain timed out: close (the stdio client also reaps its child). */
  protected endInput(): void {
    this.closeNow();
  }

  /** Resolves once what was written has been handed to the OS (process.stdout on a pipe may buffer). */
  private flushed(): Promise<void> {
    this.writeBatch();
    const out = this.output;
    if (this.closed || out === undefined || out.writableLength === 0 || out.destroyed) return Promise.resolve();
    // An empty write's callback runs once every earlier write is through.
    return new Promise<void>((resolve) => {
      out.write("", () => resolve());
    });
  }

  /** Detach from the streams and fire onclose exactly once. */
  protected closeNow(): void {
    if (this.closed) return;
    this.closed = true;
    const input = this.input;
    if (input) {
      input.off("data", this.ondata);
      input.off("end", this.onend);
      input.off("close", this.onend);
      // Keep an error listener so a late stream error cannot crash the process.
      input.off("error", this.onstreamerror);
      input.on("error", () => {});
    }
    this.onclose?.();
  }
}
