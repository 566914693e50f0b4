/**
 * A `_meta` many results share (a 2026-07-28 server's serverInfo), with its JSON text made once:
 * a transport that writes text (result-text.ts) places it instead of serialising it again.
 */

/** Where a shared `_meta` keeps its text: a symbol, so that JSON and key walks never see it. */
export const META_TEXT = Symbol("mcpgen.metaText");

/**
 * `value`, frozen, with its JSON text. Frozen: the in-memory transport hands results over by
 * reference, and a receiver that changed it would change every later result. The text is taken
 * now: what `value` holds must not change afterwards (serverInfo does not).
 */
export function sharedResultMeta<T extends object>(value: T): Readonly<T> {
  Object.defineProperty(value, META_TEXT, { value: JSON.stringify(value) });
  return Object.freeze(value);
}
