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

const UTF8_OUT = new TextEncoder();
const UTF8_IN = new TextDecoder();

/**
 * In-memory event store. Bounded: at most `maxEvents` events and `maxChars` characters of
 * serialised messages in total, oldest evicted first (a client resuming past an evicted event
 * gets nothing replayed from before it).
 *
 * Flat, for the garbage collector: what every event leaves behind outlives many scavenges, so it
 * keeps no object per event and no string of its message, only small integers in arrays and the
 * message's UTF-8 bytes in one buffer (its stream's id string is shared by the stream's events).
 * Finding a stream's events walks them all (at most maxEvents): only a client resuming, or a
 * stream ending early, asks, and a client resuming from an event still held is answered without
 * the walk. (An index of streams would spare removeStream its walk too, but a map written per
 * stream doubles what storing an event costs: measured 0.93 → 1.93 µs per POST's two events.)
 * Beside a store that keeps nothing, this one costs an SSE reply 5-7% of its server CPU, of which
 * its own instructions are 1-2%; neither a ring of typed arrays, nor a ring holding no string per
 * stream (scavenges then promoted 6x less), nor a buffer never compacted changed that measurably
 * (bench/README.md, issue #26's fifth and sixth passes, 2026-11-27).
 */
export class InMemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly maxChars: number;
  // Per event, oldest first from `head` (event `first + i - head`): its stream, where its message's
  // bytes are in `bytes` and how many (-1: none, a priming event; -2: a removed stream's), its characters.
  private streamOf: string[] = [];
  private at: number[] = [];
  private len: number[] = [];
  private width: number[] = [];
  private head = 0;
  /** Sequence number of the event at `head`. */
  private first = 1;
  private seq = 0;
  private chars = 0;
  private bytes = new Uint8Array(0);
  /** Where the next message's bytes go. */
  private end = 0;

  constructor(options: { maxEvents?: number; maxChars?: number } = {}) {
    this.maxEvents = options.maxEvents ?? EVENT_STORE_MAX_EVENTS;
    this.maxChars = options.maxChars ?? EVENT_STORE_MAX_BYTES;
  }

  storeEvent(streamId: string, message: JSONRPCMessage | null, json?: string): string {
    let at = 0;
    let len = -1;
    let width = 0;
    if (message !== null) {
      const data = json ?? JSON.stringify(message);
      width = data.length;
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      if (this.end + 3 * width > this.bytes.length) this.compact(3 * width);
      at = this.end;
      len = UTF8_OUT.encodeInto(data, this.bytes.subarray(at)).written;
      this.end += len;
    }
    this.streamOf.push(streamId);
    this.at.push(at);
    this.len.push(len);
    this.width.push(width);
    this.chars += width;
    while (this.size > this.maxEvents || (this.chars > this.maxChars && this.size > 1)) this.evictOne();
    return `${streamId}_${++this.seq}`;
  }

  streamIdFor(eventId: string): string | undefined {
    const cut = eventId.lastIndexOf("_");
    if (cut <= 0) return undefined;
    const streamId = eventId.slice(0, cut);
    return this.holds(streamId, Number(eventId.slice(cut + 1))) ? streamId : undefined;
  }

  /**
   * Whether an event of `streamId` is held (a stream is known while it has one): at once when it
   * is event `seq` itself, the one a client resumes after (else, evicted or not its, a walk).
   */
  private holds(streamId: string, seq: number): boolean {
    const { streamOf, len } = this;
    const at = this.head + seq - this.first;
    if (seq >= this.first && at < streamOf.length && streamOf[at] === streamId && len[at] !== -2) return true;
    for (let i = this.head; i < streamOf.length; i++) if (streamOf[i] === streamId && len[i] !== -2) return true;
    return false;
  }

  replayEventsAfter(lastEventId: string, send: (eventId: string, message: JSONRPCMessage) => void): void {
    const cut = lastEventId.lastIndexOf("_");
    if (cut <= 0) return;
    const streamId = lastEventId.slice(0, cut);
    const after = Number(lastEventId.slice(cut + 1));
    if (!Number.isInteger(after)) return;
    const { streamOf, at, len } = this;
    for (let i = Math.max(this.head, this.head + after + 1 - this.first); i < streamOf.length; i++) {
      if (streamOf[i] !== streamId || len[i]! < 0) continue;
      const data = UTF8_IN.decode(this.bytes.subarray(at[i], at[i]! + len[i]!));
      send(`${streamId}_${this.first + i - this.head}`, JSON.parse(data) as JSONRPCMessage);
    }
  }

  removeStream(streamId: string): void {
    const { streamOf, len, width } = this;
    for (let i = this.head; i < streamOf.length; i++) {
      if (streamOf[i] !== streamId || len[i] === -2) continue;
      this.chars -= width[i]!;
      width[i] = 0;
      len[i] = -2;
    }
  }

  /** Characters of serialised messages currently held. */
  get heldChars(): number {
    return this.chars;
  }

  /** Number of events currently held (for tests and monitoring). */
  get size(): number {
    return this.streamOf.length - this.head;
  }

  private evictOne(): void {
    const i = this.head++;
    this.first++;
    this.chars -= this.width[i]!;
    // Drop evicted entries now and then instead of shifting on every eviction.
    if (this.head > 1024 && this.head * 2 > this.streamOf.length) {
      for (const a of [this.streamOf, this.at, this.len, this.width] as unknown[][]) a.splice(0, this.head);
      this.head = 0;
    }
  }

  /**
   * Room for `room` more bytes after the held messages, which move to the front (an evicted or
   * removed one's bytes dropped); the buffer is sized to half as much again as they need beside
   * the room, so the bytes moved are at most twice the bytes stored since. Held messages lie one
   * after the other but for removed streams', so they move in runs: a copy per run, not per event.
   */
  private compact(room: number): void {
    const { at, len } = this;
    let held = 0;
    for (let i = this.head; i < len.length; i++) if (len[i]! > 0) held += len[i]!;
    const size = Math.max(64 * 1024, held + room + (held >> 1));
    const from = this.bytes;
    // Both tests made every time: a test first reached after the store grew would cost its
    // optimised code a deoptimisation per compaction.
    const grow = size > from.length;
    const shrink = size * 4 < from.length;
    const to = grow || shrink ? new Uint8Array(size) : from;
    // The run being gathered: bytes [start, stop) of `from`, to go to `end` of `to`.
    let start = 0;
    let stop = 0;
    let end = 0;
    for (let i = this.head; i < len.length; i++) {
      const n = len[i]!;
      if (n <= 0) continue;
      const a = at[i]!;
      if (a !== stop) {
        end = move(from, to, start, stop, end);
        start = a;
      }
      stop = a + n;
      at[i] = end + a - start;
    }
    this.bytes = to;
    this.end = move(from, to, start, stop, end);
  }
}

/** Bytes [start, stop) of `from` copied to `end` of `to` (which may be `from`, `end` ≤ `start`); returns the end of the copy. */
function move(from: Uint8Array, to: Uint8Array, start: number, stop: number, end: number): number {
  if (stop > start) {
    if (to === from) to.copyWithin(end, start, stop);
    else to.set(from.subarray(start, stop), end);
  }
  return end + stop - start;
}
