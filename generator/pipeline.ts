/**
 * model -> emit -> print for one loaded schema. Kept apart from generate.ts because the emitters
 * pull in heavy dependencies (prettier, ajv, json-schema-to-typescript) that a cached re-run
 * never needs to load.
 */
import { McpgenError } from "./errors.js";
import { emitters } from "./emit/registry.js";
import type { LoadedSchema } from "./load/load.js";
import { buildModel } from "./model/build.js";
import type { EmittedFile, SchemaSource } from "./model/ir.js";
import { printFiles, warmFormatPool } from "./print/index.js";

export interface Rendered {
  revision: string;
  files: EmittedFile[];
}

/** `banner` names the input in banners when that differs from how diagnostics name it. */
export async function render(loaded: LoadedSchema, warn: (message: string) => void, banner: SchemaSource = loaded.source): Promise<Rendered> {
  warmFormatPool();
  const model = buildModel(loaded, { warn });
  const files: EmittedFile[] = [];
  const owner = new Map<string, string>();
  for (const emitter of emitters) {
    for (const file of await emitter.emit(model)) {
      const prev = owner.get(file.path);
      if (prev) throw new McpgenError(`emitters ${prev} and ${emitter.name} both produce ${file.path}`);
      if (!/^[\w.-]+(\/[\w.-]+)*$/.test(file.path) || file.path.split("/").includes("..")) {
        throw new McpgenError(`emitter ${emitter.name} produced an invalid output path ${JSON.stringify(file.path)}`);
      }
      owner.set(file.path, emitter.name);
      files.push(file);
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { revision: model.revision, files: await printFiles(files, banner) };
}
