import type { Readable, Writable } from "node:stream";
import { NdjsonStreamTransport, type NdjsonStreamOptions } from "./ndjson-stream.js";

export interface StdioServerTransportOptions extends NdjsonStreamOptions {
  /** Defaults to process.stdin. */
  stdin?: Readable;
  /** Defaults to process.stdout. stderr stays free for logs. */
  stdout?: Writable;
}

/**
 * Server side of stdio: reads NDJSON from stdin, writes to stdout. stdin EOF stops reading; the
 * requests already received are answered and flushed, then the transport closes (at the latest
 * after `drainTimeoutMs`), so `server < requests.jsonl` gets every answer.
 */
export class StdioServerTransport extends NdjsonStreamTransport {
  private readonly stdinStream: Readable;
  private readonly stdoutStream: Writable;
  /** One client per process, the same one across restarts (see TransportHints.peerIdentity). */
  readonly peerIdentity = "stdio";

  constructor(options: StdioServerTransportOptions = {}) {
    super(options);
    this.stdinStream = options.stdin ?? process.stdin;
    this.stdoutStream = options.stdout ?? process.stdout;
  }

  override async start(): Promise<void> {
    this.attach(this.stdinStream, this.stdoutStream);
  }

  protected override closeNow(): void {
    if (this.isClosed) return;
    // Stop reading so process.stdin no longer keeps the event loop alive.
    this.stdinStream.pause();
    if (this.stdinStream === process.stdin) process.stdin.unref?.();
    super.closeNow();
  }
}
