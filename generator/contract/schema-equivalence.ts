/**
 * Whether two JSON Schemas accept the same values, for `verify` (a served tool schema against
 * the manifest's). Two schemas are equivalent when they differ only in ways that cannot change
 * what validates:
 *
 * - key order, and the order of `required`, `type`, `enum` (sets; `const: x` is `enum: [x]`) and
 *   of the branches of `allOf` / `anyOf` / `oneOf`;
 * - the annotation keywords in ANNOTATION_KEYWORDS (`$schema`: SDKs stamp their dialect on every
 *   schema; 2020-12 meta-data and content vocabularies, which do not assert);
 * - local `$ref`s (`#`, `#/...`, `#anchor`): a reference compares as the schema it points to, so an
 *   inline object equals a `$defs` entry referenced by name, and where the definitions live
 *   (`$defs`, `definitions`) does not matter; recursive schemas are compared coinductively (a pair
 *   met again while it is being compared is taken as equal);
 * - keywords written with their no-op value: `additionalProperties`, `items`, `additionalItems`,
 *   `unevaluatedProperties`, `unevaluatedItems`, `propertyNames` equal to `true` / `{}`; empty
 *   `properties`, `patternProperties`, `dependentSchemas`, `dependentRequired`, `dependencies`,
 *   `required`.
 *
 * Everything else is compared exactly (after the above): any other keyword, `format`, non-local
 * `$ref`s (never fetched), unknown and `x-` keywords. Untrusted input (a server's schema) is
 * bounded: reference chains, nesting followed through references and the number of subschema
 * pairs compared all have limits; past one the comparison is undecided and falls back to exact
 * (key-order-insensitive) JSON equality.
 */
import {
  ANNOTATIONS as KEYWORD_ANNOTATIONS,
  DEFINITIONS,
  SUBSCHEMA,
  SUBSCHEMA_LIST,
  SUBSCHEMA_MAP,
} from "../json-schema/keywords.js";
import { escapePointerToken } from "../json-schema/pointer.js";
import { isPlainObject, type SchemaObject } from "../json-schema/walk.js";
import { resolveLocalRef } from "../json-schema/ref.js";

/** Keywords that only annotate: never compared, their differences reported as notes (except `$schema` and `$comment`). */
const ANNOTATION_KEYWORDS: readonly string[] = ["$schema", ...KEYWORD_ANNOTATIONS];
const ANNOTATIONS = new Set(ANNOTATION_KEYWORDS);
/** Annotation differences not worth a note: every SDK stamps its own `$schema`. */
const SILENT = new Set(["$schema", "$comment"]);
/** Definition containers: reached through `$ref` only. */
const CONTAINERS = new Set(DEFINITIONS);

const SINGLE = new Set(SUBSCHEMA);
/** Keywords whose `true` / `{}` value is what their absence means. */
const NO_OP_WHEN_TRUE = new Set([
  "additionalProperties",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "items",
]);
const MAPS = new Set(SUBSCHEMA_MAP.filter((k) => !CONTAINERS.has(k)));
const NO_OP_WHEN_EMPTY = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "required",
]);
/** `prefixItems` and the list form of `items` are positional, the combinators are not. */
const ORDERED_LISTS = new Set(["prefixItems", "items"]);
const UNORDERED_LISTS = new Set(SUBSCHEMA_LIST.filter((k) => !ORDERED_LISTS.has(k)));
const SETS = new Set(["required", "type", "enum"]);

export interface SchemaLimits {
  /** `$ref` to `$ref` hops followed before a schema with content (default 32). */
  maxRefHops: number;
  /** Nesting depth, counted through references (default 256). */
  maxDepth: number;
  /** Subschema pairs compared, trial matches of `anyOf` branches included (default 100 000). */
  maxSteps: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { maxRefHops: 32, maxDepth: 256, maxSteps: 100_000 };

export interface SchemaDifference {
  /** JSON pointer into the first schema ("" = its root); through a local `$ref` it continues at the referenced definition. */
  pointer: string;
  /** The two values there (undefined = absent). */
  first: unknown;
  second: unknown;
}

export interface SchemaComparison {
  /** The first place the schemas accept different values; null when they are equivalent. */
  difference: SchemaDifference | null;
  /** Set when a limit stopped the comparison (why, and where): `difference` then compares the JSON texts. */
  undecided?: string;
  /** Pointers into the first schema where annotations differ (sorted, at most `MAX_NOTES`). */
  annotations: string[];
}

const MAX_NOTES = 20;

class Undecided extends Error {}

/** The JSON text with object keys sorted: equal for values that differ only in key order. */
export function canonicalJson(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x: unknown) =>
      isPlainObject(x)
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, x[k]]),
          )
        : x,
    ) ?? "undefined"
  );
}

