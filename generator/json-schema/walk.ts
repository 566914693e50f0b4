/**
 * Generic traversal of JSON Schema documents (draft-07 and 2020-12 keywords) used by the
 * manifest checks and the type emitter: which keywords hold subschemas, and local `$ref`
 * resolution by JSON pointer.
 */
import { escapePointerToken } from "./json-positions.js";

export type SchemaObject = { [key: string]: unknown };

export function isPlainObject(v: unknown): v is SchemaObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const SINGLE = ["additionalProperties", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "items"];
const LISTS = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Every direct subschema of `schema` with its pointer suffix. */
export function subschemas(schema: SchemaObject): { pointer: string; schema: unknown }[] {
  const out: { pointer: string; schema: unknown }[] = [];
  for (const k of SINGLE) {
    const v = schema[k];
    if (v !== undefined && !Array.isArray(v)) out.push({ pointer: `/${k}`, schema: v });
  }
  for (const k of LISTS) {
    const v = schema[k];
    if (Array.isArray(v)) v.forEach((s, i) => out.push({ pointer: `/${k}/${i}`, schema: s }));
  }
  for (const k of MAPS) {
    const v = schema[k];
    if (isPlainObject(v)) for (const name of Object.keys(v)) out.push({ pointer: `/${k}/${escapePointerToken(name)}`, schema: v[name] });
  }
  return out;
}

/** Depth-first visit of every schema object (cycles cannot occur in parsed JSON). */
export function walkSchema(schema: unknown, pointer: string, visit: (s: SchemaObject, pointer: string) => void): void {
  if (!isPlainObject(schema)) return;
  visit(schema, pointer);
  for (const sub of subschemas(schema)) walkSchema(sub.schema, pointer + sub.pointer, visit);
}

function unescapeToken(t: string): string {
  return decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~");
}

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
      token = unescapeToken(raw);
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
