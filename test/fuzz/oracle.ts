/**
 * What a correct server answers to one inbound JSON value, as far as can be told without running
 * it: whether a reply is owed, with which id, and which codes are right. Replies are checked
 * against this; anything else is a "wrong code".
 */
import type { Json } from "./seeds.js";

export interface Expectation {
  /** A reply is owed for this message. */
  reply: boolean;
  /** The id the reply must carry (null when the request's id is unusable). */
  id?: string | number | null;
  /** Acceptable error codes; undefined means a result or any MCP error code is fine. */
  codes?: number[];
}

const isId = (v: unknown): v is string | number =>
  typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));

/** Nesting depth of a parsed value, walked without recursion (the oracle does not reuse the runtime's byte scanner). */
export function depth(v: Json): number {
  // Counted like brackets on the wire: each array or object is one level, scalars none.
  let max = 0;
  const stack: [Json, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== "object") continue;
    if (d > max) max = d;
    if (d > 1000) return d;
    for (const y of Array.isArray(x) ? x : Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

export const MCP_CODES = [-32700, -32600, -32601, -32602, -32603, -32000, -32002, -32042];

/** One message (not a batch) as a 2025-11-25 server sees it after initialize. */
export function expect(m: Json, bytes: number, maxBytes: number, maxDepth: number): Expectation {
  if (typeof m !== "object" || m === null || Array.isArray(m))
    return { reply: true, id: null, codes: [-32600, -32700] };
  const tooBig = bytes > maxBytes;
  // An oversized line is read by its outline only: a request id longer than the scanner keeps is unreadable.
  if (tooBig && "method" in m && "id" in m && isId(m.id) && JSON.stringify(m.id).length > 1024)
    return { reply: true, id: null, codes: [-32700] };
  if (tooBig && !("method" in m) && !("id" in m)) return { reply: true, id: null, codes: [-32700] };
  const tooDeep = !tooBig && depth(m) > maxDepth;
  if ("method" in m) {
    if (!("id" in m)) return { reply: false };
    if (!isId(m.id)) return { reply: true, id: null, codes: tooBig ? [-32600, -32700] : [-32600] };
    if (tooBig || tooDeep) return { reply: true, id: m.id, codes: [-32600] };
    if (m.jsonrpc !== "2.0") return { reply: true, id: m.id, codes: [-32600] };
    if (typeof m.method !== "string") return { reply: true, id: m.id, codes: [-32600] };
    return { reply: true, id: m.id };
  }
  if ("id" in m) return { reply: false }; // a response: never answered
  return { reply: true, id: null, codes: [-32600] };
}

/** The expectation for one NDJSON line exactly as sent (bytes, without the LF). */
export function expectLine(line: Buffer, maxBytes: number, maxDepth: number): Expectation {
  let end = line.length;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  const body = line.subarray(0, end);
  if (body.every((c) => c === 0x20 || c === 0x09 || c === 0x0d)) return { reply: false };
  let value: Json;
  try {
    value = JSON.parse(body.toString("utf8")) as Json;
  } catch {
    // Unparsable; when oversized it may still be read by its outline (a request with a readable id).
    return body.length > maxBytes
      ? { reply: true, codes: [-32600, -32700] }
      : { reply: true, id: null, codes: [-32700] };
  }
  if (body.length > maxBytes && (typeof value !== "object" || value === null || Array.isArray(value)))
    return { reply: true, id: null, codes: [-32700] };
  return expect(value, body.length, maxBytes, maxDepth);
}
