/**
 * Structural mutations of JSON-RPC messages, driven by a seeded PRNG so every failure replays:
 * nesting, types, sizes, ids, keys that hit prototypes, batches, and byte-level damage
 * (truncation, invalid UTF-8, stray CR/LF, BOM). Every size is bounded.
 */
import type { Json, Msg } from "./seeds.js";

export type Rng = () => number;

/** mulberry32 */
export function rng(seed: number): Rng {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const STRANGE_KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "then",
  "",
  "id",
  "method",
  "result",
  "error",
  "jsonrpc",
  "params",
  "_meta",
];

/** Deep nesting without recursion (arrays or objects), up to `n` levels. */
export function nest(n: number, inner: Json = 0, objects = false): Json {
  let v = inner;
  for (let i = 0; i < n; i++) v = objects ? { a: v } : [v];
  return v;
}

export function strangeId(r: Rng): Json {
  return pick<Json>(r, [
    {},
    [],
    [1],
    true,
    false,
    null,
    1.5,
    -0,
    1e300,
    2 ** 53 + 2,
    -(2 ** 53 + 2),
    "",
    "x".repeat(1000),
    nest(3 + Math.floor(r() * 1000)),
    { id: 1 },
    "__proto__",
    0,
    -1,
    2 ** 53 - 1,
  ]);
}

/**
 * A message with a value nested far deeper than JSON.stringify can write (up to `max` levels),
 * built as text: in the id, the params, a result or an error message.
 */
export function deepLine(r: Rng, id: string | number, max = 100_000): string {
  const n = 100 + Math.floor(r() * max);
  const deep = "[".repeat(n) + "]".repeat(n);
  const i = JSON.stringify(id);
  return pick(r, [
    `{"jsonrpc":"2.0","id":${deep},"result":{}}`,
    `{"jsonrpc":"2.0","id":${i},"error":{"code":1,"message":${deep}}}`,
    `{"jsonrpc":"2.0","id":${i},"method":"ping","params":{"x":${deep}}}`,
    `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"test_simple_text","arguments":${deep}}}`,
    `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deep}}}`,
    `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":${deep}}}`,
    `{"jsonrpc":"2.0","id":${i},"method":"ping","params":{"_meta":{"progressToken":${deep}}}}`,
  ]);
}

function scalar(r: Rng): Json {
  return pick<Json>(r, [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    "",
    "x",
    "é🌍",
    "\u0000\n\r\u2028",
    "a".repeat(Math.floor(r() * 5000)),
  ]);
}

/** A random JSON value of bounded size. */
export function value(r: Rng, depth = 0): Json {
  const roll = r();
  if (depth > 3 || roll < 0.45) return scalar(r);
  if (roll < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  const o: { [k: string]: Json } = {};
  for (let i = Math.floor(r() * 4); i > 0; i--)
    o[r() < 0.3 ? pick(r, STRANGE_KEYS) : `k${Math.floor(r() * 10)}`] = value(r, depth + 1);
  return o;
}

/** Paths to every value inside `v` (bounded walk). */
function paths(
  v: Json,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
  budget = { n: 200 },
): (string | number)[][] {
  if (budget.n-- <= 0) return out;
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out, budget));
  else if (v && typeof v === "object") for (const k of Object.keys(v)) paths(v[k]!, [...prefix, k], out, budget);
  return out;
}

function setAt(root: Json, path: (string | number)[], to: Json | undefined): Json {
  if (path.length === 0) return to === undefined ? null : to;
  let parent = root as { [k: string]: Json };
  for (const p of path.slice(0, -1)) parent = (parent as never)[p];
  if (typeof parent !== "object" || parent === null) return root; // a key on a scalar: nothing to set
  const last = path[path.length - 1]!;
  if (to === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else Object.defineProperty(parent, last, { value: to, enumerable: true, writable: true, configurable: true });
  return root;
}

/** One structural mutation of a message (a deep copy is mutated). */
export function mutateMessage(r: Rng, seed: Msg): Json {
  let m = structuredClone(seed) as Json;
  const steps = 1 + Math.floor(r() * 3);
  for (let s = 0; s < steps; s++) {
    const all = paths(m);
    const at = pick(r, all);
    switch (Math.floor(r() * 10)) {
      case 0:
        m = setAt(m, at, value(r));
        break; // type change
      case 1:
        m = setAt(m, at, undefined);
        break; // drop
      case 2:
        m = setAt(m, [...at, pick(r, STRANGE_KEYS)], value(r));
        break; // strange key
      case 3:
        m = setAt(m, at, nest(10 + Math.floor(r() * (r() < 0.2 ? 2_000 : 300)), 1, r() < 0.5));
        break; // nesting (deeper ones are spliced as text: deepLine)
      case 4:
        m = setAt(m, at, "s".repeat(Math.floor(r() * (r() < 0.01 ? 5_000_000 : 20_000))));
        break; // size
      case 5:
        if (m && typeof m === "object" && !Array.isArray(m)) m.id = strangeId(r);
        break;
      case 6:
        if (m && typeof m === "object" && !Array.isArray(m))
          m.method = pick<Json>(r, [
            "tools/call",
            "initialize",
            "nope",
            "",
            5,
            "notifications/cancelled",
            "__proto__",
            "toString",
          ]);
        break;
      case 7:
        if (m && typeof m === "object" && !Array.isArray(m)) m.jsonrpc = pick<Json>(r, ["1.0", 2, null, "2.0 "]);
        break;
      case 8:
        m = Array.from({ length: Math.floor(r() * 4) }, () => (r() < 0.5 ? m : value(r)));
        break; // batch (shared, not cloned: may be deep)
      default:
        m = setAt(
          m,
          at,
          Array.from({ length: Math.floor(r() * 2000) }, (_, i) => i),
        );
        break; // wide
    }
  }
  return m;
}

/** Byte-level damage to an encoded message (no LF inside unless `allowNewline`). */
export function damage(r: Rng, text: string): Buffer {
  let b = Buffer.from(text, "utf8");
  switch (Math.floor(r() * 7)) {
    case 0:
      return b.subarray(0, Math.floor(r() * b.length)); // truncated
    case 1: {
      // invalid UTF-8 somewhere
      b = Buffer.from(b);
      if (b.length > 0) b[Math.floor(r() * b.length)] = pick(r, [0xff, 0xc0, 0x80, 0xed]);
      return b;
    }
    case 2:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]); // BOM
    case 3:
      return Buffer.concat([b, Buffer.from("\r")]);
    case 4:
      return Buffer.from(text.replace(/"/, "'"), "utf8");
    case 5:
      return Buffer.from(
        pick(r, ["", " ", "null", "[]", "{}", "[[]]", "1", '"x"', '{"jsonrpc":"2.0"', "]", "}{"]),
        "utf8",
      );
    default:
      return b;
  }
}
