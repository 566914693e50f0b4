/**
 * Assigns identifiers in one namespace and reports real collisions: two different sources that
 * map to the same identifier are an error naming both, never an order-dependent suffix.
 */

export interface NameSource {
  /** JSON pointer (or other locator) of the thing being named, e.g. `/tools/3/name`. */
  pointer: string;
  /** The original name, e.g. `get-forecast`. */
  name: string;
}

export interface NameCollision {
  identifier: string;
  namespace: string;
  first: NameSource;
  second: NameSource;
}

function describeSource(s: NameSource): string {
  return `${s.pointer} ${JSON.stringify(s.name)}`;
}

export function describeCollision(c: NameCollision): string {
  if (c.first.name === c.second.name)
    return `duplicate name: ${describeSource(c.first)} and ${describeSource(c.second)}`;
  return `${describeSource(c.first)} and ${describeSource(c.second)} both map to the ${c.namespace} identifier "${c.identifier}"; rename one of them`;
}

export class NameRegistry {
  private readonly taken = new Map<string, NameSource>();
  readonly collisions: NameCollision[] = [];

  constructor(readonly namespace: string) {}

  /** Claims `identifier` for `source`; records a collision (and still returns the identifier) when taken. */
  claim(identifier: string, source: NameSource): string {
    const prior = this.taken.get(identifier);
    if (prior === undefined) this.taken.set(identifier, source);
    else if (prior.pointer !== source.pointer) {
      // report in a stable order whatever order the claims arrive in
      const [first, second] = comparePointers(prior.pointer, source.pointer) <= 0 ? [prior, source] : [source, prior];
      this.collisions.push({ identifier, namespace: this.namespace, first, second });
    }
    return identifier;
  }

  has(identifier: string): boolean {
    return this.taken.has(identifier);
  }
}

/** Orders JSON pointers by document position: array indices numerically, keys by code unit. */
function comparePointers(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}
