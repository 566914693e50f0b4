import type { JSONRPCErrorResponse, JSONRPCMessage } from "../jsonrpc.js";

/** Default cap on one NDJSON line, in bytes (excluding the newline). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface NdjsonDecoderOptions {
  /** Largest accepted line in bytes; longer lines are discarded as they stream past, never buffered whole. */
  maxMessageBytes?: number;
  onmessage: (message: JSONRPCMessage | JSONRPCMessage[]) => void;
  /** A line that could not be accepted; `reply` is the JSON-RPC error to send back to the peer. */
  onbadline: (error: Error, reply: JSONRPCErrorResponse) => void;
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
  private readonly onmessage: NdjsonDecoderOptions["onmessage"];
  private readonly onbadline: NdjsonDecoderOptions["onbadline"];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside an oversized line: drop bytes until the next LF. */
  private discarding = false;

  constructor(options: NdjsonDecoderOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
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
        this.reportOversize();
      } else if (this.pendingBytes === 0) {
        this.line(chunk, start, nl);
      } else {
        if (this.pendingBytes + (nl - start) > this.maxMessageBytes + 1) {
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
    if (this.discarding) return;
    const n = end - start;
    // +1 leaves room for a CR that may precede the coming LF.
    if (this.pendingBytes + n > this.maxMessageBytes + 1) {
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
      );
      return;
    }
    if (value === null || typeof value !== "object") {
      this.onbadline(new Error("NDJSON: line is not a JSON-RPC object"), {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: expected a JSON-RPC object" },
      });
      return;
    }
    this.onmessage(value as JSONRPCMessage | JSONRPCMessage[]);
  }

  private reportOversize(): void {
    this.onbadline(
      new Error(`NDJSON: line exceeds ${this.maxMessageBytes} bytes`),
      parseErrorReply(`Parse error: message exceeds ${this.maxMessageBytes} bytes`),
    );
  }
}

/** One NDJSON line. JSON.stringify escapes every control character, so the only LF is the terminator. */
export function encodeNdjson(message: unknown): string {
  return JSON.stringify(message) + "\n";
}
