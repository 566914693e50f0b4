/**
 * In-process transport pair, for tests and for running a client and server in one process.
 * Messages are passed by reference (no serialisation) and delivered asynchronously: a send only
 * queues, and one drain (a microtask) delivers what both sides queued, in order per direction.
 * A handler that answers synchronously never recurses into the peer: its answer is queued and
 * delivered by the same drain after the handler returned, so a request and its synchronous
 * answer cost one microtask, not one per direction. Closing either side closes the other after
 * the messages already queued to it have been delivered, as a socket would.
 */
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { ConnectionClosedError } from "../errors.js";

type Item = JSONRPCMessage | JSONRPCMessage[];
const CLOSE: unique symbol = Symbol("close");
/** A settled promise is immutable, so every successful send can return the same one. */
const SENT: Promise<void> = Promise.resolve();

/**
 * The drain both ends of a pair share. Scheduled with a settled promise's `then` rather than
 * `queueMicrotask`, which on Node builds an AsyncResource and a bound function per call; both
 * are one V8 microtask in the same FIFO queue.
 */
class Wire {
  private scheduled = false;
  private draining = false;
  private readonly drainBound = () => this.drain();

  constructor(
    private readonly a: MemoryTransport,
    private readonly b: MemoryTransport,
  ) {}

  /** Something became deliverable: drain soon (or in the drain already running). */
  schedule(): void {
    if (this.scheduled || this.draining) return;
    this.scheduled = true;
    void SENT.then(this.drainBound);
  }

  private drain(): void {
    this.scheduled = false;
    this.draining = true;
    try {
      // Messages queued while delivering (a synchronous answer) are delivered by this loop.
      while (this.a.deliver() + this.b.deliver() > 0);
    } finally {
      this.draining = false;
    }
  }
}

export class MemoryTransport implements Transport, TransportHints {
  onmessage?: (message: Item, context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Revision set by the session after negotiation (kept for inspection in tests). */
  protocolVersion: string | undefined;

  private peer: MemoryTransport | undefined;
  private wire: Wire | undefined;
  /**
   * What was sent to this side and not yet delivered: a ring of slots (`head` to `tail`), so
   * neither queueing nor delivering resizes an array (setting an array's length is a runtime call).
   * Its size is a power of two, so a position is `index & mask` (an integer division per
   * message costs more than the rest of queueing it).
   */
  private slots: (Item | typeof CLOSE | undefined)[] = new Array(8);
  private mask = 7;
  private head = 0;
  private tail = 0;
  private started = false;
  private closed = false;

  /** @internal */
  static link(a: MemoryTransport, b: MemoryTransport): void {
    a.peer = b;
    b.peer = a;
    a.wire = b.wire = new Wire(a, b);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.tail !== this.head) this.wire?.schedule();
  }

  send(message: Item, _options?: SendOptions): Promise<void> {
    if (this.closed || !this.peer) return Promise.reject(new ConnectionClosedError());
    this.peer.enqueue(message);
    return SENT;
  }

  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
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
    const size = this.slots.length;
    if (this.tail - this.head === size) {
      // Full: twice the room, the queued items first in order.
      const grown: (Item | typeof CLOSE | undefined)[] = new Array(size * 2);
      for (let i = 0; i < size; i++) grown[i] = this.slots[(this.head + i) & this.mask];
      this.slots = grown;
      this.mask = size * 2 - 1;
      this.head = 0;
      this.tail = size;
    }
    this.slots[this.tail++ & this.mask] = item;
    if (this.started) this.wire!.schedule();
  }

  /** @internal Deliver what is queued to this side (Wire's drain); how many items were taken. */
  deliver(): number {
    if (!this.started || this.closed) return 0;
    let taken = 0;
    // Messages queued meanwhile (a synchronous answer to this side) are delivered in this loop too.
    while (this.head !== this.tail && !this.closed) {
      const slots = this.slots;
      const at = this.head++ & this.mask;
      const item = slots[at];
      slots[at] = undefined;
      taken++;
      if (item === CLOSE) {
        this.finish();
        break;
      }
      try {
        this.onmessage?.(item!);
      } catch (e) {
        this.reportError(e);
      }
    }
    if (this.head === this.tail) this.head = this.tail = 0;
    return taken;
  }

  private reportError(e: unknown): void {
    try {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    } catch {
      // An error hook that throws must not stop delivery to either side.
    }
  }

  private finish(): void {
    this.closed = true;
    this.slots = [];
    this.head = this.tail = 0;
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
