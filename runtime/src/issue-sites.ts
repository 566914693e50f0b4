/**
 * What the emitted protocol validators call when a value fails (never on the success path): ajv
 * writes every failure as a literal error object with its message and schema path, and each call of
 * another validator concatenates the instance path even when the value is valid. The generator
 * (emit/ajv-code.ts `leanErrors`) instead passes the path below the failing function and leaves out
 * the message and schema path wherever these rebuild them exactly as ajv wrote them; the caller
 * prefixes its own part of the path on the way out. The all-errors tool validators append their
 * failures through `issue` too, with the message left out where it is rebuilt (emit/ajv-code.ts
 * `compactAllErrors`). The issues users see are ajv's, byte for byte.
 */
import type { ValidationIssue, Validator } from "./protocol-binding.js";

type Params = Record<string, unknown>;

/** ajv's `type` messages of single types, each made once (there are seven JSON types). */
const typeMessages = new Map<string, string>();

/**
 * ajv's message (ajv 8, `messages: true`) of the keywords the MCP schemas fail on; the generator
 * leaves a literal message in the code wherever this would differ (other keywords, unusual params).
 */
function messageOf(keyword: string, p: Params): string | undefined {
  switch (keyword) {
    case "type": {
      if (typeof p.type !== "string") return `must be ${p.type as string}`;
      let message = typeMessages.get(p.type);
      if (message === undefined) typeMessages.set(p.type, (message = `must be ${p.type}`));
      return message;
    }
    case "required":
      return `must have required property '${p.missingProperty as string}'`;
    case "const":
      return "must be equal to constant";
    case "enum":
      return "must be equal to one of the allowed values";
    case "format":
      return `must match format "${p.format as string}"`;
    case "minimum":
    case "maximum":
      return `must be ${p.comparison as string} ${p.limit as number}`;
    case "anyOf":
      return "must match a schema in anyOf";
  }
  return undefined;
}

/**
 * Schema paths already built, by keyword and instance path. Only the literal paths of generated
 * error sites come here (a site whose path holds a property name or an index passes its schema
 * path), so there are as many as the loaded validators have sites, and a failing `anyOf` branch of
 * a valid message builds no string.
 */
const schemaPaths = new Map<string, Map<string, string>>();

/**
 * ajv's schema path of a keyword reached through `properties` alone: each token of the instance
 * path (already escaped as JSON Pointer) under `/properties`.
 */
function schemaPathOf(path: string, keyword: string): string {
  let byPath = schemaPaths.get(keyword);
  if (byPath === undefined) schemaPaths.set(keyword, (byPath = new Map()));
  let built = byPath.get(path);
  if (built === undefined) byPath.set(path, (built = `#${path.replaceAll("/", "/properties/")}/${keyword}`));
  return built;
}

function issueAt(
  instancePath: string,
  keyword: string,
  params: Params,
  schemaPath = schemaPathOf(instancePath, keyword),
  message = messageOf(keyword, params),
): ValidationIssue {
  return { instancePath, schemaPath, keyword, params, message };
}

/** `validate` fails with one issue at `path` (relative to what `validate` was given). */
export function fail(
  validate: Validator,
  path: string,
  keyword: string,
  params: Params,
  schemaPath?: string,
  message?: string,
): false {
  validate.errors = [issueAt(path, keyword, params, schemaPath, message)];
  return false;
}

/** `list` (null when empty) with one more issue, inside a composite keyword (`anyOf`) whose other branches may still pass. */
export function issue(
  list: ValidationIssue[] | null,
  path: string,
  keyword: string,
  params: Params,
  schemaPath?: string,
  message?: string,
): ValidationIssue[] {
  const e = issueAt(path, keyword, params, schemaPath, message);
  if (list === null) return [e];
  list.push(e);
  return list;
}

/** `list` with the issues of `callee`, which failed on the value at `path`: their paths get it in front. */
export function nest(list: ValidationIssue[] | null, callee: Validator, path: string): ValidationIssue[] {
  const own = callee.errors!;
  if (path !== "") for (const e of own) e.instancePath = path + e.instancePath;
  return list === null ? own : list.concat(own);
}

/** `validate` fails with the issues of `callee`, which failed on the value at `path`. */
export function failWith(validate: Validator, callee: Validator, path: string): false {
  validate.errors = nest(null, callee, path);
  return false;
}

/** A property name as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`), for a failure's instance path. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
