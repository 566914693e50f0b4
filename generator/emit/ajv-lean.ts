/**
 * Lean error handling for ajv's `allErrors: false` standalone code (the protocol validators), run
 * after `positionalPaths`. ajv writes each failure as a literal error object (instance path, schema
 * path, keyword, params, message), and each call of another compiled function passes
 * `instancePath + "/key"`, a string built on every call although only a failure reads it. Here:
 * - every function validates its value without knowing where it sits: its failures carry the path
 *   below it, and a caller whose callee failed puts its own part in front (`abi.nest`,
 *   `abi.failWith`), so the success path concatenates nothing;
 * - a failure outside a composite keyword (`anyOf`) returns through one runtime call
 *   (`abi.fail(fn, path, keyword, params)`), which rebuilds the message and the schema path as ajv
 *   wrote them; only where the rebuilt text would differ does the site still spell them out;
 * - a callee's failure outside a composite keyword returns at once (ajv returns at the first
 *   failure there anyway, after threading it through `vErrors`, `errors` and a `validN` flag);
 * - error counters and flags that cannot change are dropped (`settleErrors`, `settleAnyOf`).
 * The issues a caller sees are ajv's, byte for byte (test/corpus holds them against in-memory ajv).
 */
import { JOINED, outsideStrings, STRING } from "./ajv-text.js";

/**
 * What ajv-code.ts's `$ref` hook writes before a call of another function wherever ajv itself
 * would return at a failure (not `allErrors`, not inside a composite keyword).
 */
export const DIRECT_MARK = "/*@direct*/";

/** ajv's message of the keywords runtime/src/issue-sites.ts rebuilds (`messageOf` there), or undefined. */
function messageOf(keyword: string, p: Record<string, unknown>): string | undefined {
  switch (keyword) {
    case "type":
      return `must be ${String(p.type)}`;
    case "required":
      return `must have required property '${String(p.missingProperty)}'`;
    case "const":
      return "must be equal to constant";
    case "enum":
      return "must be equal to one of the allowed values";
    case "format":
      return `must match format "${String(p.format)}"`;
    case "minimum":
    case "maximum":
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case "anyOf":
      return "must match a schema in anyOf";
  }
  return undefined;
}

/** ajv's schema path of a keyword reached through `properties` alone (`schemaPathOf` in issue-sites.ts). */
function schemaPathOf(path: string, keyword: string): string {
  return `#${path.replaceAll("/", "/properties/")}/${keyword}`;
}

/** Names that stay names when an expression is evaluated with placeholders. */
const LITERAL_NAMES = new Set(["true", "false", "null", "undefined"]);

/**
 * The value of one of ajv's small expressions (params object, message concatenation), every
 * variable or schema reference in it replaced by a placeholder string naming it; undefined when
 * the text holds anything else.
 */
function valueOf(expression: string): unknown {
  let text = "";
  let plain = true;
  text = outsideStrings(expression, (part) => {
    if (!/^[\s\w$.[\]{}:,+<>=-]*$/.test(part)) plain = false;
    return part.replace(/(?<![.\w$])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*(?![\w$]|\s*:)/g, (name) =>
      LITERAL_NAMES.has(name) ? name : JSON.stringify(`\u0001${name}`),
    );
  });
  if (!plain) return undefined;
  try {
    return new Function(`return (${text});`)() as unknown;
  } catch {
    return undefined;
  }
}

/** The instance path below the function: `instancePath` gone from the front. */
function below(path: string | undefined): string {
  if (path === undefined || path === "instancePath") return '""';
  const rest = /^instancePath\s*\+\s*([^]*)$/.exec(path);
  if (rest === null) throw new Error(`unexpected instance path in ajv's standalone code: ${path}`);
  return rest[1]!;
}

/**
 * The arguments after the validator or list: path, keyword, params, and schema path and message
 * where they are not rebuilt, or always (`spelled`).
 */
function siteArguments(
  path: string,
  schemaPath: string,
  keyword: string,
  params: string,
  message: string,
  spelled: boolean,
): string {
  if (spelled) return `${path},${keyword},${params},${schemaPath},${message}`;
  const p = valueOf(params);
  const rebuilt =
    p !== null && typeof p === "object"
      ? messageOf(JSON.parse(keyword) as string, p as Record<string, unknown>)
      : undefined;
  const sameMessage = rebuilt !== undefined && rebuilt === valueOf(message);
  const literalPath = new RegExp(`^${STRING}$`).test(path) ? (JSON.parse(path) as string) : undefined;
  const samePath =
    literalPath !== undefined && schemaPathOf(literalPath, JSON.parse(keyword) as string) === JSON.parse(schemaPath);
  const head = `${path},${keyword},${params}`;
  if (sameMessage) return samePath ? head : `${head},${schemaPath}`;
  return `${head},${schemaPath},${message}`;
}