const isEmptyMap = (v: unknown) =>
  (isPlainObject(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);

/** A schema node with what the comparison needs: the node itself (identity, for cycles) and where it is. */
interface Node {
  schema: unknown;
  pointer: string;
  /** Annotations of the `$ref` wrappers it was reached through (they apply to it too), with where each is written. */
  wrapper: { [keyword: string]: { value: unknown; pointer: string } } | null;
}

class Comparison {
  private steps = 0;
  /** Pairs being compared (on the stack). */
  private readonly open = new Map<unknown, Set<unknown>>();
  /** Pairs found equal, so a definition used many times is compared once per partner; `log` in the order proven. */
  private readonly proven = new Map<unknown, Set<unknown>>();
  private readonly log: [unknown, unknown][] = [];
  /** Pairs found different (assuming open pairs equal only hides differences, so these hold). */
  private readonly failed = new Map<unknown, Map<unknown, SchemaDifference>>();
  notes: string[] = [];

  constructor(
    private readonly rootA: unknown,
    private readonly rootB: unknown,
    private readonly limits: SchemaLimits,
  ) {}

  /** Follows `$ref`s that are the schema's only assertion (local ones only). */
  private deref(root: unknown, schema: unknown, pointer: string): Node {
    let node: Node = { schema, pointer, wrapper: null };
    for (let hops = 0; isPlainObject(node.schema) && typeof node.schema.$ref === "string"; hops++) {
      const s = node.schema;
      if (Object.keys(s).some((k) => k !== "$ref" && !ANNOTATIONS.has(k) && !CONTAINERS.has(k))) break;
      if (hops >= this.limits.maxRefHops)
        throw new Undecided(`more than ${this.limits.maxRefHops} $ref hops at ${pointer || "/"}`);
      const target = resolveLocalRef(root, s.$ref as string);
      if (!target) break;
      const at = node.pointer;
      const wrapper = Object.fromEntries(
        Object.entries(s).flatMap(([k, value]) => (ANNOTATIONS.has(k) ? [[k, { value, pointer: `${at}/${k}` }]] : [])),
      );
      node = { schema: target.schema, pointer: target.pointer, wrapper: { ...wrapper, ...node.wrapper } };
    }
    return node;
  }

  schema(x: unknown, y: unknown, at: string, depth: number): SchemaDifference | null {
    if (++this.steps > this.limits.maxSteps)
      throw new Undecided(`more than ${this.limits.maxSteps} subschemas compared`);
    if (depth > this.limits.maxDepth) throw new Undecided(`nested deeper than ${this.limits.maxDepth} at ${at || "/"}`);
    const a = this.deref(this.rootA, x, at);
    const b = this.deref(this.rootB, y, "");
    const sa = a.schema === true ? {} : a.schema;
    const sb = b.schema === true ? {} : b.schema;
    if (!isPlainObject(sa) || !isPlainObject(sb)) {
      return canonicalJson(sa) === canonicalJson(sb) ? null : { pointer: a.pointer, first: a.schema, second: b.schema };
    }
    if (this.proven.get(sa)?.has(sb)) return null;
    const known = this.failed.get(sa)?.get(sb);
    if (known) return known;
    // a pair met again while it is being compared (a recursive schema): equal unless shown otherwise elsewhere
    if (this.open.get(sa)?.has(sb)) return null;
    addPair(this.open, sa, sb);
    const mark = this.log.length;
    let d: SchemaDifference | null;
    try {
      this.annotations(a, b, sa, sb);
      d = this.keywords(sa, sb, a.pointer, depth);
    } finally {
      deletePair(this.open, sa, sb);
    }
    if (d) {
      // what was proven inside may rest on this pair being equal; a difference is one under any assumption
      for (const [x, y] of this.log.splice(mark)) deletePair(this.proven, x, y);
      let row = this.failed.get(sa);
      if (!row) this.failed.set(sa, (row = new Map()));
      row.set(sb, d);
    } else {
      addPair(this.proven, sa, sb);
      this.log.push([sa, sb]);
    }
    return d;
  }

  private annotations(a: Node, b: Node, sa: SchemaObject, sb: SchemaObject): void {
    const value = (n: Node, s: SchemaObject, k: string) =>
      n.wrapper && Object.hasOwn(n.wrapper, k) ? n.wrapper[k]!.value : Object.hasOwn(s, k) ? s[k] : undefined;
    for (const k of ANNOTATION_KEYWORDS) {
      if (SILENT.has(k)) continue;
      const va = value(a, sa, k);
      const vb = value(b, sb, k);
      if (va === vb || canonicalJson(va) === canonicalJson(vb)) continue;
      this.notes.push(a.wrapper && Object.hasOwn(a.wrapper, k) ? a.wrapper[k]!.pointer : `${a.pointer}/${k}`);
    }
  }

  /** The keywords that assert, keyed as compared (`const` folded into `enum`). */
  private significant(s: SchemaObject, root: unknown): Map<string, unknown> {
    const out = new Map<string, unknown>();
    for (const [k, v] of Object.entries(s)) {
      if (ANNOTATIONS.has(k) || CONTAINERS.has(k)) continue;
      if (NO_OP_WHEN_EMPTY.has(k) && isEmptyMap(v)) continue;
      if (NO_OP_WHEN_TRUE.has(k) && !Array.isArray(v) && this.acceptsAll(root, v)) continue;
      out.set(k, v);
    }
    if (out.has("const") && !out.has("enum")) {
      out.set("enum", [out.get("const")]);
      out.delete("const");
    }
    return out;
  }

  private acceptsAll(root: unknown, v: unknown): boolean {
    const s = this.deref(root, v, "").schema;
    return s === true || (isPlainObject(s) && Object.keys(s).every((k) => ANNOTATIONS.has(k) || CONTAINERS.has(k)));
  }

  private keywords(sa: SchemaObject, sb: SchemaObject, at: string, depth: number): SchemaDifference | null {
    const ka = this.significant(sa, this.rootA);
    const kb = this.significant(sb, this.rootB);
    const keys = [...new Set([...ka.keys(), ...kb.keys()])].sort();
    for (const k of keys) {
      const here = `${at}/${escapePointerToken(k)}`;
      const va = ka.get(k);
      const vb = kb.get(k);
      if (va === undefined || vb === undefined) {
        // an absent map is an empty one: name the entry that only one side has
        if (!isMapKeyword(k)) return { pointer: here, first: va, second: vb };
      }
      const d = isMapKeyword(k) ? this.map(k, va ?? {}, vb ?? {}, here, depth) : this.keyword(k, va, vb, here, depth);
      if (d) return d;
    }
    return null;
  }

  private keyword(k: string, va: unknown, vb: unknown, at: string, depth: number): SchemaDifference | null {
    if (k === "$ref") return this.ref(va, vb, at, depth);
    if (SETS.has(k)) return sameSet(asList(va), asList(vb)) ? null : { pointer: at, first: va, second: vb };
    if (ORDERED_LISTS.has(k) && (Array.isArray(va) || Array.isArray(vb))) return this.orderedList(va, vb, at, depth);
    if (SINGLE.has(k)) return this.schema(va, vb, at, depth + 1);
    if (UNORDERED_LISTS.has(k)) return this.unorderedList(va, vb, at, depth);
    return canonicalJson(va) === canonicalJson(vb) ? null : { pointer: at, first: va, second: vb };
  }

  /** A `$ref` beside other assertions: the referenced schemas are compared; unresolvable ones by their text. */
  private ref(va: unknown, vb: unknown, at: string, depth: number): SchemaDifference | null {
    const ta = typeof va === "string" ? resolveLocalRef(this.rootA, va) : undefined;
    const tb = typeof vb === "string" ? resolveLocalRef(this.rootB, vb) : undefined;
    if (!ta || !tb) return va === vb && !ta && !tb ? null : { pointer: at, first: va, second: vb };
    return this.schema(ta.schema, tb.schema, ta.pointer, depth + 1);
  }

  private orderedList(va: unknown, vb: unknown, at: string, depth: number): SchemaDifference | null {
    if (!Array.isArray(va) || !Array.isArray(vb) || va.length !== vb.length)
      return { pointer: at, first: va, second: vb };
    for (let i = 0; i < va.length; i++) {
      const d = this.schema(va[i], vb[i], `${at}/${i}`, depth + 1);
      if (d) return d;
    }
    return null;
  }

  /** Branches match in any order; an unmatched branch is reported against the one at its own index. */
  private unorderedList(va: unknown, vb: unknown, at: string, depth: number): SchemaDifference | null {
    if (!Array.isArray(va) || !Array.isArray(vb) || va.length !== vb.length)
      return { pointer: at, first: va, second: vb };
    const used = new Set<number>();
    for (let i = 0; i < va.length; i++) {
      const order = [i, ...vb.keys()].filter((j, n, all) => all.indexOf(j) === n && !used.has(j));
      const match = order.find((j) => this.trial(() => this.schema(va[i], vb[j], `${at}/${i}`, depth + 1)) === null);
      if (match !== undefined) {
        used.add(match);
        continue;
      }
      const j = used.has(i) ? order[0]! : i;
      return (
        this.schema(va[i], vb[j], `${at}/${i}`, depth + 1) ?? { pointer: `${at}/${i}`, first: va[i], second: vb[j] }
      );
    }
    return null;
  }

  /** Runs a tentative comparison; the notes of a failed one are dropped. */
  private trial(run: () => SchemaDifference | null): SchemaDifference | null {
    const notes = this.notes.length;
    const d = run();
    if (d) this.notes.length = notes;
    return d;
  }

  private map(k: string, va: unknown, vb: unknown, at: string, depth: number): SchemaDifference | null {
    if (!isPlainObject(va) || !isPlainObject(vb))
      return canonicalJson(va) === canonicalJson(vb) ? null : { pointer: at, first: va, second: vb };
    for (const name of [...new Set([...Object.keys(va), ...Object.keys(vb)])].sort()) {
      const here = `${at}/${escapePointerToken(name)}`;
      const a = Object.hasOwn(va, name) ? va[name] : undefined;
      const b = Object.hasOwn(vb, name) ? vb[name] : undefined;
      if (a === undefined || b === undefined) return { pointer: here, first: a, second: b };
      // dependentRequired, and the array form of draft-07 dependencies: property names, a set
      if (k === "dependentRequired" || Array.isArray(a) || Array.isArray(b)) {
        if (!sameSet(asList(a), asList(b))) return { pointer: here, first: a, second: b };
        continue;
      }
      const d = this.schema(a, b, here, depth + 1);
      if (d) return d;
    }
    return null;
  }
}

function addPair(pairs: Map<unknown, Set<unknown>>, x: unknown, y: unknown): void {
  let set = pairs.get(x);
  if (!set) pairs.set(x, (set = new Set()));
  set.add(y);
}

function deletePair(pairs: Map<unknown, Set<unknown>>, x: unknown, y: unknown): void {
  const set = pairs.get(x);
  if (!set) return;
  set.delete(y);
  if (set.size === 0) pairs.delete(x);
}

function isMapKeyword(k: string): boolean {
  return MAPS.has(k) || k === "dependentRequired" || k === "dependencies";
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  const sa = new Set(a.map(canonicalJson));
  const sb = new Set(b.map(canonicalJson));
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** Compares `first` (the manifest's, whose pointers are reported) with `second` (the served one). */
export function compareSchemas(
  first: unknown,
  second: unknown,
  limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS,
): SchemaComparison {
  const c = new Comparison(first, second, limits);
  try {
    const difference = c.schema(first, second, "", 0);
    return { difference, annotations: difference ? [] : [...new Set(c.notes)].sort().slice(0, MAX_NOTES) };
  } catch (e) {
    if (!(e instanceof Undecided)) throw e;
    const same = canonicalJson(first) === canonicalJson(second);
    return { difference: same ? null : { pointer: "", first, second }, undecided: e.message, annotations: [] };
  }
}
