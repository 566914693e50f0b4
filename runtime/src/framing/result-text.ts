/**
 * A result's JSON text where its `_meta` is a shared one (result-meta.ts): that `_meta`'s text is
 * placed, not serialised again, around JSON.stringify's own output of the other members (no search
 * in it). The text is the one JSON.stringify writes of the whole result; whatever does not fit the
 * assembly is stringified whole.
 */
import { META_TEXT } from "./result-meta.js";

type Result = Record<string, unknown>;

/** JSON.stringify(result), byte for byte. */
export function resultText(result: Result): string {
  const meta = result._meta;
  // A primitive has no such member either.
  const text = (meta as { [META_TEXT]?: string } | null | undefined)?.[META_TEXT];
  if (text === undefined || !metaLast(result)) return JSON.stringify(result);
  // The other members as JSON.stringify writes them (it skips an undefined member), then `_meta`
  // where it stood: last. A `_meta` that cannot be written is not a plain data member.
  try {
    result._meta = undefined;
  } catch {
    return JSON.stringify(result);
  }
  if (result._meta !== undefined) return JSON.stringify(result);
  let rest: string;
  try {
    rest = JSON.stringify(result);
  } finally {
    result._meta = meta;
  }
  return withMetaLast(rest, text);
}

/**
 * `objectText` (JSON.stringify's text of an object without `_meta`) with `"_meta":metaText` as
 * its last member: what JSON.stringify writes when `_meta` is the object's last key.
 */
export function withMetaLast(objectText: string, metaText: string): string {
  return objectText.length === 2 ? `{"_meta":${metaText}}` : `${objectText.slice(0, -1)},"_meta":${metaText}}`;
}

/** `_meta` is the last key JSON.stringify would write, and nothing (toJSON) replaces the object. */
function metaLast(result: Result): boolean {
  if (typeof result.toJSON === "function") return false;
  let last: string | undefined;
  for (const k in result) last = k;
  return last === "_meta";
}
