/**
 * Shared by the validator tests: a ProtocolModel for a bundled revision and a way to load the
 * emitted validators as real ES modules (transpiled next to the worktree's node_modules, so
 * `@mcpgen/runtime/abi` resolves as it does for users).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript-5";
import type { Validator } from "@mcpgen/runtime/abi";
import { emitValidators } from "../../generator/emit/validators.js";
import type { Dialect, EmittedFile, MethodDef, ProtocolModel, TypeDef } from "../../generator/model/ir.js";

export const root = fileURLToPath(new URL("../../..", import.meta.url));
export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

export function schemaPath(revision: string): string {
  return join("/work/shared/mcp-schema", revision, "schema.json");
}

export function examplesDir(): string {
  return join("/work/shared/mcp-schema", "2026-07-28", "examples");
}

export function readDocument(revision: string): { [key: string]: unknown } {
  return JSON.parse(readFileSync(schemaPath(revision), "utf8"));
}

type Obj = { [key: string]: unknown };

/**
 * Methods derived from the schema for tests (the real table comes from the reviewed overlays):
 * every `<X>Request`/`<X>Notification` definition with a `method` const; params pointer to the
 * named params type when the schema has one, else to the inline `params`.
 */
function methodsOf(defs: Obj, defsKey: string): MethodDef[] {
  const out: MethodDef[] = [];
  for (const [name, raw] of Object.entries(defs)) {
    const kind = name.endsWith("Request") ? "request" : name.endsWith("Notification") ? "notification" : null;
    if (kind === null || /^(Client|Server|JSONRPC)/.test(name)) continue;
    const schema = raw as Obj;
    const props = (schema.properties ?? {}) as Obj;
    const method = (props.method as Obj | undefined)?.const;
    if (typeof method !== "string") continue;
    const params = props.params as Obj | undefined;
    let paramsPointer: string | null = null;
    let paramsType: string | null = null;
    if (params && typeof params.$ref === "string") {
      paramsType = params.$ref.slice(`#/${defsKey}/`.length);
      paramsPointer = `/${defsKey}/${paramsType}`;
    } else if (params) paramsPointer = `/${defsKey}/${name}/properties/params`;
    const resultName = name.replace(/Request$/, "Result");
    out.push({
      method,
      kind,
      from: "both",
      messageType: name,
      paramsType,
      paramsPointer,
      paramsRequired: Array.isArray(schema.required) && schema.required.includes("params"),
      resultType: kind === "request" ? (resultName in defs ? resultName : "EmptyResult") : null,
      capability: null,
    });
  }
  return out.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

export function modelOf(revision: string): ProtocolModel {
  const bytes = readFileSync(schemaPath(revision));
  const document = JSON.parse(bytes.toString("utf8")) as Obj;
  const defsKey = "$defs" in document ? "$defs" : "definitions";
  const dialect: Dialect = defsKey === "$defs" ? "2020-12" : "draft-07";
  const defs = document[defsKey] as Obj;
  const types: TypeDef[] = Object.keys(defs)
    .sort()
    .map((name) => ({ name, schema: defs[name] as TypeDef["schema"] }));
  return {
    revision,
    era: revision === "2026-07-28" ? "modern" : "legacy",
    dialect,
    defsKey,
    batching: revision === "2025-03-26",
    source: { display: revision, sha256: createHash("sha256").update(bytes).digest("hex") },
    document,
    types,
    methods: methodsOf(defs, defsKey),
  };
}

/** Temp dir under the worktree (`tmp/` is git-ignored) so bare imports resolve from it. */
export function tempDir(prefix: string): string {
  const base = join(root, "tmp");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes emitted files as .ts and their transpiled .js (ESM) side by side. */
export function writeTranspiled(dir: string, files: EmittedFile[]): void {
  for (const file of files) {
    writeFileSync(join(dir, file.path), file.contents);
    const js = ts.transpileModule(file.contents, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file.path,
    }).outputText;
    writeFileSync(join(dir, file.path.replace(/\.ts$/, ".js")), js);
  }
}

export interface LoadedValidators {
  module: Record<string, unknown>;
  validator(name: string): Validator;
  paramsValidators: Record<string, Validator>;
  resultValidators: Record<string, Validator>;
  files: EmittedFile[];
}

const cache = new Map<string, Promise<LoadedValidators>>();

/** Emits, transpiles and imports the validators of a revision (once per process). */
export function loadValidators(revision: string): Promise<LoadedValidators> {
  let pending = cache.get(revision);
  if (!pending) {
    pending = (async () => {
      const files = await emitValidators(modelOf(revision));
      const dir = tempDir(`validators-${revision}-`);
      try {
        writeTranspiled(dir, files);
        const module = (await import(pathToFileURL(join(dir, "validators.js")).href)) as Record<string, unknown>;
        return {
          module,
          files,
          validator(name: string): Validator {
            const v = module[`validate${name}`];
            if (typeof v !== "function") throw new Error(`no validate${name} in the ${revision} validators`);
            return v as Validator;
          },
          paramsValidators: module.paramsValidators as Record<string, Validator>,
          resultValidators: module.resultValidators as Record<string, Validator>,
        };
      } finally {
        removeDir(dir); // modules are loaded; the files are no longer needed
      }
    })();
    cache.set(revision, pending);
  }
  return pending;
}
