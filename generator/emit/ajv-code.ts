/**
 * Runs ajv's standalone code generation and turns its output into an ES module whose only import
 * is the runtime's ABI entry (`runtimeImports.abi`): ajv writes `require("ajv/dist/runtime/...")`
 * for its helpers even in ESM mode, and generated code must not depend on ajv at run time.
 */
import { Ajv, Name, _, type Options } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import type { JSONSchema } from "../model/ir.js";
import { runtimeImports } from "./runtime-imports.js";
import { ALL_ERRORS_SITE, ERROR_SITE, JOINED, outsideStrings, STRING } from "./ajv-text.js";
import {
  DIRECT_MARK,
  issueArguments,
  leanErrors,
  leanShapes,
  plainCalls,
  settleAnyOf,
  settleErrors,
} from "./ajv-lean.js";

/** The `format`s the MCP schemas use; the runtime's ABI entry (`runtimeImports.abi`) exports a check for each (`formats`). */
export const FORMAT_NAMES = ["byte", "uri", "uri-template"] as const;

/**
 * The ABI's export of each format's check, which emitted code calls instead of `formats.<name>`: a
 * bundle then carries the patterns of the formats its validators use, not all of them.
 */
export const FORMAT_EXPORTS: Readonly<Record<(typeof FORMAT_NAMES)[number], string>> = {
  byte: "formatByte",
  uri: "formatUri",
  "uri-template": "formatUriTemplate",
};

/** Local name of the runtime ABI namespace inside the emitted module. */
const ABI = "abi";

/** `abi.formats.uri`, `abi.formats["uri-template"]` as ajv writes them, to the ABI's export of that check. */
function formatExports(code: string): string {
  const out = code.replace(
    new RegExp(String.raw`\b${ABI}\.formats(?:\.([\w$]+)|\[("(?:[^"\\]|\\.)*")\])`, "g"),
    (site, dotted: string | undefined, quoted: string | undefined) => {
      const name = dotted ?? (JSON.parse(quoted!) as string);
      const check = (FORMAT_EXPORTS as Record<string, string>)[name];
      if (check === undefined) throw new Error(`ajv's standalone code calls ${site}, which has no check in the ABI`);
      return `${ABI}.${check}`;
    },
  );
  if (out.includes(`${ABI}.formats`))
    throw new Error(`ajv's standalone code names ${ABI}.formats in a way formatExports does not recognise`);
  return out;
}

/** ajv helpers that standalone code pulls in with `require`, and their the runtime's ABI entry (`runtimeImports.abi`) equivalents. */
const HELPERS: ReadonlyArray<readonly [string, string]> = [
  ['require("ajv/dist/runtime/equal").default', `${ABI}.equal`],
  ['require("ajv/dist/runtime/ucs2length").default', `${ABI}.ucs2length`],
];

/**
 * ajv options of the emitted validators; the tests build their in-memory engines (draft-07 `Ajv`
 * and `Ajv2020`) from the same options so that differences can only come from the engine.
 */
export function validatorOptions(): Options {
  return {
    // Unknown keywords, formats or ignored schema parts fail generation instead of silently
    // validating less than the schema says.
    strict: true,
    // A required property the schema does not describe is legal JSON Schema and validates
    // correctly; a new revision must not fail generation over it.
    strictRequired: false,
    // MCP uses `type: ["string", "integer"]` (RequestId, ProgressToken) on purpose.
    allowUnionTypes: true,
    // First failure only: the hot path is valid messages, and one error suffices for -32602.
    allErrors: false,
    messages: true,
    // Every `$ref` calls the referenced definition's function instead of copying its code into
    // each user; this keeps the module small enough to format and load quickly.
    inlineRefs: false,
    // Formats are checked at run time by the runtime's functions; at generation time ajv only needs
    // their names, so these placeholders never run in emitted code.
    formats: Object.fromEntries(FORMAT_NAMES.map((name) => [name, (_value: string) => true])),
  };
}

export interface StandaloneInput {
  /** Schemas to register, each with a unique `$id`. */
  schemas: ReadonlyArray<{ id: string; schema: JSONSchema }>;
  /** Export name -> `$id` (or `$id#pointer`) of the schema it validates; several names may share one. */
  exports: ReadonlyArray<{ name: string; id: string }>;
}

