/**
 * Generic traversal of JSON Schema documents (draft-07 and 2020-12 keywords, keywords.ts): which
 * keywords hold subschemas, a depth-first walk, and local `$ref` resolution by JSON pointer or
 * anchor.
 */
import { SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP } from "./keywords.js";
import { escapePointerToken } from "./pointer.js";

export type SchemaObject = { [key: string]: unknown };

export function isPlainObject(v: unknown): v is SchemaObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Every direct subschema of `schema` with its pointer suffix. */
function subschemas(schema: SchemaObject): { pointer: string; schema: unknown }[] {
  const out: { pointer: string; schema: unknown }[] = [];
  for (const k of SUBSCHEMA) {
    const v = schema[k];
    if (v !== undefined && !Array.isArray(v)) out.push({ pointer: `/${k}`, schema: v });
  }
  for (const k of SUBSCHEMA_LIST) {
    const v = schema[k];
    if (Array.isArray(v)) v.forEach((s, i) => out.push({ pointer: `/${k}/${i}`, schema: s }));
  }
  for (const k of SUBSCHEMA_MAP) {
    const v = schema[k];
    if (isPlainObject(v))
      for (const name of Object.keys(v)) out.push({ pointer: `/${k}/${escapePointerToken(name)}`, schema: v[name] });
  }
  return out;
}

/** Depth-first visit of every schema object (cycles cannot occur in parsed JSON). */
export function walkSchema(schema: unknown, pointer: string, visit: (s: SchemaObject, pointer: string) => void): void {
  if (!isPlainObject(schema)) return;
  visit(schema, pointer);
  for (const sub of subschemas(schema)) walkSchema(sub.schema, pointer + sub.pointer, visit);
}
