/**
 * JSON Schema keywords written as JSDoc tags on a property, a type alias or an interface
 * (`@format email`, `@pattern ^[A-Z]{2}$`, `@minimum 1`, `@integer`, `@default 3`): TypeScript
 * has no type for "an integer" or "an email", so the tag is where the author says it. A tag
 * with a bad value, or on a type it cannot constrain, is an error rather than a silent no-op.
 */
import type { Doc } from "./jsdoc.js";
import { KEYWORDS } from "../json-schema/keywords.js";

export type JsonSchema = { [key: string]: unknown };

/** The keywords a tag may set: the others come from the type itself or the doc text. */
const TAGS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "format",
  "pattern",
  "contentMediaType",
  "contentEncoding",
  "title",
  "uniqueItems",
  "deprecated",
  "readOnly",
  "writeOnly",
];
const tagHolds = new Map(TAGS.map((tag) => [tag, KEYWORDS[tag]!.holds]));

/** Which JSON type each keyword constrains (absent: any); `@integer` is a tag of its own for `type`. */
const appliesTo = (tag: string): readonly string[] | undefined =>
  tag === "integer" ? ["number", "integer"] : KEYWORDS[tag]?.appliesTo;

/** The schema keywords a tag set asks for; `report` gets one message per unusable tag. */
export function applyDoc(schema: JsonSchema, doc: Doc, report: (message: string) => void): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (doc.description !== undefined) out.description = doc.description;
  const types =
    typeof schema.type === "string"
      ? [schema.type]
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : undefined;
  const fits = (tag: string): boolean => {
    const allowed = appliesTo(tag);
    if (!allowed || !types) return true;
    if (types.some((t) => allowed.includes(t))) return true;
    report(`@${tag} constrains ${allowed.join(" or ")} values, but this is ${types.join(" | ")}`);
    return false;
  };
  for (const [tag, text] of doc.tags) {
    const holds = tagHolds.get(tag);
    if (holds === "number") {
      const n = Number(text);
      if (text === "" || !Number.isFinite(n)) report(`@${tag} needs a number, got ${JSON.stringify(text)}`);
      else if (fits(tag)) out[tag] = n;
    } else if (holds === "count") {
      const n = Number(text);
      if (text === "" || !Number.isInteger(n) || n < 0)
        report(`@${tag} needs a non-negative integer, got ${JSON.stringify(text)}`);
      else if (fits(tag)) out[tag] = n;
    } else if (holds === "string") {
      if (text === "") report(`@${tag} needs a value`);
      else if (tag === "pattern" && !validPattern(text))
        report(`@pattern ${JSON.stringify(text)} is not a valid regular expression`);
      else if (fits(tag)) out[tag] = text;
    } else if (holds === "boolean") {
      // `@deprecated Use x instead` carries a reason: the tag's presence is what JSON Schema says.
      if (tag !== "deprecated" && text !== "" && text !== "true" && text !== "false")
        report(`@${tag} takes no value, or true/false`);
      else if (fits(tag)) out[tag] = text !== "false";
    } else if (tag === "integer") {
      if (fits(tag))
        out.type = Array.isArray(out.type)
          ? (out.type as string[]).map((t) => (t === "number" ? "integer" : t))
          : "integer";
    } else if (tag === "default") {
      out.default = parseDefault(text);
    } else if (tag === "examples" || tag === "example") {
      out.examples = [...((out.examples as unknown[] | undefined) ?? []), parseDefault(text)];
    }
  }
  return out;
}

/** `@default 3` is the number 3, `@default "a"` and `@default a` the string "a". */
function parseDefault(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function validPattern(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}