/** Index just past the JSON object literal starting at `start` (ajv writes schema values as JSON). */
function endOfJsonObject(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error("unterminated schema literal in ajv's standalone code");
}

/**
 * ajv declares the schema of every compiled function as a constant even when the code only
 * needs it for `enum` error parameters (or not at all); the unused ones are most of them, and pure
 * weight for the formatter and the module loader.
 */
function dropUnusedSchemas(code: string): string {
  const declaration = /const (schema\d+) = \{/g;
  const removals: Array<[number, number]> = [];
  for (let m = declaration.exec(code); m !== null; m = declaration.exec(code)) {
    const end = endOfJsonObject(code, m.index + m[0].length - 1);
    if (code[end] !== ";") throw new Error(`unexpected code after ${m[1]} in ajv's standalone code`);
    const uses = code.match(new RegExp(`\\b${m[1]}\\b`, "g"))!.length;
    if (uses === 1) removals.push([m.index, end + 1]);
    declaration.lastIndex = end;
  }
  let out = "";
  let from = 0;
  for (const [start, end] of removals) {
    out += code.slice(from, start);
    from = end;
  }
  return out + code.slice(from);
}

/**
 * A schema constant that lean code reads only for error params, always at one place
 * (`{type: schema7.anyOf[1].type}`, `{allowedValues: schema3.enum}`), becomes the value read: the
 * constant held the whole schema (`$ref`s and all) for a list of a few strings. The params are the
 * same object as before, shared by every failure as ajv shares it.
 */
function narrowErrorParams(code: string): string {
  const declaration = /const (schema\d+) = \{/g;
  let out = code;
  for (let m = declaration.exec(code); m !== null; m = declaration.exec(code)) {
    const name = m[1]!;
    const open = m.index + m[0].length - 1;
    const end = endOfJsonObject(code, open);
    declaration.lastIndex = end;
    const read = new RegExp(String.raw`(\{(?:type|allowedValues): )${name}((?:\.[A-Za-z_$][\w$]*|\[\d+\])*)\}`, "g");
    const paths = new Set([...out.matchAll(read)].map((r) => r[2]!));
    const uses = out.match(new RegExp(String.raw`\b${name}\b`, "g"))!.length - 1;
    if (paths.size !== 1 || [...out.matchAll(read)].length !== uses) continue;
    const value = at(JSON.parse(code.slice(open, end)) as unknown, [...paths][0]!);
    out = out
      .replace(read, (_m, head: string) => `${head}${name}}`)
      .replace(code.slice(m.index, end + 1), () => `const ${name} = ${JSON.stringify(value)};`);
  }
  return out;
}

/** The value at a property path as ajv writes it (`.anyOf[1].type`). */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const [, key, index] of path.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]/g)) {
    v = (v as Record<string, unknown>)[key ?? index!];
    if (v === undefined) throw new Error(`ajv's standalone code reads a schema where it has nothing: ${path}`);
  }
  return v;
}

/**
 * Statements ajv leaves empty: `if(errors === _errs3){}`, `if(valid1){}`, `else {}` (conditions
 * that only read a local), then `const _errs4 = errors;` declarations nothing reads any more.
 * Removing them changes no result and no error, and takes 5–10% off a tool module.
 */
export function dropDeadCode(code: string): string {
  // an empty `if` followed by `else` stays (the `else` needs it); a later round may empty the `else`
  const empty = /if\((?:errors === (?:_errs\d+|0)|_errs\d+ === errors|_?valid\d+)\)\{\}(?!\s*else\b)|else \{\}/g;
  let out = code;
  for (let before = ""; before !== out;) {
    before = out;
    out = outsideStrings(out, (part) => part.replace(empty, ""));
  }
  // ajv numbers `_errsN` per function: count uses within each top-level function (string
  // contents included, which can only keep a declaration).
  const starts = [...out.matchAll(/(?:^|[;}\n])function validate\d+\(/g)].map((m) => m.index);
  if (starts.length === 0) return out;
  const pieces = [out.slice(0, starts[0])];
  for (let i = 0; i < starts.length; i++) {
    const fn = out.slice(starts[i], starts[i + 1] ?? out.length);
    const uses = new Map<string, number>();
    for (const m of fn.matchAll(/\b_errs\d+\b/g)) uses.set(m[0], (uses.get(m[0]) ?? 0) + 1);
    pieces.push(
      outsideStrings(fn, (part) =>
        part.replace(/const (_errs\d+) = errors;/g, (decl, name: string) => (uses.get(name) === 1 ? "" : decl)),
      ),
    );
  }
  return pieces.join("");
}

