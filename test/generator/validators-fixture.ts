/**
 * Shared by the validator tests: a ProtocolModel for a bundled revision and a way to load the
 * emitted validators as real ES modules (transpiled next to the worktree's node_modules, so
 * `@mcpgen/runtime/abi/v8` resolves as it does for users).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript-5";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { formats, type Validator, type ValidatorLoaders } from "@mcpgen/runtime/abi/v8";
import { validatorOptions } from "../../generator/emit/ajv-code.js";
import { emitValidators } from "../../generator/emit/protocol/validators.js";
import { loadSchema } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/index.js";
import type { EmittedFile, ProtocolModel } from "../../generator/model/ir.js";

export const root = fileURLToPath(new URL("../../..", import.meta.url));
export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

export function schemaPath(revision: string): string {
  return join(root, "schema", revision, "schema.json");
}

/** The specification's example messages (2026-07-28), one directory per schema type. */
export function examplesDir(): string {
  return join(root, "schema", "2026-07-28", "examples");
}

export function readDocument(revision: string): { [key: string]: unknown } {
  return JSON.parse(readFileSync(schemaPath(revision), "utf8"));
}

/** The model the generator builds for a bundled revision (schema + reviewed method overlay). */
export function modelOf(revision: string): ProtocolModel {
  return buildModel(loadSchema(revision));
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
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
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
  /** What each per-method loader of `loaders.ts` resolved to (all of them called once). */
  loaded: { params: Record<string, Validator>; results: Record<string, Validator> };
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
        const { validators: loaders } = (await import(pathToFileURL(join(dir, "loaders.js")).href)) as {
          validators: ValidatorLoaders;
        };
        const resolve = async (thunks: ValidatorLoaders["params"]) =>
          Object.fromEntries(
            await Promise.all(Object.entries(thunks).map(async ([m, load]) => [m, (await load()).validate] as const)),
          );
        const loaded = { params: await resolve(loaders.params), results: await resolve(loaders.results) };
        return {
          loaded,
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

export interface InMemoryEngines {
  /** ajv's draft-07 engine (the one the emitted code comes from) on the schema as published. */
  draft07(type: string): ValidateFunction;
  /** Ajv2020 on the schema as published (the reference semantics for 2020-12 schemas). */
  ajv2020(type: string): ValidateFunction;
}

/**
 * In-memory ajv on the untouched document (only a draft-07 `$schema` is dropped where the engine
 * has no such meta-schema), with the emitted code's options and the runtime's format checks.
 */
export function inMemoryEngines(revision: string): InMemoryEngines {
  const document = readDocument(revision);
  const defsKey = "$defs" in document ? "$defs" : "definitions";
  const { $schema: _dialect, ...withoutDialect } = document;
  const options = { ...validatorOptions(), formats };
  const draft07 = new Ajv(options);
  draft07.addSchema(withoutDialect, "mcp");
  const ajv2020 = new Ajv2020(options);
  ajv2020.addSchema(defsKey === "$defs" ? document : withoutDialect, "mcp");
  const get = (ajv: Ajv | Ajv2020, type: string): ValidateFunction => {
    const v = ajv.getSchema(`mcp#/${defsKey}/${type}`);
    if (!v) throw new Error(`no definition ${type} in ${revision}`);
    return v;
  };
  return { draft07: (type) => get(draft07, type), ajv2020: (type) => get(ajv2020, type) };
}
