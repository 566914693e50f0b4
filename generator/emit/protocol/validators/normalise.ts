/**
 * Prepares MCP schema definitions for ajv's draft-07 engine: every definition becomes its own
 * schema with its own `$id` (so ajv compiles each exactly once and every `$ref` to it shares that
 * function), annotations that never affect validation are dropped (ajv would otherwise copy them
 * into the generated code), and any keyword whose meaning differs between draft-07 and 2020-12,
 * or that we do not know, stops generation with the JSON pointer where it occurs.
 */
import type { Dialect, JSONSchema } from "../../../model/ir.js";
import {
  ANNOTATIONS,
  DEFINITIONS,
  DIALECT_SPECIFIC as DIALECT_SPECIFIC_KEYWORDS,
  SHARED_ASSERTIONS,
  SUBSCHEMA,
  SUBSCHEMA_LIST,
  SUBSCHEMA_MAP,
} from "../../../json-schema/keywords.js";
import { escapePointerToken, unescapePointerToken } from "../../../json-schema/pointer.js";
import { FORMAT_NAMES } from "../../ajv-code.js";
import { runtimeImports } from "../../runtime-imports.js";

/** `$id` prefix of the per-definition schemas handed to ajv (never a network address). */
export const DEF_ID_PREFIX = "mcpgen://defs/";

/**
 * Keywords that only 2020-12 has (or that it redefines); ajv's draft-07 engine would ignore or
 * misread them, so their presence means the fast engine cannot be used.
 */
const DIALECT_SPECIFIC: ReadonlySet<string> = new Set(DIALECT_SPECIFIC_KEYWORDS);
/** Subschema keywords both dialects read alike (a definition's own `$defs` is refused below). */
const shared = (list: readonly string[]) =>
  new Set(list.filter((k) => !DIALECT_SPECIFIC.has(k) && !DEFINITIONS.includes(k)));
const SUBSCHEMA_ONE = shared(SUBSCHEMA);
const SUBSCHEMA_OBJECT = shared(SUBSCHEMA_MAP);
// `items` is one schema here: its list form is refused
const SUBSCHEMA_ARRAY = new Set([...shared(SUBSCHEMA_LIST)].filter((k) => !SUBSCHEMA_ONE.has(k)));
/** Assertions with the same meaning in both dialects, their values data kept verbatim; `format` is checked below. */
const VALUE = new Set([...SHARED_ASSERTIONS, "format"]);
/** Annotations: no effect on validation in either dialect, dropped. */
const ANNOTATION = new Set(ANNOTATIONS);

