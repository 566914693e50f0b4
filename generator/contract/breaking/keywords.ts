/**
 * The validation keywords `breaking` compares at each pair of schemas it walks, in the direction
 * that hurts callers: an input that accepts less breaks calls that used to pass, an output that
 * may hold more breaks readers of its results. Bounds are compared as bounds (`minimum` together
 * with `exclusiveMinimum`, ...), `multipleOf` by divisibility, `pattern` and `format` as written:
 * two different regular expressions are not compared for what they accept, so any change counts.
 * `enum`/`const` and `type` are compared by schema-shape.ts, `additionalProperties`, `required`
 * and `properties` by structural.ts.
 */
import { isPlainObject } from "../../json-schema/walk.js";
import type { RuleId } from "./rules.js";

export interface KeywordChange {
  rule: RuleId;
  /** The keywords involved, for the pointers (the first one present on each side is pointed at). */
  keywords: string[];
  message: string;
}

type Schema = { [key: string]: unknown };
type Mode = "input" | "output";

interface Bound {
  value: number;
  exclusive: boolean;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The tighter of an inclusive and an exclusive bound; `sign` 1 for lower bounds, -1 for upper. */
function bound(s: Schema, inclusive: string, exclusive: string | undefined, sign: 1 | -1): Bound | null {
  const i = num(s[inclusive]);
  const e = exclusive === undefined ? null : num(s[exclusive]);
  if (i === null) return e === null ? null : { value: e, exclusive: true };
  if (e === null) return { value: i, exclusive: false };
  return sign * e >= sign * i ? { value: e, exclusive: true } : { value: i, exclusive: false };
}

/** Whether bound `b` admits less than bound `a` (null: no bound). */
function tighter(a: Bound | null, b: Bound | null, sign: 1 | -1): boolean {
  if (b === null) return false;
  if (a === null) return true;
  return sign * b.value > sign * a.value || (b.value === a.value && b.exclusive && !a.exclusive);
}

/** Whether every multiple of `of` is a multiple of `m` (floating point: up to a relative 1e-9). */
function divides(m: number, of: number): boolean {
  const q = of / m;
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

const show = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));

/** `minLength 1 -> 3` for each of `keywords` that differs. */
function describe(a: Schema, b: Schema, keywords: string[]): string {
  return keywords
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k} ${show(a[k])} -> ${show(b[k])}`)
    .join(", ");
}

/** Whether the values `to` admits are fewer than those `from` admits, for one family of keywords. */
interface Family {
  keywords: string[];
  narrowed(from: Schema, to: Schema): boolean;
  rules: Record<Mode, RuleId>;
  /** Compared as written, not for what it accepts: a change may narrow, and is reported as such. */
  asWritten?: true;
}

const lowerUpper =
  (min: string, exclusiveMin: string | undefined, max: string, exclusiveMax: string | undefined) =>
  (from: Schema, to: Schema) =>
    tighter(bound(from, min, exclusiveMin, 1), bound(to, min, exclusiveMin, 1), 1) ||
    tighter(bound(from, max, exclusiveMax, -1), bound(to, max, exclusiveMax, -1), -1);

const FAMILIES: Family[] = [
  {
    keywords: ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"],
    narrowed: (from, to) => {
      const m = num(to.multipleOf);
      const was = num(from.multipleOf);
      return (
        lowerUpper("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")(from, to) ||
        (m !== null && m !== 0 && (was === null || !divides(m, was)))
      );
    },
    rules: { input: "TOOL_INPUT_RANGE_NARROWED", output: "TOOL_OUTPUT_RANGE_WIDENED" },
  },
  {
    keywords: ["minLength", "maxLength"],
    narrowed: lowerUpper("minLength", undefined, "maxLength", undefined),
    rules: { input: "TOOL_INPUT_LENGTH_NARROWED", output: "TOOL_OUTPUT_LENGTH_WIDENED" },
  },
  {
    keywords: ["pattern"],
    narrowed: (from, to) => to.pattern !== undefined && to.pattern !== from.pattern,
    rules: { input: "TOOL_INPUT_PATTERN_CHANGED", output: "TOOL_OUTPUT_PATTERN_CHANGED" },
    asWritten: true,
  },
  {
    keywords: ["format"],
    narrowed: (from, to) => to.format !== undefined && to.format !== from.format,
    rules: { input: "TOOL_INPUT_FORMAT_CHANGED", output: "TOOL_OUTPUT_FORMAT_CHANGED" },
    asWritten: true,
  },
  {
    keywords: ["minItems", "maxItems", "uniqueItems"],
    narrowed: (from, to) =>
      lowerUpper("minItems", undefined, "maxItems", undefined)(from, to) ||
      (to.uniqueItems === true && from.uniqueItems !== true),
    rules: { input: "TOOL_INPUT_ITEMS_NARROWED", output: "TOOL_OUTPUT_ITEMS_WIDENED" },
  },
  {
    keywords: ["minProperties", "maxProperties", "propertyNames"],
    // two propertyNames schemas are walked like any other pair (structural.ts); here only one appearing
    narrowed: (from, to) =>
      lowerUpper("minProperties", undefined, "maxProperties", undefined)(from, to) ||
      (isRestriction(to.propertyNames) && !isRestriction(from.propertyNames)),
    rules: { input: "TOOL_INPUT_OBJECT_NARROWED", output: "TOOL_OUTPUT_OBJECT_WIDENED" },
  },
];

/** A subschema that rejects something (`true` and `{}` accept everything). */
const isRestriction = (s: unknown) => s === false || (isPlainObject(s) && Object.keys(s).length > 0);

/**
 * The keyword changes between two schemas that break callers: for an input, the new schema
 * accepts less; for an output, it may hold more (the old one accepted less).
 */
export function keywordChanges(mode: Mode, a: unknown, b: unknown): KeywordChange[] {
  if (!isPlainObject(a) || !isPlainObject(b)) return [];
  const out: KeywordChange[] = [];
  for (const f of FAMILIES) {
    const harmful = mode === "input" ? f.narrowed(a, b) : f.narrowed(b, a);
    if (!harmful) continue;
    const what = describe(a, b, f.keywords);
    const effect = mode === "input" ? (f.asWritten ? "may accept less" : "accepts less") : "may hold more";
    out.push({ rule: f.rules[mode], keywords: f.keywords, message: `${what} (${effect})` });
  }
  return out;
}
