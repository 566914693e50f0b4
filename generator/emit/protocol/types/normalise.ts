/**
 * Rewrites one definition's schema into the shape json-schema-to-typescript turns into exactly one
 * declaration under the definition's own name.
 *
 * Why: given `$ref`s, json-schema-to-typescript dereferences them and, whenever a `$ref` has sibling
 * keywords (MCP puts `description` next to almost every `$ref`), it sees a new schema and invents a
 * numbered copy of the target (`Annotations1`…`Annotations7`, `Role1`). Replacing every local `$ref`
 * with its `tsType` escape hatch (the target's TS name, verbatim) keeps the sibling `description` as
 * property JSDoc, makes every reference point at the one declaration, and means no dereferencing
 * runs at all (which is also what makes per-definition compiles cheap).
 */
import type { JSONSchema } from "../../../model/ir.js";
import { METADATA, SUBSCHEMA_MAP } from "../../../json-schema/keywords.js";
import { escapePointerToken, unescapePointerToken } from "../../../json-schema/pointer.js";
import { isPlainObject } from "../../../json-schema/walk.js";

/** Keywords that would make json-schema-to-typescript declare extra named types or change naming. */
// `tsType`/`tsEnumNames` are json-schema-to-typescript extensions: only this module may introduce them.
const DROPPED_KEYWORDS = new Set([
  "$id",
  "id",
  "$schema",
  "title",
  "$comment",
  "$anchor",
  "$dynamicAnchor",
  "tsType",
  "tsEnumNames",
]);
/** Keywords that describe a value without constraining it. */
const ANNOTATION_KEYWORDS = new Set(METADATA);
/** Keywords whose value is a map from names (not keywords) to subschemas. */
const SCHEMA_MAPS = new Set(SUBSCHEMA_MAP);

export interface NormaliseContext {
  /** `#/definitions/` or `#/$defs/`. */
  refPrefix: string;
  /** Every definition name in the document. */
  names: ReadonlySet<string>;
  /** Definition being normalised, for error messages. */
  definition: string;
  /** Definitions used as a `_meta` value (see {@link metaDefinitions}); they stay open maps. */
  openDefinitions: ReadonlySet<string>;
}

export class TypesEmitError extends Error {
  override name = "TypesEmitError";
}

export function normaliseSchema(schema: JSONSchema, ctx: NormaliseContext, pointer = ""): JSONSchema {
  if (typeof schema === "boolean") return schema;
  const out: { [key: string]: unknown } = {};
  const ref = schema["$ref"];
  if (ref !== undefined) {
    out["tsType"] = refTarget(ref, ctx, `${pointer}/$ref`);
  }
  const isMeta = pointer.endsWith("/properties/_meta");
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" || DROPPED_KEYWORDS.has(key)) continue;
    // With a $ref present, TS follows the target; siblings other than documentation do not narrow it.
    if (ref !== undefined && key !== "description" && key !== "deprecated") continue;
    const here = `${pointer}/${escapePointerToken(key)}`;
    if (key === "description" && typeof value === "string") out[key] = repairLinks(value, ctx.names);
    else if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
      const map: { [key: string]: unknown } = {};
      for (const [name, sub] of Object.entries(value)) {
        map[name] = normaliseValue(sub, ctx, `${here}/${escapePointerToken(name)}`);
      }
      out[key] = map;
    } else if (key === "const" || key === "enum" || key === "default" || key === "examples" || key === "required") {
      out[key] = structuredClone(value);
    } else {
      out[key] = normaliseValue(value, ctx, here);
    }
  }
  // A schema that only documents (2026-07-28's `structuredContent`: "any JSON value") admits every
  // value; left alone, the closed-object default below would make it `{ [k: string]: unknown }`.
  if (ref === undefined && Object.keys(out).every((k) => ANNOTATION_KEYWORDS.has(k)))
    return { ...out, tsType: "unknown" };
  if (ref === undefined && !("additionalProperties" in out) && !("patternProperties" in out)) {
    const opened = (pointer === "" && ctx.openDefinitions.has(ctx.definition.slice(ctx.refPrefix.length))) || isMeta;
    if ((opened || isBareObject(out)) && !isComposite(out)) out["additionalProperties"] = {};
  }
  return out;
}

/**
 * Objects are closed unless the schema says otherwise (as in the spec's own TS), with two
 * exceptions that the published JSON loses: an object with no declared properties is a free-form
 * map (the TS type `{}` would admit strings and numbers), and `_meta` values are open maps whose key naming
 * the spec regulates (MetaObject), so extension keys such as `traceparent` must type-check.
 */
function isBareObject(schema: { [key: string]: unknown }): boolean {
  const props = schema["properties"];
  return (
    schema["type"] === "object" && (props === undefined || (isPlainObject(props) && Object.keys(props).length === 0))
  );
}

function isComposite(schema: { [key: string]: unknown }): boolean {
  return "anyOf" in schema || "oneOf" in schema || "allOf" in schema || "tsType" in schema;
}

/** Names of definitions that some `properties._meta` refers to directly. */
export function metaDefinitions(schemas: Iterable<JSONSchema>, refPrefix: string): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (isPlainObject(value)) {
      const props = value["properties"];
      const meta = isPlainObject(props) ? props["_meta"] : undefined;
      const ref = isPlainObject(meta) ? meta["$ref"] : undefined;
      if (typeof ref === "string" && ref.startsWith(refPrefix)) found.add(ref.slice(refPrefix.length));
      for (const v of Object.values(value)) walk(v);
    }
  };
  for (const s of schemas) walk(s);
  return found;
}

function normaliseValue(value: unknown, ctx: NormaliseContext, pointer: string): unknown {
  if (Array.isArray(value)) return value.map((v, i) => normaliseValue(v, ctx, `${pointer}/${i}`));
  if (isPlainObject(value)) return normaliseSchema(value, ctx, pointer);
  return value;
}

function refTarget(ref: unknown, ctx: NormaliseContext, pointer: string): string {
  if (typeof ref !== "string" || !ref.startsWith(ctx.refPrefix)) {
    throw new TypesEmitError(
      `${ctx.definition}${pointer}: expected a local reference "${ctx.refPrefix}<Name>", got ${JSON.stringify(ref)}`,
    );
  }
  const name = unescapePointerToken(decodeURIComponent(ref.slice(ctx.refPrefix.length)));
  if (!ctx.names.has(name)) {
    throw new TypesEmitError(`${ctx.definition}${pointer}: reference to unknown definition "${name}"`);
  }
  return name;
}

/**
 * The published schema.json flattens TSDoc `{@link Name | label}` into `{@link Namelabel}`; put the
 * separator back when the link starts with a known definition name so editors resolve the link.
 */
export function repairLinks(text: string, names: ReadonlySet<string>): string {
  return text.replace(/\{@link ([^}]*)\}/g, (whole, target: string) => {
    const ident = /^[A-Za-z_$][\w$]*/.exec(target)?.[0];
    if (ident === undefined) return whole;
    const next = target.charAt(ident.length);
    if (names.has(ident) && (next === "" || next === "." || next === " " || next === "|")) return whole;
    for (let cut = names.has(ident) ? ident.length : ident.length - 1; cut > 0; cut--) {
      const head = ident.slice(0, cut);
      if (names.has(head)) return `{@link ${head} | ${target.slice(cut).trim()}}`;
    }
    return whole;
  });
}