/** Local helper of the emitted module that the compacted error sites call. */
const FAIL = "fail";
const FAIL_HELPER =
  `function ${FAIL}(validate, instancePath, schemaPath, keyword, params, message) {` +
  `validate.errors = [{instancePath, schemaPath, keyword, params, message}];return false;}`;

/**
 * Whether the code names `name` as a variable: string literals (a schema's `enum: ["fail"]`) and
 * property accesses (`data.fail`, a property called "fail") are no clash.
 */
function usesName(code: string, name: string): boolean {
  const word = new RegExp(String.raw`(?<![.\w$])${name}(?![\w$])`);
  let found = false;
  outsideStrings(code, (part) => {
    found ||= word.test(part);
    return part;
  });
  return found;
}

/**
 * ajv spells out every error object literal at every site; calling one local helper instead
 * produces the same object, and the module gets much cheaper to format (prettier breaks each
 * literal over eight lines) and to parse.
 */
function compactErrors(code: string): string {
  if (usesName(code, FAIL)) throw new Error(`ajv's standalone code already uses the name "${FAIL}"`);
  let sites = 0;
  const out = code.replace(
    ERROR_SITE,
    (
      _m,
      fn: string,
      path: string | undefined,
      schemaPath: string,
      keyword: string,
      params: string,
      message: string,
    ) => {
      sites++;
      return `return ${FAIL}(${fn},${path ?? "instancePath"},${schemaPath},${keyword},${params},${message});`;
    },
  );
  return sites === 0 ? out : `${FAIL_HELPER}\n${out}`;
}

/** ajv's parameter list of every compiled function: the instance path and three values nothing here reads. */
const OPTIONS_PARAMS = '{instancePath="", parentData, parentDataProperty, rootData=data}={}';
/** A property name in an instance path, as ajv escapes it (JSON Pointer `~0`, `~1`). */
const ESCAPED_KEY = String.raw`[\w$]+\.replace\(/~/g, "~0"\)\.replace\(/\\//g, "~1"\)`;
/** ajv's second argument at a call of another compiled function (`instancePath` alone: the same location). */
const OPTIONS_ARGUMENT = new RegExp(
  String.raw`\{instancePath(?::(${JOINED("instancePath", String.raw`${STRING}|${ESCAPED_KEY}|[\w$]+`)}))?,parentData(?::[\w$]+)?,` +
    String.raw`parentDataProperty(?::(?:${STRING}|[\w$]+))?,rootData\}`,
  "g",
);

/**
 * ajv passes each compiled function an options object (`{instancePath, parentData,
 * parentDataProperty, rootData}`) and destructures it with defaults; only the instance path is
 * ever read (for error paths) unless the schema uses `$data` or dynamic references. Every `$ref`
 * call then allocates that object (on the in-process bench's `tools/call`, about 0.45 kB per call:
 * nearly all it allocated beyond the raw pair); the instance path as a plain second parameter
 * gives the same results and the same errors with no object. A module whose code reads any of the other three values (or
 * passes `dynamicAnchors`) is left as ajv wrote it: all or none of its functions change, so
 * every call matches its callee.
 */
export function positionalPaths(code: string): string {
  if (!code.includes(OPTIONS_PARAMS)) return code;
  const out = code
    .split(OPTIONS_PARAMS)
    .join('instancePath=""')
    .replace(OPTIONS_ARGUMENT, (_m, path: string | undefined) => path ?? "instancePath");
  let leftover = false;
  outsideStrings(out, (part) => {
    if (/\b(?:parentData|parentDataProperty|rootData|dynamicAnchors)\b/.test(part)) leftover = true;
    return part;
  });
  return leftover ? code : out;
}

