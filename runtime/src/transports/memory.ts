/**
 * In-process transport pair, for tests and for running a client and server in one process.
 * Messages are passed by reference (no serialisation) and delivered asynchronously from a
 * per-side queue drained in one microtask, so a handler that answers synchronously never
 * recurses into the peer. Closing either side closes the other after the messages already
 * queued to it have been delivered, as a socket would.
 */
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport } from "../transport.js";
import { ConnectionClosedError } from "../errors.js";

type Item = JSONRPCMessage | JSONRPCMessage[];
const CLOSE: unique symbol = Symbol("close");
/** A settled promise is immutable, so every successful send can return the same one. */
const SENT: Promise<void> = Promise.resolve();

export class MemoryTransport implements Transport {
  onmessage?: (message: Item, context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Revision set by the session after negotiation (kept for inspection in tests). */
  protocolVersion: string | undefined;

  private peer: MemoryTransport | undefined;
  private queue: (Item | typeof CLOSE)[] = [];
  private started = false;
  private scheduled = false;
  private closed = false;
  private readonly drainBound = () => this.drain();

  /** @internal */
  static link(a: MemoryTransport, b: MemoryTransport): void {
    a.peer = b;
    b.peer = a;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.schedule();
  }

  send(message: Item, _options?: SendOptions): Promise<void> {
    if (this.closed || !this.peer) return Promise.reject(new ConnectionClosedError());
    this.peer.enqueue(message);
    return SENT;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.finish();
    const peer = this.peer;
    if (peer && !peer.closed) peer.enqueue(CLOSE);
  }

  private enqueue(item: Item | typeof CLOSE): void {
    if (this.closed) return;
    this.queue.push(item);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || !this.started || this.queue.length === 0) return;
    this.scheduled = true;
    queueMicrotask(this.drainBound);
  }

  private drain(): void {
    const q = this.queue;
    // Messages enqueued while draining are appended to `q` and handled in this same loop.
    for (let i = 0; i < q.length; i++) {
      if (this.closed) break;
      const item = q[i];
      if (item === CLOSE) {
        this.finish();
        break;
      }
      try {
        this.onmessage?.(item);
      } catch (e) {
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
    }
    if (!this.closed) q.length = 0;
    this.scheduled = false;
  }

  private finish(): void {
    this.closed = true;
    this.queue = [];
    this.onclose?.();
  }
}

/** Two connected transports: what one sends, the other receives. */
export function createMemoryTransportPair(): [MemoryTransport, MemoryTransport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  MemoryTransport.link(a, b);
  return [a, b];
}
