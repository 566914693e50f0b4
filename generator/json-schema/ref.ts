/**
 * Local `$ref` resolution: a reference inside the same schema document, by JSON pointer in the URI
 * fragment or by anchor. Nothing is ever fetched.
 */
import { unescapePointerToken } from "./pointer.js";
import { isPlainObject, walkSchema } from "./walk.js";

/**
 * Resolves a local `$ref` ("#", "#/$defs/x", "#/definitions/x", "#/properties/a/items", or an
 * `$anchor` / plain-name `$id` fragment) against `root`; undefined when it does not resolve or
 * is not local.
 */
export function resolveLocalRef(root: unknown, ref: string): { pointer: string; schema: unknown } | undefined {
  if (!ref.startsWith("#")) return undefined;
  const frag = ref.slice(1);
  if (frag === "" || frag === "/") return { pointer: "", schema: root };
  if (!frag.startsWith("/")) {
    let found: { pointer: string; schema: unknown } | undefined;
    walkSchema(root, "", (s, p) => {
      if (!found && (s.$anchor === frag || s.$id === `#${frag}`)) found = { pointer: p, schema: s };
    });
    return found;
  }
  let cur: unknown = root;
  for (const raw of frag.slice(1).split("/")) {
    let token: string;
    try {
      // a fragment is URI-encoded JSON pointer (RFC 6901 section 6)
      token = unescapePointerToken(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
    if (Array.isArray(cur)) cur = /^\d+$/.test(token) ? cur[Number(token)] : undefined;
    else if (isPlainObject(cur) && Object.prototype.hasOwnProperty.call(cur, token)) cur = cur[token];
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return { pointer: frag, schema: cur };
}