/**
 * compactErrors for all-errors code: each site appends through the runtime's `abi.issue`
 * (runtime/src/issue-sites.ts), the same error objects; the message is left out wherever the
 * runtime rebuilds it as ajv wrote it (the instance path is the caller's, so the schema path stays).
 */
function compactAllErrors(code: string): string {
  return code.replace(
    ALL_ERRORS_SITE,
    (
      _m,
      _err: string,
      path: string | undefined,
      schemaPath: string,
      keyword: string,
      params: string,
      message: string,
    ) =>
      `vErrors = ${ABI}.issue(vErrors,${issueArguments(path ?? "instancePath", schemaPath, keyword, params, message)});`,
  );
}

/**
 * ajv's `allErrors` code collects every failure, as many as the value has: a hostile value of a few
 * megabytes would make millions of error objects. Wherever it counts one (`errors++`, and after
 * taking a called function's failures) the emitted code asks `abi.counted`, which throws with what
 * was collected past the runtime's MAX_COLLECTED_ISSUES; nothing else changes.
 */
export function boundedErrors(code: string): string {
  let sites = 0;
  const out = outsideStrings(code, (part) =>
    part.replace(/\berrors\+\+;|\berrors = vErrors\.length;/g, (site) => {
      sites++;
      return site === "errors++;"
        ? `errors = ${ABI}.counted(errors + 1, vErrors);`
        : `errors = ${ABI}.counted(vErrors.length, vErrors);`;
    }),
  );
  if (sites === 0 && code.includes("vErrors.push("))
    throw new Error("ajv's allErrors code counts its errors in a way boundedErrors does not recognise");
  return out;
}

/**
 * Has ajv write DIRECT_MARK before each call of another compiled function wherever ajv returns at
 * a failure (`return false` after one error): neither `allErrors` nor inside a composite keyword
 * (anyOf, oneOf, not, if, contains), ajv's own condition (lib/compile/errors.ts `reportError`).
 * The text alone does not tell these calls from those of an `anyOf` branch.
 */
function markDirectCalls(ajv: Parameters<typeof standalone.default>[0]): void {
  if (DIRECT_MARK !== "/*@direct*/") throw new Error("DIRECT_MARK differs from the mark written here");
  const rule = ajv.RULES.all.$ref;
  if (typeof rule !== "object" || !("code" in rule.definition) || rule.definition.code === undefined) {
    throw new Error("ajv has no $ref keyword code to mark direct calls in");
  }
  const definition = rule.definition;
  const code = definition.code;
  rule.definition = {
    ...definition,
    code(cxt, ruleType) {
      const { it } = cxt;
      if (!it.allErrors && !it.compositeRule && it.createErrors !== false) cxt.gen.code(_`/*@direct*/`);
      code.call(definition, cxt, ruleType);
    },
  };
}

/**
 * Which ajv engine compiles the module and with which options (default: the protocol
 * validators' draft-07 engine and `validatorOptions()`). Server manifests use it for tool schemas,
 * which are 2020-12 by default and may carry any keyword or format.
 */
export interface StandaloneEngine {
  ajv?: new (options: Options) => Parameters<typeof standalone.default>[0];
  options?: Options;
  /**
   * Lean error handling (ajv-lean.ts): failures through the runtime's issue helpers, instance paths
   * built only on failure. `allErrors: false` only; the protocol validators use it.
   */
  lean?: boolean;
}

/** Local name of the runtime ABI namespace and of the error helper in `standaloneCode`'s output. */
export const STANDALONE_NAMES = { abi: ABI, helper: FAIL } as const;

/** Body of the ajv module (no banner): plain JS, with `abi.Validator`-typed named exports. */
export function standaloneModule(input: StandaloneInput, engine: StandaloneEngine = {}): string {
  const code = standaloneCode(input, engine);
  const usesHelpers =
    Object.values(FORMAT_EXPORTS).some((name) => code.includes(`${ABI}.${name}`)) ||
    code.includes(`${ABI}.counted`) ||
    HELPERS.some(([, r]) => code.includes(r));
  const importLine = `import ${usesHelpers ? "" : "type "}* as ${ABI} from "${abiEntry(code, engine)}";`;
  return [
    "// @ts-nocheck -- ajv standalone code, plain JavaScript; validators.ts gives it precise types.",
    importLine,
    "",
    code.trim(),
    "",
  ].join("\n");
}

