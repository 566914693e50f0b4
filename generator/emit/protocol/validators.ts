/**
 * Emits the validators of one protocol revision:
 * - `validators/*.ts`: ajv standalone code (draft-07 engine), one function per definition, every
 *   `$ref` a call to the shared function; plain JavaScript under `// @ts-nocheck`, split into one
 *   module per method validator plus shared-definition modules (validators/split.ts) so that a
 *   connection loads only the methods it sees.
 * - `loaders.ts`: per method, the import thunk of its validator module (what the runtime loads),
 *   and per role the same for what that role receives (`server-side.ts`, `client-side.ts`).
 * - `validators.ts`: the typed, type-checked surface: `validate<Definition>` as
 *   `Validator<Definition>` for every definition, `paramsValidators` and `resultValidators` per
 *   method, and `validateJSONRPCMessage`.
 * The last three are rendered from `templates/protocol/` (generator/emit/files.ts); this computes
 * their views.
 *
 * Both dialects go through ajv's draft-07 engine: it is several times faster than `Ajv2020` on
 * the anyOf-heavy MCP definitions because it does not track evaluated properties, and the
 * normaliser refuses every keyword whose meaning would differ (test/corpus proves both engines
 * agree on the spec's examples).
 */
import { posix } from "node:path";
import { McpgenError } from "../../errors.js";
import type { EmittedFile, JSONSchema, MethodDef, ProtocolModel } from "../../model/ir.js";
import { STANDALONE_NAMES, standaloneCode } from "../ajv-code.js";
import { renderFile } from "../files.js";
import {
  runtimeImports,
  SERVER_LOAD,
  SERVER_SIDE_TABLE,
  serverLoaderName,
  serverSideFile,
} from "../runtime-imports.js";
import { methodInfo } from "./methods.js";
import type { ViewModel } from "../../templates.js";
import { shareStandalone, type SharedRevision } from "./validators/share.js";
import { SHARED_FOLDER } from "../../paths.js";
import { splitStandalone, type SplitModule } from "./validators/split.js";
import {
  DEF_ID_PREFIX,
  inlineLeafRefs,
  mapRefs,
  normaliseSchema,
  SchemaNormaliseError,
} from "./validators/normalise.js";
import { escapePointerToken, resolvePointer } from "../../json-schema/pointer.js";
import { isPlainObject } from "../../json-schema/walk.js";

/** `$id` prefix of the synthesised params schemas of methods whose params are inline. */
const PARAMS_ID_PREFIX = "mcpgen://params/";
/** `$id` prefix of the synthesised result schemas (2026-07-28 result unions such as `InputRequiredResult | CallToolResult`). */
const RESULT_ID_PREFIX = "mcpgen://result/";
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Module-level names in ajv's standalone code (and the ABI namespace), which exports must not shadow. */
const RESERVED = /^(?:(?:validate|schema|func|formats|pattern|wrapper|root)\d+|abi)$/;
/** The JSON-RPC message definitions (JSONRPCMessage and its members). */
const ENVELOPE = /^JSONRPC/;

const VALIDATORS_FILE = "validators.ts";
/** Folder of the ajv modules (one per method validator, plus shared definitions). */
const AJV_DIR = "validators";
/** The per-method import thunks the runtime loads validators through. */
const LOADERS_FILE = "loaders.ts";
/**
 * Per role, the revision's method table with the loaders of what that role receives
 * (`@mcpgen/runtime/protocol/<rev>/server-side`, `/client-side`): a bundle that imports the
 * server's never reaches a validator only a client uses.
 */
export const ROLE_FILES = { server: "server-side.ts", client: "client-side.ts" } as const;
export type Role = keyof typeof ROLE_FILES;

/**
 * Whether a `role` endpoint receives (and so validates) `method`'s params / its result: the
 * params of what the peer sends, the results of what it sends itself.
 */
function receives(role: Role, method: Pick<MethodDef, "from">, what: "params" | "results"): boolean {
  const peer = role === "server" ? "client" : "server";
  return method.from === "both" || method.from === (what === "params" ? peer : role);
}

/** An input the validators cannot be generated from, named by file and JSON pointer. */
function inputError(model: ProtocolModel, message: string, pointer?: string): McpgenError {
  return new McpgenError(
    message,
    pointer === undefined ? { file: model.source.display } : { file: model.source.display, pointer },
  );
}

