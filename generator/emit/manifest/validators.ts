/**
 * Emits the validators of a server manifest's tool schemas:
 * - `tools.ajv.ts` (and `tools.2020.ajv.ts` for schemas using 2020-12-only keywords): ajv
 *   standalone code through the protocol validators' pipeline (ES module, only import
 *   the runtime's ABI entry (`runtimeImports.abi`)), stopping at the first failure;
 * - `tools.all-errors.ajv.ts` (and `tools.2020.all-errors.ajv.ts`): the same schemas compiled to
 *   find every failure (bounded by the runtime): the runtime's checks and their reports;
 * - `tools.defaults.ts` when some inputSchema has defaults a server fills in (default-appliers.ts);
 * - `validators.ts`: `validate<Tool>Input` / `validate<Tool>Output` typed as
 *   `Validator<GetForecastInput>` etc., `apply<Tool>InputDefaults`, `toolValidators` by MCP tool
 *   name and `allErrorsValidators()` (from `templates/facades/validators.ts.hbs`), for users' code;
 * - `tool-validators.ts`: what the definition hands the runtime, the all-errors validators by tool
 *   name and the checks made of them (`collectingValidators`), so that a program carries one compiled
 *   copy of the schemas: on a valid value the all-errors code does the same work.
 *
 * Tool schemas are the user's (or a pasted server's), not the protocol's: unknown keywords are
 * annotations, and `format` is an annotation (the 2020-12 default vocabulary). What
 * ajv could not compile never reaches it: unresolvable or external `$ref`s accept anything there
 * and invalid regular expressions are dropped, each with a warning (the loader already reported
 * the `$ref`s); schemas typed as fallbacks validate as `{"type": "object"}`.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv, type ErrorObject, type Options } from "ajv";
import type { EmittedFile, JSONSchema } from "../../model/ir.js";
import type { ServerModel, ToolModel } from "../../model/server-ir.js";
import {
  ANNOTATIONS as ANNOTATION_KEYWORDS,
  NEWER_ONLY,
  SUBSCHEMA,
  SUBSCHEMA_LIST,
  SUBSCHEMA_MAP,
} from "../../json-schema/keywords.js";
import { escapePointerToken } from "../../json-schema/pointer.js";
import { isPlainObject } from "../../json-schema/walk.js";
import { resolveLocalRef } from "../../json-schema/ref.js";
import { standaloneModule } from "../ajv-code.js";
import { jsDoc, type Problem } from "./schema-to-ts.js";
import { PRETTIER_DEFAULT_WIDTH } from "../../print/indent.js";
import { printString } from "../../print/print-data.js";
import { isIdentifierName } from "../../names/identifiers.js";
import { MANIFEST_TYPES_FILE } from "./types.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";
import { appliersModule, DEFAULTS_MODULE } from "./default-appliers.js";

const MANIFEST_VALIDATORS_FILE = "validators.ts";
const TOOL_VALIDATORS_FILE = "tool-validators.ts";
const MODULES = { "draft-07": "tools.ajv.ts", "2020-12": "tools.2020.ajv.ts" } as const;
const ALL_ERRORS_MODULES = {
  "draft-07": "tools.all-errors.ajv.ts",
  "2020-12": "tools.2020.all-errors.ajv.ts",
} as const;
type Engine = keyof typeof MODULES;

/** Exported for the tests that hold the emitted modules to in-memory ajv. */
export const OPTIONS: Options = {
  strict: false, // unknown keywords are annotations in user schemas
  validateFormats: false, // `format` is an annotation unless a schema opts into assertion
  validateSchema: false, // the loader checked the schemas and warned
  allowUnionTypes: true,
  ownProperties: true, // JSON data: "required: [\"toString\"]" must not be met by Object.prototype
  allErrors: false,
  messages: true,
  inlineRefs: false,
  // ajv's code optimiser halves in speed what it saves in size (~10%): tool schemas can be large
  // and many, and generation must stay fast (bench/manifest.ts)
  code: { optimize: false },
  // long enums and required lists as loops, not unrolled comparisons: smaller module
  loopEnum: 8,
  loopRequired: 8,
};

