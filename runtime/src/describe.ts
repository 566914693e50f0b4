/**
 * The one way untrusted values (peer ids, error messages, URIs, method names) are put into log
 * lines and error messages. JSON.stringify and String() recurse and can throw (deep nesting,
 * cycles, hostile toString); this never throws, never recurses deeper than a few levels and
 * never returns more than `max` characters.
 */
const DEFAULT_MAX = 120;

export function describe(value: unknown, max = DEFAULT_MAX): string {
  let out: string;
  try {
    out = render(value, 2);
  } catch {
    out = "(unprintable)";
  }
  return out.length > max ? `${out.slice(0, Math.max(0, max - 1))}…` : out;
}

function render(v: unknown, depth: number): string {
  switch (typeof v) {
    case "string":
      // Quote, and bound before escaping so a huge string costs nothing.
      return JSON.stringify(v.length > 200 ? v.slice(0, 200) + "…" : v);
    case "number":
    case "boolean":
    case "bigint":
      return String(v);
    case "undefined":
      return "undefined";
    case "function":
    case "symbol":
      return `(${typeof v})`;
  }
  if (v === null) return "null";
  if (Array.isArray(v)) {
    if (depth === 0) return `[…${v.length}]`;
    const items = v.slice(0, 4).map((x) => render(x, depth - 1));
    if (v.length > 4) items.push(`…${v.length - 4} more`);
    return `[${items.join(",")}]`;
  }
  if (depth === 0) return "{…}";
  const keys = Object.keys(v as object);
  const parts = keys
    .slice(0, 4)
    .map(
      (k) =>
        `${JSON.stringify(k.length > 40 ? k.slice(0, 40) + "…" : k)}:${render((v as Record<string, unknown>)[k], depth - 1)}`,
    );
  if (keys.length > 4) parts.push(`…${keys.length - 4} more`);
  return `{${parts.join(",")}}`;
}

/** A peer-supplied message text for a log line: a string, bounded, or a description of what came instead. */
export function describeText(value: unknown, max = 500): string {
  if (typeof value === "string") return value.length > max ? `${value.slice(0, max - 1)}…` : value;
  return describe(value, max);
}

/** Own enumerable-or-not property only: a peer-chosen key never reaches Object.prototype. */
export function ownValue<T>(object: { readonly [key: string]: T } | undefined, key: unknown): T | undefined {
  if (object === undefined || object === null || typeof key !== "string") return undefined;
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