/** Name of the ajv module's export validating the params of a method with inline params. */
function paramsExportName(method: string): string {
  return `params$${method.replace(/[^A-Za-z0-9_]/g, "$")}`;
}

/** Name of the ajv module's export validating a result that is not a plain definition. */
function resultExportName(method: string): string {
  return `result$${method.replace(/[^A-Za-z0-9_]/g, "$")}`;
}

/** The definition a schema is nothing but a reference to, if any. */
function bareRefTarget(schema: JSONSchema): string | null {
  if (!isPlainObject(schema)) return null;
  const keys = Object.keys(schema);
  const ref = schema.$ref;
  if (keys.length !== 1 || typeof ref !== "string" || !ref.startsWith(DEF_ID_PREFIX) || ref.includes("#")) return null;
  return ref.slice(DEF_ID_PREFIX.length);
}

interface Plan {
  /** Definition name -> name of the definition whose compiled function validates it. */
  target: Map<string, string>;
  /** Normalised schemas that get compiled, by definition name. */
  compiled: Map<string, JSONSchema>;
  /** Synthesised params schemas, by method. */
  params: Map<string, JSONSchema>;
  /** Method -> definition name validating its params (when the params are a named type). */
  paramsByDef: Map<string, string>;
  /** Synthesised result schemas, by request method. */
  results: Map<string, JSONSchema>;
  /** Request method -> definition name validating its result (when the result is a named type). */
  resultsByDef: Map<string, string>;
}