/** What allErrors code may call through `@mcpgen/runtime/abi/v<N>/all-errors` (runtime abi/v8-all-errors.ts). */
const ALL_ERRORS_ABI = new Set([
  "Validator",
  "counted",
  "issue",
  ...Object.values(FORMAT_EXPORTS),
  "equal",
  "ucs2length",
]);

/**
 * The runtime entry a module's code imports as `abi`: all-errors code, loaded only by a dynamic
 * import, takes the small all-errors entry so that a bundle wraps only that in lazy-init glue.
 */
function abiEntry(code: string, engine: StandaloneEngine): string {
  if ((engine.options ?? validatorOptions()).allErrors !== true) return runtimeImports.abi;
  for (const [, name] of code.matchAll(new RegExp(`\\b${ABI}\\.(\\w+)`, "g"))) {
    if (!ALL_ERRORS_ABI.has(name!))
      throw new Error(`allErrors code calls ${ABI}.${name}, which ${runtimeImports.abiAllErrors} lacks`);
  }
  return runtimeImports.abiAllErrors;
}

/**
 * ajv's standalone code for `input`, cleaned (no `require`, unused schema constants and dead
 * code dropped, error sites compacted through one helper), each export typed `abi.Validator`;
 * without imports: it refers to the runtime ABI as `abi`.
 */
export function standaloneCode(input: StandaloneInput, engine: StandaloneEngine = {}): string {
  const Engine = engine.ajv ?? Ajv;
  const options = engine.options ?? validatorOptions();
  const ajv = new Engine({
    ...options,
    code: { ...options.code, source: true, esm: true, formats: _`${new Name(ABI)}.formats` },
  });
  const lean = engine.lean === true;
  if (lean) {
    if (options.allErrors === true) throw new Error("lean validators stop at the first failure (allErrors: false)");
    markDirectCalls(ajv);
  }
  for (const { id, schema } of input.schemas) {
    ajv.addSchema(typeof schema === "boolean" ? schema : { ...schema, $id: id }, id);
  }
  const refs: Record<string, string> = {};
  for (const { name, id } of input.exports) refs[name] = id;
  let code = standalone.default(ajv, refs);

  code = code.replace(/^"use strict";/, "");
  for (const [snippet, replacement] of HELPERS) code = code.split(snippet).join(replacement);
  const leftover = /require\([^)]*\)/.exec(code);
  if (leftover) {
    throw new Error(
      `ajv emitted ${leftover[0]}, which has no ${runtimeImports.abi} equivalent; add one before generating`,
    );
  }

  // ajv opens each function with `/*# sourceURL="<schema $id>" */`, which only names the function
  // for a debugger evaluating the code as a string; in a module it is dead text, and it would keep
  // two identical validators of different schemas apart (emit/protocol/validators/share.ts).
  code = code.replace(/\/\*# sourceURL="[^"\n]*" \*\//g, "");
  code = dropUnusedSchemas(code);
  code = formatExports(code);
  if (lean) {
    code = narrowErrorParams(code);
    const positional = positionalPaths(code);
    if (positional === code)
      throw new Error("lean validators need positional instance paths (no $data, no dynamic refs)");
    code = leanShapes(plainCalls(dropDeadCode(settleAnyOf(settleErrors(leanErrors(positional, ABI))))), ABI);
  } else {
    code = compactErrors(code);
    code = dropDeadCode(code);
    code = positionalPaths(code);
    if (options.allErrors === true) code = boundedErrors(compactAllErrors(code));
  }

  // Type each export as the ABI's Validator so that the facade only has to narrow it.
  let typed = 0;
  code = code.replace(/export const ([A-Za-z_$][\w$]*) = (validate\d+);/g, (_m, name: string, fn: string) => {
    typed++;
    return `export const ${name}: ${ABI}.Validator = ${fn};`;
  });
  if (typed !== input.exports.length) {
    throw new Error(`expected ${input.exports.length} exports in ajv's standalone code, found ${typed}`);
  }

  if (new RegExp(`\\b(?:const|let|var|function)\\s+${ABI}\\b`).test(code)) {
    throw new Error(`ajv's standalone code declares "${ABI}", the name the runtime ABI is imported under`);
  }
  return code;
}
