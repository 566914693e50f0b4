/**
 * What values a JSON Schema accepts, reduced to what the contract commands compare: the JSON
 * types it admits and, when it is an enum or const, the exact values. Enough to say whether a
 * property was narrowed (accepts less) or widened (accepts more) without a full schema algebra;
 * `breaking` confirms type-level verdicts with the TypeScript checker.
 */
import { isPlainObject } from "../json-schema/walk.js";
import { resolveLocalRef } from "../json-schema/ref.js";

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"] as const;

export interface ValueShape {
  /** JSON types admitted; `integer` is listed on its own only when `number` is not. */
  types: Set<string>;
  /** Exact values (enum / const), JSON-encoded; null when not restricted to a list. */
  values: Set<string> | null;
  /** `$ref` target name, when the schema is only a reference (protocol types compare by name). */
  ref: string | null;
}

const MAX_REF_HOPS = 32;

/** `root` resolves local `$ref`s; `followRefs` false keeps a reference as a name (protocol types). */
export function valueShape(schema: unknown, root: unknown, followRefs: boolean): ValueShape {
  let s = schema;
  for (let hops = 0; isPlainObject(s) && typeof s.$ref === "string" && followRefs && hops < MAX_REF_HOPS; hops++) {
    const r = resolveLocalRef(root, s.$ref);
    if (!r) break;
    s = r.schema;
  }
  if (s === true || s === undefined || (isPlainObject(s) && Object.keys(s).length === 0))
    return { types: new Set(ALL_TYPES), values: null, ref: null };
  if (s === false || !isPlainObject(s)) return { types: new Set(), values: new Set(), ref: null };
  if (typeof s.$ref === "string") return { types: new Set(ALL_TYPES), values: null, ref: s.$ref.replace(/^.*\//, "") };
  let values: Set<string> | null = null;
  if ("const" in s) values = new Set([JSON.stringify(s.const)]);
  else if (Array.isArray(s.enum)) values = new Set(s.enum.map((v) => JSON.stringify(v)));
  let types: Set<string>;
  if (typeof s.type === "string") types = new Set([s.type]);
  else if (Array.isArray(s.type)) types = new Set(s.type.filter((t): t is string => typeof t === "string"));
  else if (values) types = new Set([...values].map((v) => jsonType(JSON.parse(v) as unknown)));
  else {
    const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
    if (branches) {
      types = new Set();
      for (const b of branches) for (const t of valueShape(b, root, followRefs).types) types.add(t);
    } else types = new Set(ALL_TYPES);
  }
  if (s.nullable === true) types.add("null");
  if (types.has("number")) types.delete("integer");
  return { types, values, ref: null };
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Whether type `t` is admitted by `types` (`integer` is admitted by `number`). */
function admits(types: Set<string>, t: string): boolean {
  return types.has(t) || (t === "integer" && types.has("number"));
}

export type ShapeChange = "same" | "narrowed" | "widened" | "changed";

/** How the accepted values moved from `before` to `after`. */
export function compareShapes(before: ValueShape, after: ValueShape): ShapeChange {
  if (before.ref !== null || after.ref !== null) return before.ref === after.ref ? "same" : "changed";
  const lostType = [...before.types].some((t) => !admits(after.types, t));
  const gainedType = [...after.types].some((t) => !admits(before.types, t));
  let lostValue = false;
  let gainedValue = false;
  if (before.values && after.values) {
    lostValue = [...before.values].some((v) => !after.values!.has(v));
    gainedValue = [...after.values].some((v) => !before.values!.has(v));
  } else if (before.values && !after.values) gainedValue = true;
  else if (!before.values && after.values) lostValue = true;
  const lost = lostType || lostValue;
  const gained = gainedType || gainedValue;
  if (lost && gained) return "changed";
  if (lost) return "narrowed";
  if (gained) return "widened";
  return "same";
}

/** Human description of a shape: `string`, `"a" | "b"`, `number | null`, `$ref Foo`. */
export function describeShape(s: ValueShape): string {
  if (s.ref !== null) return s.ref;
  if (s.values) return [...s.values].join(" | ") || "never";
  if (s.types.size === ALL_TYPES.length - 1 && !s.types.has("integer")) return "any";
  return [...s.types].sort().join(" | ") || "never";
}