function plan(model: ProtocolModel): Plan {
  const { dialect, defsKey, document } = model;
  const normalised = new Map<string, JSONSchema>();
  for (const type of model.types) {
    if (!IDENTIFIER.test(type.name) || RESERVED.test(type.name)) {
      throw inputError(
        model,
        `definition name "${type.name}" is not usable as an identifier`,
        `/${defsKey}/${escapePointerToken(type.name)}`,
      );
    }
    normalised.set(
      type.name,
      normaliseSchema(type.schema, `/${defsKey}/${escapePointerToken(type.name)}`, dialect, defsKey),
    );
  }
  for (const [name, schema] of normalised) {
    const target = bareRefTarget(schema);
    if (target !== null && !normalised.has(target)) {
      throw inputError(
        model,
        `refers to the unknown definition "${target}"`,
        `/${defsKey}/${escapePointerToken(name)}`,
      );
    }
  }

  // A definition that only references another, or whose body equals an earlier one, reuses that
  // function: same checks, less code.
  const target = new Map<string, string>();
  const firstByBody = new Map<string, string>();
  const resolveAlias = (name: string, seen: Set<string>): string => {
    const next = bareRefTarget(normalised.get(name)!);
    if (next === null || seen.has(next)) return name;
    seen.add(name);
    return resolveAlias(next, seen);
  };
  for (const name of normalised.keys()) {
    const via = resolveAlias(name, new Set());
    const body = JSON.stringify(normalised.get(via));
    const first = firstByBody.get(body);
    if (first === undefined) firstByBody.set(body, via);
    target.set(name, first ?? via);
  }
  // References follow the aliases. A pointer into an alias stays valid in its target only when
  // the bodies are equal, not when the alias is a bare `$ref`.
  const redirect = (ref: string): string => {
    const hash = ref.indexOf("#");
    const name = ref.slice(DEF_ID_PREFIX.length, hash < 0 ? undefined : hash);
    const to = target.get(name);
    if (to === undefined || to === name) return ref;
    if (hash >= 0 && bareRefTarget(normalised.get(name)!) !== null) {
      throw inputError(
        model,
        `$ref "${ref}" points into a definition that is only a reference to ${to}`,
        `/${defsKey}/${name}`,
      );
    }
    return DEF_ID_PREFIX + to + (hash < 0 ? "" : ref.slice(hash));
  };
  const compiled = new Map<string, JSONSchema>();
  for (const name of new Set(target.values())) compiled.set(name, mapRefs(normalised.get(name)!, redirect));
  // Everything else calls the function of each referenced definition (small output), but the
  // JSON-RPC envelopes run on every message: copy their small reference-free parts (RequestId,
  // Result, ...) in, which makes classifying a response through validateJSONRPCMessage 2-3x faster.
  const lookup = (ref: string): JSONSchema | undefined =>
    ref.includes("#") ? undefined : compiled.get(ref.slice(DEF_ID_PREFIX.length));
  for (const [name, schema] of compiled) {
    if (ENVELOPE.test(name)) compiled.set(name, inlineLeafRefs(schema, lookup));
  }

  // A method's params or result schema is either a definition (validated by that definition's
  // function) or a schema of its own: inline params (≤2025-06-18), or in 2026-07-28 the `result`
  // of a `…ResultResponse` definition, which may be a union (`InputRequiredResult | CallToolResult`).
  const defsPrefix = `/${defsKey}/`;
  const locate = (
    method: MethodDef,
    what: "params" | "result",
    pointer: string,
  ): { def: string; schema?: undefined } | { def?: undefined; schema: JSONSchema } => {
    if (!pointer.startsWith(defsPrefix)) {
      throw inputError(model, `${what} of "${method.method}" are not inside ${defsPrefix}`, pointer);
    }
    const raw = resolvePointer(document, pointer);
    if (raw === undefined) throw inputError(model, `${what} schema of "${method.method}" not found`, pointer);
    const schema = normaliseSchema(raw, pointer, dialect, defsKey);
    const named = pointer.slice(defsPrefix.length);
    const direct = !named.includes("/") && normalised.has(named) ? named : bareRefTarget(schema);
    if (direct === null) return { schema };
    if (!normalised.has(direct)) {
      throw inputError(model, `${what} of "${method.method}" refer to the unknown definition "${direct}"`, pointer);
    }
    return { def: direct };
  };
  const params = new Map<string, JSONSchema>();
  const paramsByDef = new Map<string, string>();
  const results = new Map<string, JSONSchema>();
  const resultsByDef = new Map<string, string>();
  const metaChecked = model.era === "modern" ? afterRequestMeta(compiled, target) : undefined;
  for (const method of model.methods) {
    if (method.paramsPointer !== null) {
      const found = locate(method, "params", method.paramsPointer);
      // What a 2026-era server receives has had its `_meta` checked by the runtime first.
      const checked = metaChecked !== undefined && method.kind === "request" && method.from === "client";
      if (found.def === undefined) {
        params.set(method.method, mapRefs(withBaseMeta(found.schema, method, model), redirect));
      } else {
        const def = target.get(found.def)!;
        const relaxed = withInputResponsesRelaxed(compiled.get(def)!);
        if (relaxed !== null) params.set(method.method, (checked && metaChecked.params(relaxed)) || relaxed);
        else paramsByDef.set(method.method, (checked && metaChecked.definition(def)) || found.def);
      }
    }
    if (method.kind === "request" && method.resultPointer !== null) {
      const found = locate(method, "result", method.resultPointer);
      if (found.def !== undefined) resultsByDef.set(method.method, found.def);
      else results.set(method.method, mapRefs(found.schema, redirect));
    }
  }
  return { target, compiled, params, paramsByDef, results, resultsByDef };
}

/**
 * What a method's params validator checks of `inputResponses` (2026-07-28 MRTR retries): a map of
 * objects, nothing more. Each entry is the result of the input request of that key
 * (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`: content blocks, sampling and
 * elicitation results, the largest validator code of the revision), and only the handler's own
 * request says which: the runtime checks an entry against that type when the handler looks it up
 * (runtime/src/lifecycle/modern/input-answers.ts), and an entry no handler reads is ignored
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). Checking every
 * entry against every input result type here would only put that code in every server's bundle.
 * Null when the params have no `inputResponses`, which keep their definition's validator.
 */
function withInputResponsesRelaxed(schema: JSONSchema): JSONSchema | null {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties) || !("inputResponses" in schema.properties))
    return null;
  const inputResponses = { type: "object", additionalProperties: { type: "object" } };
  return { ...schema, properties: { ...schema.properties, inputResponses } };
}

/** The per-request `_meta` keys (https://modelcontextprotocol.io/specification/2026-07-28/basic/index). */
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
/** The levels checkRequestMeta accepts (the runtime's `loggingLevels`). */
const LOGGING_LEVELS = ["alert", "critical", "debug", "emergency", "error", "info", "notice", "warning"];
/** Suffix of the compiled definitions that check what is left once checkRequestMeta accepted `_meta`. */
const META_CHECKED = "$metaChecked";

