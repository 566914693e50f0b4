/**
 * Fixed collections that the per-call path reads by the same key again and again: a connection
 * asks about the same method (and names the same revision) for every call it makes, so the last
 * key and its answer are kept and a repeated question costs one string comparison instead of a
 * hash lookup (measured on the in-process `tools/call` path, where about ten such lookups per
 * call were ~8% of its CPU). The contents never change, so a kept answer never goes stale.
 */

/** A fixed set of method names. */
export class MethodSet {
  private readonly members: ReadonlySet<string>;
  private last: string | undefined = undefined;
  private lastIn = false;

  constructor(members: Iterable<string>) {
    this.members = new Set(members);
  }

  has(method: string): boolean {
    if (method === this.last) return this.lastIn;
    const answer = this.members.has(method);
    this.last = method;
    this.lastIn = answer;
    return answer;
  }
}

/**
 * A fixed map (the revisions a server serves) read by the key every request names, which is
 * nearly always the key the last request named: the last lookup is kept, as in MethodSet.
 * Its values are never undefined (`has` is `get` finding one).
 */
export class FixedMap<V> {
  private readonly entries: ReadonlyMap<string, V>;
  private last: string | undefined = undefined;
  private lastValue: V | undefined = undefined;

  constructor(entries: Iterable<readonly [string, V]>) {
    this.entries = new Map(entries);
  }

  get(key: string): V | undefined {
    if (key === this.last) return this.lastValue;
    const value = this.entries.get(key);
    this.last = key;
    this.lastValue = value;
    return value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
}