export interface ManifestValidatorsResult {
  files: EmittedFile[];
  problems: Problem[];
}

/** Keywords only 2020-12 defines: a schema using any of them needs ajv's (slower) 2020 engine. */
const ONLY_2020 = new Set(NEWER_ONLY);

/**
 * ajv's draft-07 engine validates everything draft-07 and 2020-12 share identically (ajv applies
 * `$ref` siblings in both) and several times faster, because it does not track evaluated
 * properties; only schemas using a 2020-12-only keyword need the 2020 engine.
 */
function engineOf(schema: JSONSchema): Engine {
  let only2020 = false;
  const visit = (s: unknown) => {
    if (only2020) return;
    if (Array.isArray(s)) s.forEach(visit);
    else if (isPlainObject(s)) {
      for (const key of Object.keys(s)) if (ONLY_2020.has(key)) only2020 = true;
      Object.values(s).forEach(visit);
    }
  };
  visit(schema);
  return only2020 ? "2020-12" : "draft-07";
}

const SCHEMA_MAPS = new Set(SUBSCHEMA_MAP);
const SCHEMA_LISTS = new Set(SUBSCHEMA_LIST);
const SCHEMA_ONE = new Set(SUBSCHEMA);
/** Annotations: no effect on validation (formats are not asserted), and ajv copies them into the module. */
const ANNOTATIONS = new Set([...ANNOTATION_KEYWORDS, "format"]);