/**
 * A 2026-era server checks a request's `_meta` before its params validator runs
 * (runtime/src/lifecycle/modern/meta.ts `checkRequestMeta`, which a server with `trustPeer`, having
 * no validators, answers with alone): `_meta` is an object holding a protocol version the server
 * serves (a string), client capabilities that are an object, a `clientInfo`, if any, that is an
 * object with string `name` and `version`, and a log level, if any, of the schema's eight. The
 * params validators of what a client sends check what is left (the shapes inside the capabilities
 * and `clientInfo`, `progressToken`): every refusal of theirs stays as it
 * was, as the checks left out can no longer fail, and a server's bundle does not carry them twice.
 * The request meta definition is found by its two required keys; undefined when the revision has
 * none of that shape, or its log level is not the runtime's eight, so nothing is left out.
 */
function afterRequestMeta(
  compiled: Map<string, JSONSchema>,
  target: Map<string, string>,
): { params: (schema: JSONSchema) => JSONSchema | null; definition: (name: string) => string | null } | undefined {
  const refTo = (name: string): JSONSchema => ({ $ref: DEF_ID_PREFIX + name });
  // Only properties, so that leaving one out cannot make it an additional property.
  const isRequestMeta = (s: JSONSchema): boolean =>
    onlyProperties(s) &&
    Array.isArray(s.required) &&
    s.required.includes(PROTOCOL_VERSION) &&
    s.required.includes(CLIENT_CAPABILITIES) &&
    JSON.stringify(s.properties[PROTOCOL_VERSION]) === '{"type":"string"}';
  const metaName = [...compiled].find(([, s]) => isRequestMeta(s))?.[0];
  if (metaName === undefined) return undefined;
  const meta = compiled.get(metaName) as { properties: Record<string, JSONSchema>; required: string[] };
  const level = meta.properties[LOG_LEVEL];
  const levelName = level === undefined ? undefined : bareRefTarget(level);
  const levelSchema = levelName === null || levelName === undefined ? level : compiled.get(target.get(levelName)!);
  const knownLevels =
    levelSchema === undefined ||
    (isPlainObject(levelSchema) &&
      Object.keys(levelSchema).length === 2 &&
      levelSchema.type === "string" &&
      Array.isArray(levelSchema.enum) &&
      JSON.stringify([...(levelSchema.enum as string[])].sort()) === JSON.stringify(LOGGING_LEVELS));
  if (!knownLevels) return undefined;
  const { [PROTOCOL_VERSION]: _version, [LOG_LEVEL]: _level, ...properties } = meta.properties;
  const info = properties[CLIENT_INFO];
  const infoName = info === undefined ? null : bareRefTarget(info);
  const checkedInfo = infoName === null ? null : afterClientInfo(compiled.get(target.get(infoName)!)!);
  if (checkedInfo !== null) properties[CLIENT_INFO] = checkedInfo;
  const required = meta.required.filter((k) => k !== PROTOCOL_VERSION && k !== CLIENT_CAPABILITIES);
  const { required: _required, ...rest } = meta as unknown as Record<string, unknown>;
  const checkedMeta = metaName + META_CHECKED;
  compiled.set(checkedMeta, { ...rest, properties, ...(required.length > 0 ? { required } : {}) });
  target.set(checkedMeta, checkedMeta);

  /** `schema` (object params whose `_meta` is the request meta) with `_meta` as checked; null otherwise. */
  const params = (schema: JSONSchema): JSONSchema | null => {
    if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return null;
    const ref = bareRefTarget(schema.properties._meta as JSONSchema);
    if (ref === null || target.get(ref) !== metaName) return null;
    const required = Array.isArray(schema.required) ? schema.required.filter((k) => k !== "_meta") : [];
    const { required: _required, ...rest } = schema;
    return {
      ...rest,
      properties: { ...schema.properties, _meta: refTo(checkedMeta) },
      ...(required.length > 0 ? { required } : {}),
    };
  };
  /** The compiled definition of params definition `name` as checked (one per definition, whatever the methods), or null. */
  const definition = (name: string): string | null => {
    const checked = name + META_CHECKED;
    if (compiled.has(checked)) return checked;
    const schema = params(compiled.get(name)!);
    if (schema === null) return null;
    compiled.set(checked, schema);
    target.set(checked, checked);
    return checked;
  };
  return { params, definition };
}

