/**
 * The JSON Schema keywords mcpgen knows, draft-07 and 2020-12 (the dialects MCP schemas and tool
 * schemas use), one row each: what its value holds, what it does, and which dialects define it.
 * Every module that treats keywords differently (the walk, the validators' normalisers, the type
 * emitters, contract comparisons, code-first tags) takes its sets from here.
 * https://json-schema.org/draft/2020-12/json-schema-core and -validation; draft-07 at
 * https://json-schema.org/draft-07/json-schema-validation.
 */

/** What the value of a keyword is. */
export type Holds =
  | "schema"
  | "schema list"
  | "schema map"
  /** `items`: one schema, or (draft-07's tuple form) a list of schemas. */
  | "schema or list"
  /** `$defs` / `definitions`: schemas reached only through `$ref`. */
  | "definitions"
  | "number"
  /** A non-negative integer. */
  | "count"
  | "string"
  | "boolean"
  /** Anything else (a type name or list, a list of values, a URI, ...). */
  | "value";

/**
 * What a keyword does: applies subschemas, asserts on the instance, only annotates (never changes
 * what validates), identifies or references a schema, holds definitions, or only means something
 * in a meta-schema. `format` is its own kind: an annotation by default, an assertion when asked.
 */
export type Role =
  "applicator" | "assertion" | "annotation" | "format" | "identifier" | "reference" | "definitions" | "meta-schema";

/** Which of the two dialects define a keyword (2019-09's `$recursive*`, gone in 2020-12, count as newer than draft-07). */
export type Dialects = "both" | "draft-07" | "2020-12" | "2019-09";

/** The JSON types an assertion constrains (absent: every type). */
export type JsonType = "number" | "integer" | "string" | "array" | "object";

export interface Keyword {
  holds: Holds;
  role: Role;
  dialects: Dialects;
  appliesTo?: readonly JsonType[];
}

const numbers = ["number", "integer"] as const;

/**
 * In the order subschemas are visited (walk.ts): single subschemas, lists, then maps, so a walk
 * reports what it finds in one stable order.
 */
export const KEYWORDS: { readonly [name: string]: Keyword } = {
  additionalProperties: { holds: "schema", role: "applicator", dialects: "both" },
  additionalItems: { holds: "schema", role: "applicator", dialects: "draft-07" },
  contains: { holds: "schema", role: "applicator", dialects: "both" },
  not: { holds: "schema", role: "applicator", dialects: "both" },
  if: { holds: "schema", role: "applicator", dialects: "both" },
  // oxlint-disable-next-line unicorn/no-thenable -- the JSON Schema keyword, in a table nothing awaits
  then: { holds: "schema", role: "applicator", dialects: "both" },
  else: { holds: "schema", role: "applicator", dialects: "both" },
  propertyNames: { holds: "schema", role: "applicator", dialects: "both" },
  unevaluatedProperties: { holds: "schema", role: "applicator", dialects: "2020-12" },
  unevaluatedItems: { holds: "schema", role: "applicator", dialects: "2020-12" },
  anyOf: { holds: "schema list", role: "applicator", dialects: "both" },
  oneOf: { holds: "schema list", role: "applicator", dialects: "both" },
  allOf: { holds: "schema list", role: "applicator", dialects: "both" },
  prefixItems: { holds: "schema list", role: "applicator", dialects: "2020-12" },
  items: { holds: "schema or list", role: "applicator", dialects: "both" },
  properties: { holds: "schema map", role: "applicator", dialects: "both" },
  patternProperties: { holds: "schema map", role: "applicator", dialects: "both" },
  $defs: { holds: "definitions", role: "definitions", dialects: "2020-12" },
  definitions: { holds: "definitions", role: "definitions", dialects: "draft-07" },
  dependentSchemas: { holds: "schema map", role: "applicator", dialects: "2020-12" },
  // draft-07: each value a schema or a list of property names (2020-12 split it in two)
  dependencies: { holds: "value", role: "applicator", dialects: "draft-07" },

  type: { holds: "value", role: "assertion", dialects: "both" },
  enum: { holds: "value", role: "assertion", dialects: "both" },
  const: { holds: "value", role: "assertion", dialects: "both" },
  required: { holds: "value", role: "assertion", dialects: "both", appliesTo: ["object"] },
  minimum: { holds: "number", role: "assertion", dialects: "both", appliesTo: numbers },
  maximum: { holds: "number", role: "assertion", dialects: "both", appliesTo: numbers },
  exclusiveMinimum: { holds: "number", role: "assertion", dialects: "both", appliesTo: numbers },
  exclusiveMaximum: { holds: "number", role: "assertion", dialects: "both", appliesTo: numbers },
  multipleOf: { holds: "number", role: "assertion", dialects: "both", appliesTo: numbers },
  minLength: { holds: "count", role: "assertion", dialects: "both", appliesTo: ["string"] },
  maxLength: { holds: "count", role: "assertion", dialects: "both", appliesTo: ["string"] },
  pattern: { holds: "string", role: "assertion", dialects: "both", appliesTo: ["string"] },
  minItems: { holds: "count", role: "assertion", dialects: "both", appliesTo: ["array"] },
  maxItems: { holds: "count", role: "assertion", dialects: "both", appliesTo: ["array"] },
  uniqueItems: { holds: "boolean", role: "assertion", dialects: "both", appliesTo: ["array"] },
  minContains: { holds: "count", role: "assertion", dialects: "2020-12", appliesTo: ["array"] },
  maxContains: { holds: "count", role: "assertion", dialects: "2020-12", appliesTo: ["array"] },
  minProperties: { holds: "count", role: "assertion", dialects: "both", appliesTo: ["object"] },
  maxProperties: { holds: "count", role: "assertion", dialects: "both", appliesTo: ["object"] },
  dependentRequired: { holds: "value", role: "assertion", dialects: "2020-12", appliesTo: ["object"] },
  format: { holds: "string", role: "format", dialects: "both", appliesTo: ["string"] },

  title: { holds: "string", role: "annotation", dialects: "both" },
  description: { holds: "string", role: "annotation", dialects: "both" },
  default: { holds: "value", role: "annotation", dialects: "both" },
  examples: { holds: "value", role: "annotation", dialects: "both" },
  deprecated: { holds: "boolean", role: "annotation", dialects: "2020-12" },
  readOnly: { holds: "boolean", role: "annotation", dialects: "both" },
  writeOnly: { holds: "boolean", role: "annotation", dialects: "both" },
  $comment: { holds: "string", role: "annotation", dialects: "both" },
  contentMediaType: { holds: "string", role: "annotation", dialects: "both", appliesTo: ["string"] },
  contentEncoding: { holds: "string", role: "annotation", dialects: "both", appliesTo: ["string"] },
  // a schema, but only an annotation: never applied, so never walked
  contentSchema: { holds: "value", role: "annotation", dialects: "2020-12" },

  $schema: { holds: "value", role: "identifier", dialects: "both" },
  $id: { holds: "value", role: "identifier", dialects: "both" },
  $anchor: { holds: "string", role: "identifier", dialects: "2020-12" },
  $dynamicAnchor: { holds: "string", role: "identifier", dialects: "2020-12" },
  $recursiveAnchor: { holds: "boolean", role: "identifier", dialects: "2019-09" },
  $ref: { holds: "string", role: "reference", dialects: "both" },
  $dynamicRef: { holds: "string", role: "reference", dialects: "2020-12" },
  $recursiveRef: { holds: "string", role: "reference", dialects: "2019-09" },
  $vocabulary: { holds: "value", role: "meta-schema", dialects: "2020-12" },
};