/**
 * The arguments of `abi.issue` after the list for a site of ajv's all-errors code (tool
 * validators): path, keyword, params, schema path, and the message where the runtime would not
 * rebuild it as ajv wrote it. The instance path there is the caller's (`instancePath + ...`), so
 * the schema path is always spelled.
 */
export function issueArguments(
  path: string,
  schemaPath: string,
  keyword: string,
  params: string,
  message: string,
): string {
  return siteArguments(path, schemaPath, keyword, params, message, false);
}

/** A property name in an instance path, as ajv escapes it (JSON Pointer `~0`, `~1`). */
const ESCAPED_KEY = String.raw`[\w$]+\.replace\(/~/g, "~0"\)\.replace\(/\\//g, "~1"\)`;
const PATH = JOINED("instancePath", String.raw`${STRING}|${ESCAPED_KEY}|[\w$]+`);
const PARAMS = String.raw`\{(?:[^{}"]|${STRING})*\}`;
const MESSAGE = JOINED(STRING, String.raw`${STRING}|[\w$.]+`);
const ISSUE = String.raw`\{instancePath(?::(${PATH}))?,schemaPath:(${STRING}),keyword:(${STRING}),params:(${PARAMS}),message:(${MESSAGE})\}`;
/** ajv's single-error return (as ERROR_SITE in ajv-text.ts, with escaped property names in the path). */
const RETURN_SITE = new RegExp(String.raw`(validate\d+)\.errors = \[${ISSUE}\];return false;`, "g");
/** ajv's error inside a composite keyword, appended to `vErrors` (`errors++` follows and stays). */
const PUSH_SITE = new RegExp(
  String.raw`const (err\d+) = ${ISSUE};if\(vErrors === null\)\{vErrors = \[\1\];\}else \{vErrors\.push\(\1\);\}`,
  "g",
);
/** The value a compiled function is called with: `data`, `data0[i0]`, `data.name`, `data["a/b"]`. */
const DATA = String.raw`[\w$]+(?:\.[\w$]+|\[(?:[\w$]+|${STRING})\])*`;
/** ajv's call of another compiled function and its taking of the callee's errors (after positionalPaths). */
const CALL_SITE = new RegExp(
  String.raw`(${DIRECT_MARK.replace(/[*/]/g, "\\$&")};)?if\(!\((validate\d+|wrapper\d+\.validate)\((${DATA}), (${PATH})\)\)\)\{` +
    String.raw`vErrors = vErrors === null \? \2\.errors : vErrors\.concat\(\2\.errors\);errors = vErrors\.length;\}`,
  "g",
);
const SIGNATURE = /function (validate\d+)\(data, instancePath=""\)\{/g;

/** The code around what is left of the instance path or the mark, if anything. */
function leftover(code: string): string | undefined {
  const blanked = code.replace(new RegExp(STRING, "g"), (s) => `"${" ".repeat(s.length - 2)}"`);
  const m = /(?<![.\w$])instancePath(?![\w$])|\/\*@direct\*\//.exec(blanked);
  return m === null ? undefined : code.slice(Math.max(0, m.index - 80), m.index + 120);
}

/**
 * The functions an `anyOf` branch calls. Their failures are routine on valid values (each branch
 * that does not match fails, mostly at its first `required` or `type`/`const` check), so their
 * error sites keep ajv's literal message and schema path: rebuilding them at run time would make a
 * valid message slower to check. Only the sites `routine` names: deeper failures (and those of what
 * these call) happen only where a branch matches in part.
 */
function branchFunctions(code: string): Set<string> {
  const wrappers = new Map(
    [...code.matchAll(/const (wrapper\d+) = \{validate: (validate\d+)\};/g)].map((m) => [m[1]!, m[2]!]),
  );
  const branches = new Set<string>();
  const starts = [...code.matchAll(/function (validate\d+)\(/g)];
  for (let i = 0; i < starts.length; i++) {
    const fn = code.slice(starts[i]!.index, starts[i + 1]?.index ?? code.length);
    for (const m of fn.matchAll(new RegExp(CALL_SITE.source, "g"))) {
      if (m[1] === undefined)
        branches.add(m[2]!.startsWith("wrapper") ? wrappers.get(m[2]!.slice(0, -".validate".length))! : m[2]!);
    }
  }
  return branches;
}

/**
 * Whether a failure of a branch function is how a non-matching branch usually fails: on the value
 * itself (not an object, a required property missing) or on a discriminator (`type: "text"`).
 */
function routine(path: string, keyword: string): boolean {
  return path === '""' || keyword === '"const"' || keyword === '"enum"';
}

/** The lean form of `code` (see the file comment); throws at anything it does not recognise. */
export function leanErrors(code: string, abi: string): string {
  const starts = [...code.matchAll(/function (validate\d+)\(/g)];
  if (starts.length === 0) return code;
  const inBranches = branchFunctions(code);
  const pieces = [code.slice(0, starts[0]!.index)];
  for (let i = 0; i < starts.length; i++) {
    const self = starts[i]![1]!;
    const spelled = inBranches.has(self);
    let fn = code.slice(starts[i]!.index, starts[i + 1]?.index ?? code.length);
    fn = fn.replace(SIGNATURE, (_m, name: string) => `function ${name}(data){`);
    fn = fn.replace(
      RETURN_SITE,
      (_m, f: string, path: string | undefined, schemaPath: string, keyword: string, params: string, message: string) =>
        `return ${abi}.fail(${f},${siteArguments(below(path), schemaPath, keyword, params, message, spelled && routine(below(path), keyword))});`,
    );
    fn = fn.replace(
      PUSH_SITE,
      (_m, _e, path: string | undefined, schemaPath: string, keyword: string, params: string, message: string) =>
        `vErrors = ${abi}.issue(vErrors,${siteArguments(below(path), schemaPath, keyword, params, message, true)});`,
    );
    fn = fn.replace(CALL_SITE, (_m, direct: string | undefined, callee: string, data: string, path: string) =>
      direct !== undefined
        ? `if(!${callee}(${data})){return ${abi}.failWith(${self},${callee},${below(path)});}`
        : `if(!${callee}(${data})){vErrors = ${abi}.nest(vErrors,${callee},${below(path)});errors = vErrors.length;}`,
    );
    const left = leftover(fn);
    if (left !== undefined) {
      throw new Error(
        `ajv's standalone code of ${self} uses the instance path in a way leanErrors does not recognise: ${left}`,
      );
    }
    pieces.push(fn);
  }
  return pieces.join("");
}

/**
 * A lean function whose failures all return at once never counts one: `errors` stays 0 and
 * `vErrors` null, so each `const _errsN = errors` and `errors === _errsN` check is constant and each
 * `validN` flag is always true. Such a function is rewritten without them (the success path then
 * reads no counter and tests no flag); any other function is left as it is.
 */
export function settleErrors(code: string): string {
  const starts = [...code.matchAll(/function (validate\d+)\(/g)];
  if (starts.length === 0) return code;
  const pieces = [code.slice(0, starts[0]!.index)];
  for (let i = 0; i < starts.length; i++) {
    const fn = code.slice(starts[i]!.index, starts[i + 1]?.index ?? code.length);
    pieces.push(settled(fn, starts[i]![1]!) ?? fn);
  }
  return pieces.join("");
}

const COUNTERS = "let vErrors = null;let errors = 0;";

/** `fn` (a function of ajv's code, up to the next one) without its error counters, or undefined when it needs them. */
function settled(fn: string, self: string): string | undefined {
  const blanked = fn.replace(new RegExp(STRING, "g"), (s) => `"${" ".repeat(s.length - 2)}"`);
  if (blanked.split(COUNTERS).length !== 2) return undefined;
  const writes = blanked.match(/(?<![\w$.])v?[eE]rrors\s*(?:=(?!=)|\+\+)/g) ?? [];
  if (writes.length !== 2) return undefined; // the two of COUNTERS
  if (!fn.includes(`${self}.errors = vErrors;return errors === 0;}`)) return undefined;
  const out = outsideStrings(fn, (part) =>
    part
      .replace(COUNTERS, "")
      .replace(/const _errs\d+ = errors;/g, "")
      .replace(/if\(errors === (?:_errs\d+|0)\)\{/g, "{")
      .replace(/var valid\d+ = (?:_errs\d+ === errors|true);/g, "")
      .replace(/if\(valid\d+\)\{/g, "{")
      .replace(/if\(!valid\d+\)\{break;\}/g, "")
      .replace(`${self}.errors = vErrors;return errors === 0;`, `${self}.errors = null;return true;`),
  );
  // A flag set any other way, or a counter read any other way, is left in the text: keep ajv's.
  const rest = out.replace(new RegExp(STRING, "g"), '""');
  return /(?<![\w$.])(?:v?[eE]rrors|_errs\d+|_?valid\d+)(?![\w$])/.test(rest) ? undefined : out;
}

/**
 * ajv's code of an `anyOf` (draft-07, no evaluated-properties tracking) with less bookkeeping, the
 * same verdicts and issues:
 * - each branch's `var _validN = _errsM === errors;validK = validK || _validN;`: the flag is false
 *   where it is written (declared false before the first branch, every later branch inside
 *   `if(!validK)`), so `validK = _errsM === errors;`;
 * - a function that is one `anyOf` (its counter `_errs0` taken at 0, nothing after the keyword)
 *   ends, once a branch passed, with no issue left: `errors = null`, `true`, instead of truncating
 *   `vErrors` back to the counter it started from.
 * A function where either shape is not exactly as ajv writes it is left as it is.
 */
export function settleAnyOf(code: string): string {
  const starts = [...code.matchAll(/function (validate\d+)\(/g)];
  if (starts.length === 0) return code;
  const pieces = [code.slice(0, starts[0]!.index)];
  for (let i = 0; i < starts.length; i++) {
    const fn = code.slice(starts[i]!.index, starts[i + 1]?.index ?? code.length);
    pieces.push(settledAnyOf(fn, starts[i]![1]!) ?? fn);
  }
  return pieces.join("");
}

const ANYOF_BRANCH = /var (_valid\d+) = (_errs\d+) === errors;(valid\d+) = \3 \|\| \1;/g;

/** `fn` (a function of ajv's code, up to the next one) as settleAnyOf leaves it, or undefined when unchanged or unsure. */
function settledAnyOf(fn: string, self: string): string | undefined {
  const flags = new Set<string>();
  let out = outsideStrings(fn, (part) =>
    part.replace(ANYOF_BRANCH, (_m, flag: string, counter: string, valid: string) => {
      flags.add(flag);
      return `${valid} = ${counter} === errors;`;
    }),
  );
  const head = new RegExp(
    String.raw`^function ${self}\(data\)\{;?let vErrors = null;let errors = 0;(const _errs0 = errors;)let valid0 = false;`,
  ).exec(out);
  const tail =
    `}else {errors = _errs0;if(vErrors !== null){if(_errs0){vErrors.length = _errs0;}else {vErrors = null;}}}` +
    `${self}.errors = vErrors;return errors === 0;}`;
  // The function's own last statements; what follows them is module code (ajv's wrappers).
  const at = out.indexOf(tail);
  const body = out.slice(0, at);
  if (
    head !== null &&
    at >= 0 &&
    out.indexOf(tail, at + 1) < 0 &&
    body.endsWith("return false;") &&
    (body + tail).split("_errs0").length === 5
  ) {
    const start = head[0].replace(head[1]!, "");
    out = `${start}${body.slice(head[0].length)}}${self}.errors = null;return true;}${out.slice(at + tail.length)}`;
  }
  if (out === fn) return undefined;
  // A flag read anywhere else keeps ajv's code.
  const blanked = out.replace(new RegExp(STRING, "g"), '""');
  for (const flag of flags) if (new RegExp(`(?<![\\w$.])${flag}(?![\\w$])`).test(blanked)) return undefined;
  return out;
}

/**
 * Lean code with ajv's two constant shapes around calls and counters written plainly:
 * - `const wrapperN = {validate: validateM};` (how ajv refers to a function of a recursive
 *   definition) gone, its uses (`wrapperN.validate`) the function itself, which a module's function
 *   declarations make available everywhere in it;
 * - `const _errsN = errors;if(errors === _errsN){`: a test of what was just assigned, a block.
 */
export function plainCalls(code: string): string {
  const wrappers = new Map(
    [...code.matchAll(/const (wrapper\d+) = \{validate: (validate\d+)\};/g)].map((m) => [m[1]!, m[2]!]),
  );
  return outsideStrings(code, (part) =>
    part
      .replace(/const (wrapper\d+) = \{validate: validate\d+\};/g, "")
      .replace(/(?<![\w$.])(wrapper\d+)\.validate(?![\w$])/g, (m, name: string) => wrappers.get(name) ?? m)
      .replace(/const (_errs\d+) = errors;if\(errors === \1\)\{/g, "const $1 = errors;{"),
  );
}

/** ajv's escaping of a property name into an instance path (`ESCAPED_KEY`), capturing the name. */
const ESCAPED_NAME = /([\w$]+)\.replace\(\/~\/g, "~0"\)\.replace\(\/\\\/\/g, "~1"\)/g;

/**
 * Lean code with a property name escaped into a JSON Pointer token as a call of the runtime
 * (`abi.pointerToken`) instead of ajv's two `replace`s, written at every map of the MCP schemas: on
 * the failure path only, so the call costs a valid message nothing.
 */
export function leanShapes(code: string, abi: string): string {
  // The pattern spells string literals ("~0"): matched on the whole text, which no literal of
  // ajv's can hold (a quote inside one is escaped).
  return code.replace(ESCAPED_NAME, (_m, name: string) => `${abi}.pointerToken(${name})`);
}