/** Whether `s` holds only the keywords that leaving a property out cannot change the meaning of. */
const onlyProperties = (
  s: JSONSchema,
): s is { type: "object"; properties: Record<string, JSONSchema>; required?: unknown } =>
  isPlainObject(s) &&
  Object.keys(s).every((k) => k === "type" || k === "properties" || k === "required") &&
  s.type === "object" &&
  isPlainObject(s.properties);

/**
 * The `clientInfo` definition (`Implementation`) without what checkRequestMeta checked of it: its
 * string `name` and `version`; inline, as the definition itself stays whole for everything else
 * that refers to it. Null when the definition is not an object of those two required strings and
 * optional properties.
 */
function afterClientInfo(schema: JSONSchema): JSONSchema | null {
  const text = '{"type":"string"}';
  if (!onlyProperties(schema) || !Array.isArray(schema.required)) return null;
  const { name, version, ...properties } = schema.properties;
  if (JSON.stringify(name) !== text || JSON.stringify(version) !== text) return null;
  if (!schema.required.includes("name") || !schema.required.includes("version")) return null;
  const required = schema.required.filter((k) => k !== "name" && k !== "version");
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Inline params (≤2025-06-18) leave out `_meta`, which every request and notification inherits
 * from the base `Request`/`Notification` params. Accept it, checked as the base type declares it.
 */
function withBaseMeta(schema: JSONSchema, method: MethodDef, model: ProtocolModel): JSONSchema {
  if (!isPlainObject(schema)) return schema;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if ("_meta" in properties) return schema;
  const base = method.kind === "request" ? "Request" : "Notification";
  const pointer = `/${model.defsKey}/${base}/properties/params/properties/_meta`;
  const meta = resolvePointer(model.document, pointer);
  if (meta === undefined) {
    // Without a declared base `_meta`, the inline schema must at least not forbid it.
    if (schema.additionalProperties === false) {
      throw inputError(model, `params of "${method.method}" forbid "_meta" and the base params declare none`, pointer);
    }
    return schema;
  }
  return {
    ...schema,
    properties: { ...properties, _meta: normaliseSchema(meta, pointer, model.dialect, model.defsKey) },
  };
}

/** Export name of the ajv function validating `method`'s params / result, if any. */
function paramsExport(p: Plan, method: string): string | undefined {
  const def = p.paramsByDef.get(method);
  if (def !== undefined) return p.target.get(def)!;
  return p.params.has(method) ? paramsExportName(method) : undefined;
}

function resultExport(p: Plan, method: string): string | undefined {
  const def = p.resultsByDef.get(method);
  if (def !== undefined) return p.target.get(def)!;
  return p.results.has(method) ? resultExportName(method) : undefined;
}

/** Import specifier of one ajv module from the revision's folder. */
const moduleSpecifier = (module: string): string => `./${AJV_DIR}/${module}.js`;
/** File name (no extension) of the module of a method validator: its export name, `$` spelled `.`. */
const entryModule = (exportName: string): string => exportName.replaceAll("$", ".");

/** Where the validators of a revision live: export name -> [import specifier, exported name], entry module -> specifier. */
export interface Layout {
  located: Map<string, [specifier: string, local: string]>;
  entry: (module: string) => string;
}

/** `validators.ts`: the typed surface, `validate<Definition>` per definition and the per-method tables. */
export function validatorsView(prepared: PreparedValidators, layout: Layout) {
  const { model, plan: p } = prepared;
  const modules = [...new Set([...layout.located.values()].map(([m]) => m))].sort();
  const alias = new Map(modules.map((m, i) => [m, `m${i}`]));
  const ref = (exportName: string): string => {
    const [module, local] = layout.located.get(exportName)!;
    return `${alias.get(module)}.${local}`;
  };
  const entries = (pick: (p: Plan, method: string) => string | undefined) =>
    model.methods.flatMap((method) => {
      const name = pick(p, method.method);
      return name === undefined ? [] : [{ method: JSON.stringify(method.method), validator: ref(name) }];
    });
  return {
    abi: runtimeImports.abi,
    modules: modules.map((m) => ({ alias: alias.get(m)!, specifier: m })),
    definitions: model.types.map((type) => ({ name: type.name, validator: ref(p.target.get(type.name)!) })),
    params: entries(paramsExport),
    results: entries(resultExport),
  };
}

/** Per method kept by `keep`, the module its validator is imported from. */
function thunks(
  prepared: PreparedValidators,
  layout: Layout,
  what: "params" | "results",
  keep: (method: MethodDef) => boolean = () => true,
) {
  const { model, plan: p } = prepared;
  const pick = what === "params" ? paramsExport : resultExport;
  return model.methods.flatMap((method) => {
    const name = keep(method) ? pick(p, method.method) : undefined;
    return name === undefined
      ? []
      : [{ method: JSON.stringify(method.method), module: layout.entry(entryModule(name)) }];
  });
}

/** `server-side.ts` / `client-side.ts`: the method table and the loaders of what `role` receives. */
export function roleLoadersView(prepared: PreparedValidators, layout: Layout, role: Role) {
  return {
    abi: runtimeImports.abi,
    role,
    peer: role === "server" ? "client" : "server",
    params: thunks(prepared, layout, "params", (m) => receives(role, m, "params")),
    results: thunks(prepared, layout, "results", (m) => receives(role, m, "results")),
  };
}

/**
 * `server-side/table.ts`: the revision's method table alone, for a server whose generated code
 * names the validators it loads (`server-side/params/*`, `server-side/results/*`). A legacy
 * server's session checks what it sends against the table too, so it gets every row; a 2026-07-28
 * server sends no requests and checks no notification by its row (ModernServerPolicy), so its
 * table holds only the requests a client may send it, which is what the session looks up: a bundle
 * of the server leaves the notification rows out (the one-tool Worker 0.2 kB gzip smaller).
 */
export function serverTableView(model: ProtocolModel): ViewModel {
  if (model.era === "legacy") return { requests: null };
  const received = model.methods.filter((m) => m.kind === "request" && m.from !== "server");
  return { abi: runtimeImports.abi, revision: model.revision, requests: received.map(methodInfo) };
}

/**
 * `server-side/params/<method>.ts` / `server-side/results/<method>.ts`: one validator a server
 * receives, re-exported from where the revision's validators put it. The generated server imports
 * only those of the methods its manifest serves, so a bundle of it leaves the others out.
 */
export function serverValidatorView(
  prepared: PreparedValidators,
  layout: Layout,
  what: "params" | "results",
  method: string,
) {
  const pick = what === "params" ? paramsExport : resultExport;
  const name = pick(prepared.plan, method)!;
  const fromFolder = posix.dirname(serverSideFile(what, method));
  // layout.entry is relative to the revision's folder; these files are two folders below it.
  const module = posix.join(posix.relative(fromFolder, "."), layout.entry(entryModule(name)));
  return { what: what === "params" ? "params" : "result", method: JSON.stringify(method), module };
}

/** The per-method server entries of `prepared`'s revision (without extension): the table, then each validator a server receives. */
function serverSideEntries(
  prepared: PreparedValidators,
): { file: string; what?: "params" | "results"; method?: string }[] {
  const out: { file: string; what?: "params" | "results"; method?: string }[] = [{ file: SERVER_SIDE_TABLE }];
  for (const what of ["params", "results"] as const) {
    for (const method of prepared.model.methods) {
      if (!receives("server", method, what)) continue;
      if ((what === "params" ? paramsExport : resultExport)(prepared.plan, method.method) === undefined) continue;
      out.push({ file: serverSideFile(what, method.method), what, method: method.method });
    }
  }
  return out;
}

/**
 * The shared folder's `server-side/load.ts` and `server-side/load-bundled.ts`
 * (`@mcpgen/runtime/protocol/server-load`): per bundled revision and entry of serverSideEntries, a
 * loader the generated server names (`serverLoaderName`). `load.ts` imports on first use (Node,
 * Bun and Deno load the runtime's files as they are, and a server starts without its validators:
 * one file for every revision, as each file more read at start costs about 0.6 ms of CPU,
 * docs/bundling.md); `load-bundled.ts` is what bundlers get (runtime/package.json): a bundle is one
 * file, and a dynamic import in it only has the bundler wrap every module the imported one reaches
 * in lazy-init glue. A bundler drops the loaders the server does not name, and the modules behind
 * them.
 */
export function serverLoadView(revisions: readonly PreparedValidators[]) {
  const loaders = revisions.flatMap((prepared) =>
    serverSideEntries(prepared).map(({ file }) => ({
      name: serverLoaderName(prepared.model.revision, file),
      module: JSON.stringify(`../../${prepared.model.revision}/${file}.js`),
    })),
  );
  const names = new Set(loaders.map((l) => l.name));
  if (names.size !== loaders.length)
    throw new McpgenError(
      "two server-side entries of the bundled revisions have one loader name in server-side/load.ts",
    );
  return { loaders };
}

/** The per-method server entries: every validator `server-side.ts` lists, one file each, and the table. */
function serverSideFiles(prepared: PreparedValidators, layout: Layout): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const { file, what, method } of serverSideEntries(prepared)) {
    const view =
      what === undefined ? serverTableView(prepared.model) : serverValidatorView(prepared, layout, what, method!);
    files.push(renderFile("protocol", `${file}.ts`, view));
  }
  return files;
}