/** A schema part the validators cannot be generated from; the emitter adds the file name. */
export class SchemaNormaliseError extends Error {
  override name = "SchemaNormaliseError";
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${reason} (at ${pointer})`);
  }
}

/**
 * Turns a local `$ref` (`#/$defs/Name` or `#/$defs/Name/properties/x`) into a reference to the
 * per-definition schema (`mcpgen://defs/Name`, `mcpgen://defs/Name#/properties/x`).
 */
function rewriteRef(ref: string, defsKey: string, pointer: string): string {
  const prefix = `#/${defsKey}/`;
  if (!ref.startsWith(prefix)) {
    throw new SchemaNormaliseError(pointer, `unsupported $ref "${ref}": expected "${prefix}<Name>"`);
  }
  const rest = ref.slice(prefix.length);
  const slash = rest.indexOf("/");
  const name = unescapePointerToken(slash < 0 ? rest : rest.slice(0, slash));
  return slash < 0 ? DEF_ID_PREFIX + name : `${DEF_ID_PREFIX}${name}#${rest.slice(slash)}`;
}

/**
 * Copy of `schema` (at `pointer` in the input document) with annotations dropped and `$ref`s
 * rewritten; throws on keywords that are dialect-specific or unknown.
 */
export function normaliseSchema(schema: unknown, pointer: string, dialect: Dialect, defsKey: string): JSONSchema {
  if (typeof schema === "boolean") return schema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    throw new SchemaNormaliseError(pointer, "expected a schema (object or boolean)");
  }
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${pointer}/${escapePointerToken(key)}`;
    if (ANNOTATION.has(key)) continue;
    if (DIALECT_SPECIFIC.has(key)) {
      throw new SchemaNormaliseError(
        at,
        `keyword "${key}" is not supported: its meaning differs between draft-07 and 2020-12 (or it needs ` +
          `ajv's slower 2020-12 engine), so the validators of this ${dialect} schema cannot be generated`,
      );
    }
    if (key === "$ref") {
      if (typeof value !== "string") throw new SchemaNormaliseError(at, "expected $ref to be a string");
      out[key] = rewriteRef(value, defsKey, at);
    } else if (key === "items" && Array.isArray(value)) {
      // draft-07 tuple form; 2020-12 spells it prefixItems and reads an array here as invalid.
      throw new SchemaNormaliseError(at, `the array form of "items" is not supported`);
    } else if (SUBSCHEMA_ONE.has(key)) {
      out[key] = normaliseSchema(value, at, dialect, defsKey);
    } else if (SUBSCHEMA_OBJECT.has(key)) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new SchemaNormaliseError(at, `expected "${key}" to be an object of schemas`);
      }
      const map: { [key: string]: unknown } = {};
      for (const [name, sub] of Object.entries(value)) {
        map[name] = normaliseSchema(sub, `${at}/${escapePointerToken(name)}`, dialect, defsKey);
      }
      out[key] = map;
    } else if (SUBSCHEMA_ARRAY.has(key)) {
      if (!Array.isArray(value)) throw new SchemaNormaliseError(at, `expected "${key}" to be an array of schemas`);
      out[key] = value.map((sub, i) => normaliseSchema(sub, `${at}/${i}`, dialect, defsKey));
    } else if (key === "format" && !(FORMAT_NAMES as readonly unknown[]).includes(value)) {
      throw new SchemaNormaliseError(
        at,
        `format ${JSON.stringify(value)} has no check in ${runtimeImports.abi} (it has: ${FORMAT_NAMES.join(", ")})`,
      );
    } else if (VALUE.has(key)) {
      out[key] = value;
    } else if (key === "$schema" || key === "$defs" || key === "definitions" || key === "$id") {
      // Each definition becomes its own schema with its own $id; nested resources would change
      // how $refs resolve.
      throw new SchemaNormaliseError(at, `"${key}" inside a definition is not supported`);
    } else {
      throw new SchemaNormaliseError(at, `unknown keyword "${key}"`);
    }
  }
  return out;
}

/** Copy of a normalised schema with every `$ref` passed through `map`. */
export function mapRefs(schema: JSONSchema, map: (ref: string) => string): JSONSchema {
  if (typeof schema === "boolean") return schema;
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref") out[key] = map(value as string);
    else if (SUBSCHEMA_ONE.has(key)) out[key] = mapRefs(value as JSONSchema, map);
    else if (SUBSCHEMA_OBJECT.has(key)) {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JSONSchema>).map(([name, sub]) => [name, mapRefs(sub, map)]),
      );
    } else if (SUBSCHEMA_ARRAY.has(key)) out[key] = (value as JSONSchema[]).map((sub) => mapRefs(sub, map));
    else out[key] = value;
  }
  return out;
}

/** Whether a normalised schema references nothing (so its body can be copied anywhere). */
function isRefFree(schema: JSONSchema): boolean {
  let found = false;
  mapRefs(schema, (ref) => {
    found = true;
    return ref;
  });
  return !found;
}

/**
 * Copy of a normalised schema in which every subschema that is only a `$ref` to a reference-free
 * schema (per `lookup`) is replaced by that schema's body.
 */
export function inlineLeafRefs(schema: JSONSchema, lookup: (ref: string) => JSONSchema | undefined): JSONSchema {
  if (typeof schema === "boolean") return schema;
  const keys = Object.keys(schema);
  if (keys.length === 1 && typeof schema.$ref === "string") {
    const target = lookup(schema.$ref);
    return target !== undefined && isRefFree(target) ? target : schema;
  }
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SUBSCHEMA_ONE.has(key)) out[key] = inlineLeafRefs(value as JSONSchema, lookup);
    else if (SUBSCHEMA_OBJECT.has(key)) {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JSONSchema>).map(([name, sub]) => [name, inlineLeafRefs(sub, lookup)]),
      );
    } else if (SUBSCHEMA_ARRAY.has(key)) out[key] = (value as JSONSchema[]).map((sub) => inlineLeafRefs(sub, lookup));
    else out[key] = value;
  }
  return out;
}
