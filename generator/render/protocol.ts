/**
 * One protocol revision end to end: model -> emit -> print for one loaded schema. Kept apart from
 * generate.ts because the emitters pull in heavy dependencies (prettier, ajv,
 * json-schema-to-typescript) that a cached re-run never needs to load.
 */
import { McpgenError } from "../errors.js";
import { type EmitContext, emitters } from "../emit/protocol/registry.js";
import { assertListed, skipsPrettier } from "../emit/files.js";
import { loadSchema, type LoadedSchema } from "../load/load.js";
import { validatorSharing } from "../emit/protocol/validators.js";
import { buildModel } from "../model/build.js";
import type { EmittedFile, SchemaSource } from "../model/ir.js";
import { printFiles, warmFormatPool } from "../print/index.js";

export interface Rendered {
  revision: string;
  files: EmittedFile[];
}

/** `banner` names the input in banners when that differs from how diagnostics name it. */
export async function render(
  loaded: LoadedSchema,
  warn: (message: string) => void,
  banner: SchemaSource = loaded.source,
  context: EmitContext = {},
): Promise<Rendered> {
  warmFormatPool();
  const model = buildModel(loaded, { warn });
  const files: EmittedFile[] = [];
  const owner = new Map<string, string>();
  for (const emitter of emitters) {
    for (const file of await emitter.emit(model, context)) {
      const prev = owner.get(file.path);
      if (prev) throw new McpgenError(`emitters ${prev} and ${emitter.name} both produce ${file.path}`);
      if (!/^[\w.-]+(\/[\w.-]+)*$/.test(file.path) || file.path.split("/").includes("..")) {
        throw new McpgenError(`emitter ${emitter.name} produced an invalid output path ${JSON.stringify(file.path)}`);
      }
      owner.set(file.path, emitter.name);
      files.push(file);
    }
  }
  assertListed("protocol", files);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    revision: model.revision,
    files: await printFiles(files, banner, undefined, skipsPrettier("protocol", files)),
  };
}

/**
 * The shared folder of mcpgen's bundled revisions (`generated/shared/`): the validator modules
 * several of them use, as `context` (bundledSharing's) cut them; `banner` names every bundled schema.
 */
export async function renderShared(context: EmitContext, banner: SchemaSource): Promise<EmittedFile[]> {
  const files = await context.sharing!.sharedFiles();
  assertListed("shared", files);
  return printFiles(files, banner, undefined, skipsPrettier("shared", files));
}

/**
 * The validators of mcpgen's bundled revisions, emitted together so that a validator several
 * revisions share is one module (emit/protocol/validators/share.ts).
 */
export function bundledSharing(revisions: readonly string[]): EmitContext {
  return { sharing: validatorSharing(revisions, () => revisions.map((r) => buildModel(loadSchema(r)))) };
}