/** `loaders.ts`: per method, a thunk importing the module of its validator. */
export function loadersView(prepared: PreparedValidators, layout: Layout) {
  return {
    abi: runtimeImports.abi,
    params: thunks(prepared, layout, "params"),
    results: thunks(prepared, layout, "results"),
  };
}

/** One revision's validators before they are cut into modules. */
export interface PreparedValidators {
  model: ProtocolModel;
  plan: Plan;
  /** ajv's standalone code of every definition and method validator. */
  code: string;
  /** Entry module name -> the export its `validate` is. */
  entries: Map<string, string>;
}

/**
 * Validators of several revisions emitted together (`shareStandalone`): a validator identical in
 * two of them is one module. Made once per generation run for mcpgen's bundled revisions.
 */
export interface ValidatorSharing {
  readonly revisions: readonly string[];
  /** Each revision's modules and layout, computed on first use. */
  shared(): Promise<Map<string, { prepared: PreparedValidators; shared: SharedRevision }>>;
  /** The modules several revisions use, the files of the shared folder (`validators/<name>.ts` in it). */
  sharedFiles(): Promise<EmittedFile[]>;
}

/** A sharing of `revisions` (oldest first), whose models `models` builds when first needed. */
export function validatorSharing(revisions: readonly string[], models: () => ProtocolModel[]): ValidatorSharing {
  let done: Promise<Map<string, { prepared: PreparedValidators; shared: SharedRevision }>> | undefined;
  let folder: SharedRevision | undefined;
  return {
    revisions,
    async sharedFiles() {
      const revisions = [...(await this.shared()).values()].map((r) => r.prepared);
      const loads = serverLoadView(revisions);
      return [
        ...folder!.modules.map((m) => ({ path: `${AJV_DIR}/${m.name}.ts`, contents: `${AJV_BANNER}${m.contents}` })),
        renderFile("shared", `${SERVER_LOAD}.ts`, loads),
        renderFile("shared", `${SERVER_LOAD}-bundled.ts`, loads),
      ];
    },
    shared() {
      done ??= (async () => {
        const prepared = models().map(prepareValidators);
        const shared = shareStandalone({
          ...STANDALONE_NAMES,
          revisions: prepared.map((v) => ({
            revision: v.model.revision,
            code: v.code,
            entries: [...v.entries].map(([module, exportName]) => ({ module, exportName })),
          })),
        });
        folder = shared.get(SHARED_FOLDER)!;
        return new Map(prepared.map((v) => [v.model.revision, { prepared: v, shared: shared.get(v.model.revision)! }]));
      })();
      return done;
    },
  };
}