function defineKey(out: { [key: string]: unknown }, key: string, value: unknown): void {
  // defineProperty: a "__proto__" key stays a property
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy for ajv: annotations and `x-` extensions dropped (smaller module), root `$schema`
 * dropped (the engine was chosen from it), dangling or external `$ref`s and invalid regular
 * expressions removed, OpenAPI `nullable` kept only next to `type` (ajv refuses it alone).
 */
function sanitise(schema: JSONSchema, pointer: string, problems: Problem[], engine: Engine): JSONSchema {
  const root = schema;
  const walk = (s: unknown, p: string): unknown => {
    if (!isPlainObject(s)) return s;
    if (engine === "2020-12" && Array.isArray(s.items)) {
      // draft-07 tuple form inside a schema that needs the 2020 engine: same meaning, 2020 spelling
      const { items, additionalItems, ...rest } = s;
      s = { ...rest, prefixItems: items, ...(additionalItems === undefined ? {} : { items: additionalItems }) };
    }
    const o = s as { [key: string]: unknown };
    const out: { [key: string]: unknown } = {};
    for (const key of Object.keys(o)) {
      const v = o[key];
      const at = `${p}/${escapePointerToken(key)}`;
      if (ANNOTATIONS.has(key) || key.startsWith("x-") || (p === pointer && key === "$schema")) continue;
      if (key === "nullable" && o.type === undefined) continue;
      if (key === "$ref" && typeof v === "string" && (!v.startsWith("#") || !resolveLocalRef(root, v))) continue;
      if (key === "pattern" && typeof v === "string" && !validRegExp(v)) {
        problems.push({
          severity: "warning",
          pointer: at,
          message: `invalid regular expression ${JSON.stringify(v)}; not checked`,
        });
        continue;
      }
      if (SCHEMA_MAPS.has(key) && isPlainObject(v)) {
        const map: { [key: string]: unknown } = {};
        for (const name of Object.keys(v)) {
          const sub = `${at}/${escapePointerToken(name)}`;
          if (key === "patternProperties" && !validRegExp(name)) {
            problems.push({
              severity: "warning",
              pointer: sub,
              message: `invalid regular expression ${JSON.stringify(name)}; its properties are not checked`,
            });
            continue;
          }
          defineKey(map, name, walk(v[name], sub));
        }
        defineKey(out, key, map);
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(v)) {
        defineKey(
          out,
          key,
          v.map((x, i) => walk(x, `${at}/${i}`)),
        );
      } else if (SCHEMA_ONE.has(key)) {
        defineKey(out, key, walk(v, at));
      } else {
        defineKey(out, key, v); // data (enum, const, required, type, ...): verbatim
      }
    }
    return out;
  };
  return walk(schema, pointer) as JSONSchema;
}

function validRegExp(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

interface Entry {
  tool: ToolModel;
  role: "Input" | "Output";
  exportName: string;
  engine: Engine;
  /** `$id` of the compiled schema (shared by tools whose schemas are identical). */
  id: string;
}

/** `applyGetForecastInputDefaults`: a tool's defaults applier (tools.defaults.ts, re-exported by validators.ts). */
function applierName(tool: ToolModel): string {
  return `apply${tool.inputType}Defaults`;
}

export interface ManifestValidatorsOptions {
  /** Width the facade's layout targets (it is a prettier fixpoint for this printWidth). */
  printWidth?: number;
}

export function emitManifestValidators(
  model: ServerModel,
  options: ManifestValidatorsOptions = {},
): ManifestValidatorsResult {
  const width = options.printWidth ?? PRETTIER_DEFAULT_WIDTH;
  const problems: Problem[] = [];
  const entries: Entry[] = [];
  const groups = new Map<
    Engine,
    {
      schemas: { id: string; schema: JSONSchema }[];
      exports: { name: string; id: string }[];
      aliases: { name: string; of: string }[];
    }
  >();
  const shared = new Map<string, { id: string; exportName: string }>();

  for (const tool of model.tools) {
    const roles: ["Input" | "Output", JSONSchema | null, boolean][] = [
      ["Input", tool.inputSchema, tool.inputFallback],
      ["Output", tool.outputSchema, tool.outputFallback],
    ];
    for (const [role, schema, fallback] of roles) {
      if (schema === null) continue;
      const pointer = `${tool.pointer}/${role === "Input" ? "inputSchema" : "outputSchema"}`;
      const engine = engineOf(schema);
      const usable: JSONSchema = fallback ? { type: "object" } : sanitise(schema, pointer, problems, engine);
      const exportName = `${tool.ids.member}${role}`; // suffixed, so never one of ajv's own names
      const group = groups.get(engine) ?? { schemas: [], exports: [], aliases: [] };
      groups.set(engine, group);
      // Tools with identical (sanitised) schemas share one compiled function: errors carry no
      // trace of the schema's $id, so every export reports exactly what it would alone.
      // (ajv's standalone code repeats a function for every export naming it, hence aliases.)
      const key = `${engine}\n${JSON.stringify(usable)}`;
      const first = shared.get(key);
      const id = first?.id ?? `mcpgen://tools/${encodeURIComponent(tool.name)}/${role.toLowerCase()}`;
      if (first === undefined) {
        shared.set(key, { id, exportName });
        group.schemas.push({ id, schema: usable });
        group.exports.push({ name: exportName, id });
      } else group.aliases.push({ name: exportName, of: first.exportName });
      entries.push({ tool, role, exportName, engine, id });
    }
  }

  const files: EmittedFile[] = [];
  const allErrorsFiles: EmittedFile[] = [];
  for (const engine of ["draft-07", "2020-12"] as const) {
    const group = groups.get(engine);
    if (!group) continue;
    const Engine = engine === "draft-07" ? Ajv : Ajv2020;
    let contents: string;
    try {
      contents = standaloneModule(group, { ajv: Engine, options: OPTIONS });
    } catch {
      // Something ajv refuses got through: find it schema by schema (only on this slow path),
      // validate it as a plain object instead, and say so.
      for (const item of group.schemas) {
        try {
          new Engine({ ...OPTIONS }).compile(
            typeof item.schema === "boolean" ? item.schema : { ...item.schema, $id: item.id },
          );
        } catch (error) {
          for (const entry of entries.filter((e) => e.id === item.id)) {
            problems.push({
              severity: "warning",
              pointer: `${entry.tool.pointer}/${entry.role === "Input" ? "inputSchema" : "outputSchema"}`,
              message: `ajv cannot compile this schema (${(error as Error).message.split("\n")[0]}); validated as {"type": "object"}`,
            });
          }
          item.schema = { type: "object" };
        }
      }
      contents = standaloneModule(group, { ajv: Engine, options: OPTIONS });
    }
    // compiled after the fast module, whose fallback replaced what ajv refuses
    let allErrors = standaloneModule(group, { ajv: Engine, options: { ...OPTIONS, allErrors: true } });
    for (const a of group.aliases) {
      contents += `export const ${a.name}: abi.Validator = ${a.of};\n`;
      allErrors += `export const ${a.name}: abi.Validator = ${a.of};\n`;
    }
    files.push({ path: MODULES[engine], contents });
    allErrorsFiles.push({ path: ALL_ERRORS_MODULES[engine], contents: allErrors });
  }
  files.push(...allErrorsFiles);
  const withDefaults = model.tools.filter((t) => t.inputDefaults !== null);
  if (withDefaults.length > 0) {
    const body = appliersModule(
      withDefaults.map((t) => ({
        exportName: applierName(t),
        defaults: t.inputDefaults!,
        type: `(input: T.${t.inputType}) => T.${t.handlerInputType}`,
      })),
    );
    files.push({
      path: DEFAULTS_MODULE,
      contents: [
        "// @ts-nocheck -- plain JavaScript, typed exports; validators.ts re-exports them.",
        `import type * as T from "./${MANIFEST_TYPES_FILE.replace(/\.ts$/, ".js")}";`,
        "",
        body,
        "",
      ].join("\n"),
    });
  }

  files.push(renderFile("manifest", MANIFEST_VALIDATORS_FILE, manifestValidatorsView(model, width)));
  files.push(renderFile("manifest", TOOL_VALIDATORS_FILE, toolValidatorsView(model, width)));
  return { files, problems };
}

/**
 * `validators.ts` (templates/facades/validators.ts.hbs), laid out as prettier would at `width`: it
 * skips the print stage's prettier pass, like the other files that grow with the manifest.
 */
export function manifestValidatorsView(model: ServerModel, width: number = PRETTIER_DEFAULT_WIDTH) {
  // the exports of the ajv modules, as emitManifestValidators names them
  const entries = model.tools.flatMap((tool) =>
    (
      [
        ["Input", tool.inputSchema],
        ["Output", tool.outputSchema],
      ] as const
    ).flatMap(([role, schema]) =>
      schema === null ? [] : [{ tool, role, exportName: `${tool.ids.member}${role}`, engine: engineOf(schema) }],
    ),
  );
  const modules = (["draft-07", "2020-12"] as const)
    .filter((e) => entries.some((x) => x.engine === e))
    .map((e) => ({
      name: e === "draft-07" ? "tools" : "tools2020",
      file: MODULES[e].replace(/\.ts$/, ".js"),
      all: e === "draft-07" ? "all" : "all2020",
      allFile: ALL_ERRORS_MODULES[e].replace(/\.ts$/, ".js"),
    }));
  const validators = entries.map((e) => {
    const type = e.role === "Input" ? e.tool.inputType : e.tool.outputType!;
    const module = e.engine === "draft-07" ? "tools" : "tools2020";
    // prettier breaks after "=" when the line is too long
    const fits =
      `export const validate${type} =`.length + 1 + `${module}.${e.exportName} as Validator<T.${type}>;`.length <=
      width;
    return {
      doc: jsDoc([
        `Validates the ${e.role === "Input" ? "arguments" : "structured result"} of tool ${JSON.stringify(e.tool.name)}.`,
      ]).trimEnd(),
      type,
      module,
      exportName: e.exportName,
      fits,
    };
  });
  // the all-errors modules export the same names; never on the success path: the runtime imports them once a tool's value failed
  const allOf = (e: (typeof entries)[number] | undefined) =>
    e === undefined ? "null" : `${e.engine === "draft-07" ? "all" : "all2020"}.${e.exportName}`;
  const tools = model.tools.map((tool) => ({
    key: isIdentifierName(tool.name) ? tool.name : printString(tool.name),
    inputType: tool.inputType,
    output: tool.outputType ? `validate${tool.outputType}` : "null",
    defaults: tool.inputDefaults !== null ? applierName(tool) : null,
    allInput: allOf(entries.find((e) => e.tool === tool && e.role === "Input")),
    allOutput: allOf(entries.find((e) => e.tool === tool && e.role === "Output")),
  }));
  const withDefaults = model.tools.some((t) => t.inputDefaults !== null);
  return {
    abi: runtimeImports.abi,
    types: MANIFEST_TYPES_FILE.replace(/\.ts$/, ".js"),
    defaults: withDefaults ? DEFAULTS_MODULE.replace(/\.ts$/, ".js") : null,
    modules,
    validators,
    tools,
    noTools: model.tools.length === 0,
    staticImports: model.staticImports === true,
  };
}

/**
 * `tool-validators.ts` (templates/facades/tool-validators.ts.hbs), laid out as prettier would at
 * `width`, like validators.ts: the all-errors validators by tool name, and the runtime's checks made
 * of them.
 */
export function toolValidatorsView(model: ServerModel, width: number = PRETTIER_DEFAULT_WIDTH) {
  const view = manifestValidatorsView(model, width);
  const abi = runtimeImports.abiAllErrors;
  return {
    abi,
    importFits: `import { collectingValidators, type Validator } from "${abi}";`.length <= width,
    checksFit:
      "export const toolValidators: typeof allErrorsValidators = collectingValidators(allErrorsValidators);".length <=
      width,
    defaults: view.defaults,
    modules: view.modules,
    tools: view.tools,
    noTools: view.noTools,
  };
}

/**
 * One tool schema compiled in process, with the engine choice and sanitising of the generated
 * validators, so `mcpgen verify` and the manifest's example checks accept exactly what the
 * generated server and client accept.
 */
export function compileToolSchema(
  schema: JSONSchema,
  pointer: string,
): { validate: (data: unknown) => boolean; errors: () => string; problems: Problem[] } {
  const problems: Problem[] = [];
  const engine = engineOf(schema);
  const usable = sanitise(schema, pointer, problems, engine);
  const Engine = engine === "draft-07" ? Ajv : Ajv2020;
  let fn: ReturnType<Ajv["compile"]>;
  try {
    fn = new Engine({ ...OPTIONS, allErrors: true }).compile(usable);
  } catch (error) {
    problems.push({
      severity: "warning",
      pointer,
      message: `ajv cannot compile this schema (${(error as Error).message.split("\n")[0]}); validated as {"type": "object"}`,
    });
    fn = new Ajv({ ...OPTIONS }).compile({ type: "object" });
  }
  return {
    validate: (data) => fn(data) as boolean,
    errors: () => (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`).join("; "),
    problems,
  };
}

/**
 * One tool schema prepared like compileToolSchema, validating against the subschema at a JSON
 * pointer below it (`/properties/days`), with `$ref`s resolved against the whole schema;
 * undefined where ajv cannot reach or compile it (a subschema sanitising removed or moved).
 */
export function toolSubschemas(
  schema: JSONSchema,
  pointer: string,
): (at: string) => { validate: (data: unknown) => boolean; errors: () => string } | undefined {
  const engine = engineOf(schema);
  const usable = sanitise(schema, pointer, [], engine);
  if (!isPlainObject(usable)) return () => undefined;
  const Engine = engine === "draft-07" ? Ajv : Ajv2020;
  const ajv = new Engine({ ...OPTIONS, allErrors: true });
  const id = "mcpgen://tool-schema";
  try {
    ajv.addSchema({ ...usable, $id: id });
  } catch {
    return () => undefined;
  }
  return (at) => {
    let fn: ReturnType<Ajv["compile"]> | undefined;
    try {
      fn = ajv.getSchema(`${id}#${at.split("/").map(encodeURIComponent).join("/")}`);
    } catch {
      return undefined;
    }
    if (!fn) return undefined;
    const compiled = fn;
    return {
      validate: (data) => compiled(data) as boolean,
      errors: () => (compiled.errors ?? []).map(expectation).join("; "),
    };
  };
}

/** An ajv error as what was expected, listing the values of an `enum` or `const`. */
function expectation(e: ErrorObject): string {
  const where = e.instancePath ? `${e.instancePath} ` : "";
  const p = e.params as { allowedValues?: unknown[]; allowedValue?: unknown };
  if (e.keyword === "enum" && Array.isArray(p.allowedValues))
    return `${where}must be one of ${p.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  if (e.keyword === "const") return `${where}must be ${JSON.stringify(p.allowedValue)}`;
  return `${where}${e.message ?? e.keyword}`;
}
