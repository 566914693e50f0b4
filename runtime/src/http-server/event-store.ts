import type { JSONRPCMessage } from "../jsonrpc.js";
import { EVENT_STORE_MAX_BYTES, EVENT_STORE_MAX_EVENTS } from "../limits.js";

/**
 * Where a resumable Streamable HTTP server keeps the SSE events it sent, so a client that
 * reconnects with `Last-Event-ID` gets what followed on that same stream. Event ids must be
 * unique across all streams of a server and must be visible ASCII.
 * Methods may answer synchronously (cheaper on the hot path) or with a promise.
 */
export interface EventStore {
  /**
   * Record one event of `streamId`; `message` is null for a priming event (a cursor only). Returns
   * its event id. `json`: the message as JSON text, which the transport has made for the stream
   * anyway (a store that keeps text need not serialise it again).
   */
  storeEvent(streamId: string, message: JSONRPCMessage | null, json?: string): string | Promise<string>;
  /** The stream an event id belongs to, or undefined when unknown (expired or never issued). */
  streamIdFor(eventId: string): string | undefined | Promise<string | undefined>;
  /** Calls `send` for every message event of the same stream after `lastEventId`, in order. */
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
  ): void | Promise<void>;
  /** The stream's session is gone, or its requests were cancelled: its events may be dropped. */
  removeStream?(streamId: string): void | Promise<void>;
}

interface StoredEvent {
  streamId: string;
  seq: number;
  /** The message as JSON text (its size is what the store is bounded by; null for a priming event or a removed stream). */
  data: string | null;
}

/**
 * In-memory event store. Bounded: at most `maxEvents` events and `maxChars` characters of
 * serialised messages in total, oldest evicted first (a client resuming past an evicted event
 * gets nothing replayed from before it).
 */
export class InMemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly streams = new Map<string, StoredEvent[]>();
  /** Insertion order across streams, for eviction. */
  private readonly order: StoredEvent[] = [];
  private orderHead = 0;
  private seq = 0;
  private readonly maxChars: number;
  private chars = 0;

  constructor(options: { maxEvents?: number; maxChars?: number } = {}) {
    this.maxEvents = options.maxEvents ?? EVENT_STORE_MAX_EVENTS;
    this.maxChars = options.maxChars ?? EVENT_STORE_MAX_BYTES;
  }

  storeEvent(streamId: string, message: JSONRPCMessage | null, json?: string): string {
    const data = message === null ? null : (json ?? JSON.stringify(message));
    const ev: StoredEvent = { streamId, seq: ++this.seq, data };
    let list = this.streams.get(streamId);
    if (!list) this.streams.set(streamId, (list = []));
    list.push(ev);
    this.order.push(ev);
    this.chars += data?.length ?? 0;
    while (
      this.order.length - this.orderHead > this.maxEvents ||
      (this.chars > this.maxChars && this.order.length - this.orderHead > 1)
    )
      this.evictOne();
    return `${streamId}_${ev.seq}`;
  }

  streamIdFor(eventId: string): string | undefined {
    const cut = eventId.lastIndexOf("_");
    if (cut <= 0) return undefined;
    const streamId = eventId.slice(0, cut);
    return this.streams.has(streamId) ? streamId : undefined;
  }

  replayEventsAfter(lastEventId: string, send: (eventId: string, message: JSONRPCMessage) => void): void {
    const cut = lastEventId.lastIndexOf("_");
    if (cut <= 0) return;
    const streamId = lastEventId.slice(0, cut);
    const after = Number(lastEventId.slice(cut + 1));
    const list = this.streams.get(streamId);
    if (!list || !Number.isInteger(after)) return;
    for (const ev of list) {
      if (ev.seq > after && ev.data !== null) send(`${streamId}_${ev.seq}`, JSON.parse(ev.data) as JSONRPCMessage);
    }
  }

  removeStream(streamId: string): void {
    const list = this.streams.get(streamId);
    if (!list) return;
    this.streams.delete(streamId);
    for (const ev of list) {
      this.chars -= ev.data?.length ?? 0;
      ev.data = null;
    }
  }

  /** Characters of serialised messages currently held. */
  get heldChars(): number {
    return this.chars;
  }

  /** Number of events currently held (for tests and monitoring). */
  get size(): number {
    return this.order.length - this.orderHead;
  }

  private evictOne(): void {
    const ev = this.order[this.orderHead++];
    if (ev) {
      this.chars -= ev.data?.length ?? 0;
      ev.data = null;
      const list = this.streams.get(ev.streamId);
      if (list) {
        // A stream's events are evicted in the order they were stored: the oldest is its first.
        if (list[0] === ev) list.shift();
        else {
          const i = list.indexOf(ev);
          if (i !== -1) list.splice(i, 1);
        }
        if (list.length === 0) this.streams.delete(ev.streamId);
      }
    }
    // Compact the order array now and then instead of shifting on every eviction.
    if (this.orderHead > 1024 && this.orderHead * 2 > this.order.length) {
      this.order.splice(0, this.orderHead);
      this.orderHead = 0;
    }
  }
}