const AJV_BANNER = "// @ts-nocheck -- ajv standalone code, plain JavaScript; validators.ts gives it precise types.\n";

/**
 * The validators of `model`'s revision: split per method within the revision, or, when `sharing`
 * covers the revision, laid out with the other revisions it names.
 */
export async function emitValidators(
  model: ProtocolModel,
  context: { sharing?: ValidatorSharing } = {},
): Promise<EmittedFile[]> {
  const sharing = context.sharing;
  if (sharing !== undefined && sharing.revisions.includes(model.revision)) {
    const { prepared, shared } = (await sharing.shared()).get(model.revision)!;
    if (prepared.model.source.sha256 !== model.source.sha256) {
      throw inputError(model, `the shared validators were built from other bytes of ${model.revision}`);
    }
    const layout: Layout = { located: shared.located, entry: (module) => shared.entries.get(module)! };
    return finishValidators(prepared, shared.modules, layout);
  }
  const prepared = prepareValidators(model);
  const { modules, layout } = localLayout(prepared);
  return finishValidators(prepared, modules, layout);
}

/** `prepared` cut into modules of its own revision's folder, and where each validator landed. */
export function localLayout(prepared: PreparedValidators): { modules: SplitModule[]; layout: Layout } {
  const split = splitStandalone({
    code: prepared.code,
    ...STANDALONE_NAMES,
    entries: [...prepared.entries].map(([module, exportName]) => ({ module, exportName })),
  });
  const located = new Map(
    [...split.located].map(([name, [module, local]]) => [name, [moduleSpecifier(module), local] as [string, string]]),
  );
  return { modules: split.modules, layout: { located, entry: moduleSpecifier } };
}