const names = (keep: (k: Keyword) => boolean): readonly string[] =>
  Object.keys(KEYWORDS).filter((n) => keep(KEYWORDS[n]!));

/** Keywords whose value is one subschema (`items` included: it is one unless it is a list). */
export const SUBSCHEMA: readonly string[] = names((k) => k.holds === "schema" || k.holds === "schema or list");
/** Keywords whose value is a list of subschemas (`items` included: draft-07's tuple form). */
export const SUBSCHEMA_LIST: readonly string[] = names(
  (k) => k.holds === "schema list" || k.holds === "schema or list",
);
/** Keywords whose value maps names to subschemas, the definition containers included. */
export const SUBSCHEMA_MAP: readonly string[] = names((k) => k.holds === "schema map" || k.holds === "definitions");
/** `$defs` and `definitions`: subschemas reached through `$ref` only. */
export const DEFINITIONS: readonly string[] = names((k) => k.holds === "definitions");

/** Keywords that never change what validates. */
export const ANNOTATIONS: readonly string[] = names((k) => k.role === "annotation");

/**
 * Keywords that change what validates and that only the newer dialect has: a tool schema using
 * one needs ajv's 2020-12 engine (`$defs` does not: a `$ref` into it is a plain JSON pointer).
 */
export const NEWER_ONLY: readonly string[] = names(
  (k) =>
    (k.dialects === "2020-12" || k.dialects === "2019-09") &&
    ["applicator", "assertion", "identifier", "reference"].includes(k.role),
);

/**
 * Keywords one dialect reads differently from the other or lacks (definition containers and
 * annotations aside): a schema using one cannot be validated by the draft-07 engine for both.
 */
export const DIALECT_SPECIFIC: readonly string[] = names(
  (k) => k.dialects !== "both" && k.role !== "definitions" && k.role !== "annotation",
);

/** Assertions with the same meaning in draft-07 and 2020-12, their values data. */
export const SHARED_ASSERTIONS: readonly string[] = names((k) => k.role === "assertion" && k.dialects === "both");

/** The keywords of 2020-12's meta-data vocabulary (draft-07 has them all but `deprecated`). */
export const METADATA: readonly string[] = [
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
];
