import type { JSONRPCErrorResponse, JSONRPCMessage } from "../jsonrpc.js";
import { MAX_NESTING_DEPTH, SERVER_MAX_MESSAGE_BYTES } from "../limits.js";
import {
  exceedsDepth,
  MAX_WALKED_DEPTH,
  OutlineScanner,
  outlineOf,
  valueExceedsDepth,
  type MessageOutline,
} from "./scan.js";

/** Default cap on one NDJSON line, in bytes (excluding the newline). */
export const DEFAULT_MAX_MESSAGE_BYTES = SERVER_MAX_MESSAGE_BYTES;

export interface NdjsonDecoderOptions {
  /** Largest accepted line in bytes; longer lines are discarded as they stream past, never buffered whole. */
  maxMessageBytes?: number;
  /** Deepest array/object nesting accepted (default MAX_NESTING_DEPTH). */
  maxDepth?: number;
  onmessage: (message: JSONRPCMessage | JSONRPCMessage[]) => void;
  /**
   * A line that could not be accepted; `reply` is the JSON-RPC error to send back to the peer
   * (its id is the line's own when that could be read), `outline` what could be read of it.
   */
  onbadline: (error: Error, reply: JSONRPCErrorResponse, outline: MessageOutline) => void;
}

const LF = 0x0a;
const CR = 0x0d;

export function parseErrorReply(message: string): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id: null, error: { code: -32700, message } };
}

/**
 * Splits a byte stream into lines on LF. Splitting on the byte (not on decoded text) keeps UTF-8
 * sequences that straddle chunk boundaries intact: 0x0A never occurs inside a multi-byte sequence.
 */
export class NdjsonDecoder {
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  private readonly onmessage: NdjsonDecoderOptions["onmessage"];
  private readonly onbadline: NdjsonDecoderOptions["onbadline"];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside an oversized line: drop bytes until the next LF. */
  private discarding = false;
  /** Reads the kind and id of the oversized line being discarded. */
  private scanner: OutlineScanner | undefined;

  constructor(options: NdjsonDecoderOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
    this.onmessage = options.onmessage;
    this.onbadline = options.onbadline;
  }

  push(chunk: Buffer): void {
    let start = 0;
    const len = chunk.length;
    while (start < len) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        this.keep(chunk, start, len);
        return;
      }
      if (this.discarding) {
        this.discarding = false;
        this.scanner!.push(chunk, start, nl);
        this.reportOversize();
      } else if (this.pendingBytes === 0) {
        this.line(chunk, start, nl);
      } else {
        if (this.pendingBytes + (nl - start) > this.maxMessageBytes + 1) {
          this.startScan(chunk, start, nl);
          this.pending = [];
          this.pendingBytes = 0;
          this.reportOversize();
        } else {
          this.pending.push(chunk.subarray(start, nl));
          const whole = Buffer.concat(this.pending, this.pendingBytes + (nl - start));
          this.pending = [];
          this.pendingBytes = 0;
          this.line(whole, 0, whole.length);
        }
      }
      start = nl + 1;
    }
  }

  /** The stream ended: a final line without a newline still counts. */
  end(): void {
    if (this.discarding) {
      this.discarding = false;
      this.reportOversize();
    } else if (this.pendingBytes > 0) {
      const whole = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      this.line(whole, 0, whole.length);
    }
  }

  private keep(chunk: Buffer, start: number, end: number): void {
    if (this.discarding) {
      this.scanner!.push(chunk, start, end);
      return;
    }
    const n = end - start;
    // +1 leaves room for a CR that may precede the coming LF.
    if (this.pendingBytes + n > this.maxMessageBytes + 1) {
      this.startScan(chunk, start, end);
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    // Copy: the caller may reuse its chunk buffer.
    this.pending.push(Buffer.from(chunk.subarray(start, end)));
    this.pendingBytes += n;
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    const n = end - start;
    if (n > this.maxMessageBytes) {
      this.startScan(buf, start, end);
      this.reportOversize();
      return;
    }
    // Skip empty and whitespace-only lines.
    let i = start;
    while (i < end && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === CR)) i++;
    if (i === end) return;
    const text = buf.toString("utf8", start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.onbadline(
        new Error(`NDJSON: unparsable line (${(e as Error).message})`),
        parseErrorReply("Parse error: line is not valid JSON"),
        UNKNOWN,
      );
      return;
    }
    if (this.tooDeep(value, buf, start, end)) {
      // JSON.parse is iterative, so a deep value exists safely; only bounded looks (tooDeep, its top level) may touch it.
      const outline = outlineOf(value);
      this.onbadline(
        new Error(`NDJSON: ${describeOutline(outline)} nests deeper than ${this.maxDepth} levels`),
        badReply(outline, `Invalid Request: message nests deeper than ${this.maxDepth} levels`),
        outline,
      );
      return;
    }
    if (value === null || typeof value !== "object") {
      this.onbadline(
        new Error("NDJSON: line is not a JSON-RPC object"),
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid Request: expected a JSON-RPC object" },
        },
        UNKNOWN,
      );
      return;
    }
    this.onmessage(value as JSONRPCMessage | JSONRPCMessage[]);
  }

  /** A value nested d deep needs at least 2d bytes; past that its members are walked (or, for a huge limit, its bytes scanned). */
  private tooDeep(value: unknown, buf: Buffer, start: number, end: number): boolean {
    const max = this.maxDepth;
    if (end - start <= 2 * max) return false;
    return max <= MAX_WALKED_DEPTH ? valueExceedsDepth(value, max) : exceedsDepth(buf, start, end, max);
  }

  /** Begin reading the outline of an oversized line from what is buffered of it plus `chunk[start, end)`. */
  private startScan(chunk: Buffer, start: number, end: number): void {
    const scanner = (this.scanner = new OutlineScanner());
    for (const b of this.pending) scanner.push(b);
    scanner.push(chunk, start, end);
  }

  private reportOversize(): void {
    const outline = this.scanner?.outline() ?? UNKNOWN;
    this.scanner = undefined;
    const what = `message exceeds ${this.maxMessageBytes} bytes`;
    this.onbadline(
      new Error(`NDJSON: ${describeOutline(outline)} exceeds ${this.maxMessageBytes} bytes`),
      outline.kind === "request" && outline.id !== undefined
        ? badReply(outline, `Invalid Request: ${what}`)
        : parseErrorReply(`Parse error: ${what}`),
      outline,
    );
  }
}

const UNKNOWN: MessageOutline = { kind: "unknown", id: undefined };

function describeOutline(o: MessageOutline): string {
  return o.id === undefined
    ? o.kind === "unknown"
      ? "line"
      : o.kind
    : `${o.kind} ${JSON.stringify(o.id).slice(0, 100)}`;
}

/** -32600 answering the message's own id when it is a request with a readable id, else id null. */
function badReply(o: MessageOutline, message: string): JSONRPCErrorResponse {
  return {
    jsonrpc: "2.0",
    id: o.kind === "request" && o.id !== undefined ? o.id : null,
    error: { code: -32600, message },
  };
}

/** One NDJSON line. JSON.stringify escapes every control character, so the only LF is the terminator. */
export function encodeNdjson(message: unknown): string {
  return JSON.stringify(message) + "\n";
}