function finishValidators(
  prepared: PreparedValidators,
  modules: readonly SplitModule[],
  layout: Layout,
): EmittedFile[] {
  return [
    ...modules.map((m) => ({ path: `${AJV_DIR}/${m.name}.ts`, contents: `${AJV_BANNER}${m.contents}` })),
    renderFile("protocol", LOADERS_FILE, loadersView(prepared, layout)),
    renderFile("protocol", ROLE_FILES.server, roleLoadersView(prepared, layout, "server")),
    renderFile("protocol", ROLE_FILES.client, roleLoadersView(prepared, layout, "client")),
    ...serverSideFiles(prepared, layout),
    renderFile("protocol", VALIDATORS_FILE, validatorsView(prepared, layout)),
  ];
}

/** Plans `model`'s validators and runs ajv's standalone code generation. */
export function prepareValidators(model: ProtocolModel): PreparedValidators {
  let p: Plan;
  try {
    p = plan(model);
  } catch (error) {
    if (error instanceof SchemaNormaliseError) throw inputError(model, error.reason, error.pointer);
    throw error;
  }
  const names = new Set(model.types.map((t) => t.name));
  if (!names.has("JSONRPCMessage")) {
    throw inputError(model, "no JSONRPCMessage definition to validate messages with", `/${model.defsKey}`);
  }
  for (const method of model.methods) {
    if (method.resultType !== null && !names.has(method.resultType)) {
      throw inputError(
        model,
        `result type "${method.resultType}" of "${method.method}" is not a definition`,
        `/${model.defsKey}`,
      );
    }
  }

  const schemas: Array<{ id: string; schema: JSONSchema }> = [];
  const exports: Array<{ name: string; id: string }> = [];
  for (const [name, schema] of p.compiled) {
    schemas.push({ id: DEF_ID_PREFIX + name, schema });
    exports.push({ name, id: DEF_ID_PREFIX + name });
  }
  const exportNames = new Set(exports.map((e) => e.name));
  for (const [method, schema] of p.params) {
    const name = paramsExportName(method);
    if (exportNames.has(name))
      throw inputError(model, `params of "${method}" need the export name ${name}, which is taken`);
    exportNames.add(name);
    const id = PARAMS_ID_PREFIX + method;
    schemas.push({ id, schema });
    exports.push({ name, id });
  }
  for (const [method, schema] of p.results) {
    const name = resultExportName(method);
    if (exportNames.has(name))
      throw inputError(model, `the result of "${method}" needs the export name ${name}, which is taken`);
    exportNames.add(name);
    const id = RESULT_ID_PREFIX + method;
    schemas.push({ id, schema });
    exports.push({ name, id });
  }
  let code: string;
  try {
    code = standaloneCode({ schemas, exports }, { lean: true });
  } catch (error) {
    // ajv's strict mode refusing a schema construct; its message names the definition by $id.
    const message = (error as Error).message.replaceAll(DEF_ID_PREFIX, `/${model.defsKey}/`);
    throw inputError(model, `cannot generate validators: ${message}`);
  }
  const entryNames = new Set<string>();
  for (const method of model.methods) {
    for (const name of [paramsExport(p, method.method), resultExport(p, method.method)])
      if (name !== undefined) entryNames.add(name);
  }
  const modules = new Map<string, string>();
  for (const name of entryNames) {
    const other = modules.get(entryModule(name));
    if (other !== undefined)
      throw inputError(model, `the validators ${other} and ${name} would share the module ${entryModule(name)}`);
    modules.set(entryModule(name), name);
  }
  return { model, plan: p, code, entries: modules };
}
