/**
 * A request's JSON text assembled from pieces, for a `_meta` that many requests share: its text
 * is made once (SharedMeta) instead of serialised again with every request. The pieces are
 * JSON.stringify's own output, joined structurally (no search in them), and the text is the one
 * JSON.stringify writes of the whole request with `_meta` added last to `params`.
 */
import { withMetaLast } from "../framing/result-text.js";
import type { Params } from "./types.js";

/** A `_meta` object sent unchanged with many requests, and its JSON text. */
export interface SharedMeta {
  readonly value: Readonly<Params>;
  readonly text: string;
}

/**
 * Frozen: the memory transport hands objects over by reference, so no receiver in the same
 * process may change what the next request carries.
 */
export function sharedMeta(value: Params): SharedMeta {
  return { value: Object.freeze(value), text: JSON.stringify(value) };
}

let lastMethod = "";
let lastMethodText = '""';

/**
 * `{"jsonrpc":"2.0","id":id,"method":method,"params":{...params,"_meta":meta}}` as JSON text;
 * `params` has no `_meta` of its own.
 */
export function requestText(id: number, method: string, params: Params, meta: SharedMeta): string {
  if (method !== lastMethod) {
    lastMethodText = JSON.stringify(method);
    lastMethod = method;
  }
  const paramsText = withMetaLast(JSON.stringify(params), meta.text);
  return `{"jsonrpc":"2.0","id":${id},"method":${lastMethodText},"params":${paramsText}}`;
}
