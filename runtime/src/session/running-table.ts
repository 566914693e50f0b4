/**
 * The peer's requests a handler is working on, keyed by the peer's ids. Those are arbitrary
 * strings and numbers, but a peer usually numbers its requests 0, 1, 2, ...; a numeric id takes
 * the slot `id & mask` when it is free (one array read and an id check to find it), and anything
 * else (a string id, a number whose slot is held) goes to a Map made on first need.
 *
 * Why slots first: a Map that churns rehashes, and once the session is old V8 allocates the new
 * table in old space while the discarded one keeps pointing at what it held until the next full
 * GC, so the scavenger promotes the requests (see PendingSlots). The slot array is replaced only
 * when it grows (at most half full, so its size follows how many requests are running).
 */
import type { RequestId } from "../jsonrpc.js";
import { emptySlots, grownSlots } from "./pending-slots.js";

export interface Running {
  readonly requestId: RequestId;
}

const INITIAL_CAPACITY = 8;

export class RunningTable<T extends Running> {
  private slots: (T | undefined)[] = emptySlots(INITIAL_CAPACITY);
  private mask = INITIAL_CAPACITY - 1;
  private inSlots = 0;
  private others: Map<RequestId, T> | undefined;

  get size(): number {
    return this.inSlots + (this.others?.size ?? 0);
  }

  get(id: RequestId): T | undefined {
    if (typeof id === "number") {
      const entry = this.slots[id & this.mask];
      if (entry !== undefined && entry.requestId === id) return entry;
    }
    return this.others?.get(id);
  }

  /** Add a request whose id is not running (the session checks with `get` first). */
  add(entry: T): void {
    const id = entry.requestId;
    if (typeof id === "number") {
      if ((this.inSlots + 1) * 2 > this.slots.length) this.grow();
      const i = id & this.mask;
      if (this.slots[i] === undefined) {
        this.slots[i] = entry;
        this.inSlots++;
        return;
      }
    }
    (this.others ??= new Map()).set(id, entry);
  }

  /** Remove `entry` if it is the one running under its id; false otherwise. */
  delete(entry: T): boolean {
    const id = entry.requestId;
    if (typeof id === "number") {
      const i = id & this.mask;
      if (this.slots[i] === entry) {
        this.slots[i] = undefined;
        this.inSlots--;
        return true;
      }
    }
    if (this.others?.get(id) !== entry) return false;
    this.others.delete(id);
    return true;
  }

  values(): T[] {
    const out: T[] = [];
    if (this.inSlots > 0) for (const entry of this.slots) if (entry !== undefined) out.push(entry);
    if (this.others !== undefined) for (const entry of this.others.values()) out.push(entry);
    return out;
  }

  clear(): void {
    if (this.inSlots > 0) this.slots.fill(undefined);
    this.inSlots = 0;
    this.others = undefined;
  }

  private grow(): void {
    // only numeric ids are in slots
    this.slots = grownSlots(this.slots, (entry) => entry.requestId as number);
    this.mask = this.slots.length - 1;
  }
}
