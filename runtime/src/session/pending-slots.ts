/**
 * The requests this side awaits, in slots indexed by `id & mask`: the session numbers its own
 * requests, so an id is its slot and a lookup is one array read and an id check.
 *
 * Why not a Map: a Map that churns rehashes (on growth, and to drop deleted entries every
 * `capacity` insertions), and once the session is old V8 allocates the new table in old space
 * while the discarded one keeps pointing at the requests it held until the next full GC; the
 * scavenger takes those pointers as live, so nearly every per-request object was promoted
 * (measured with the typed HTTP client: ~13 MB promoted and a mark-compact per 30 000 calls,
 * against 0.18 MB and none with slots). The slot array is replaced only when it grows, and a
 * slot is cleared when its request ends.
 *
 * The session keeps the slot of its next id free (`freeFrom`): ids stay increasing and unique,
 * and one that would land on a slot still held by a long-running request is skipped rather than
 * growing the array, so its size follows how many requests are pending (at most half full), not
 * how far apart their ids are.
 */
export interface Slotted {
  readonly id: number;
}

const INITIAL_CAPACITY = 8;

export class PendingSlots<T extends Slotted> {
  private slots: (T | undefined)[] = emptySlots(INITIAL_CAPACITY);
  private mask = INITIAL_CAPACITY - 1;
  /** How many requests are pending. */
  size = 0;

  /** The request with this id, if it is pending; anything else (a string, an id never issued or already settled) finds nothing. */
  get(id: unknown): T | undefined {
    if (typeof id !== "number") return undefined;
    const entry = this.slots[id & this.mask];
    return entry !== undefined && entry.id === id ? entry : undefined;
  }

  /** Add a request whose id's slot is free (the session issues ids with `freeFrom`). */
  add(entry: T): void {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const i = entry.id & this.mask;
    if (this.slots[i] !== undefined) throw new Error(`internal: slot of request ${entry.id} is taken`);
    this.slots[i] = entry;
    this.size++;
  }

  /** Remove `entry` if it is the one pending under its id; false otherwise. */
  delete(entry: T): boolean {
    const i = entry.id & this.mask;
    if (this.slots[i] !== entry) return false;
    this.slots[i] = undefined;
    this.size--;
    return true;
  }

  /** The first id at or after `from` whose slot is free (there is always one: the slots are at most half full). */
  freeFrom(from: number): number {
    const slots = this.slots;
    const mask = this.mask;
    while (slots[from & mask] !== undefined) from++;
    return from;
  }

  /** Every pending request in the order they were issued (ids only grow). */
  values(): T[] {
    const out: T[] = [];
    if (this.size === 0) return out;
    for (const entry of this.slots) if (entry !== undefined) out.push(entry);
    return out.sort(byId);
  }

  clear(): void {
    if (this.size === 0) return;
    this.slots.fill(undefined);
    this.size = 0;
  }

  private grow(): void {
    this.slots = grownSlots(this.slots, (entry) => entry.id);
    this.mask = this.slots.length - 1;
  }
}

/**
 * `old`'s entries in a slot array twice its size, each at `slotOf(entry) & mask`. Entries sit in
 * distinct slots, so their numbers differ modulo the old size and so modulo the new one.
 */
export function grownSlots<T>(old: readonly (T | undefined)[], slotOf: (entry: T) => number): (T | undefined)[] {
  const slots = emptySlots<T>(old.length * 2);
  const mask = slots.length - 1;
  for (const entry of old) if (entry !== undefined) slots[slotOf(entry) & mask] = entry;
  return slots;
}

function byId(a: Slotted, b: Slotted): number {
  return a.id - b.id;
}

/** A packed array of `undefined` (one elements kind for every slot array, so access stays monomorphic). */
export function emptySlots<T>(n: number): (T | undefined)[] {
  const a: (T | undefined)[] = [];
  for (let i = 0; i < n; i++) a.push(undefined);
  return a;
}
