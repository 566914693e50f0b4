/**
 * One server manifest end to end: load and check `mcp.manifest.json`, build the server model, run
 * the manifest emitters (`generateManifest`: types.ts, lists.ts, validators.ts + tool-validators.ts + tools*.ajv.ts +
 * tools.defaults.ts, definition.ts, server.ts, client.ts, bindings.ts, unformatted and unbannered; it throws
 * `InputError`, every error with file, pointer, line, when anything is wrong), then print them
 * (`renderManifest`). Kept apart from generate.ts, like render/protocol.ts: the heavy dependencies
 * load only when something has to be generated.
 *
 * The large outputs (types, lists, validators) skip prettier (their layout is decided by the table
 * of generated files); only the small facades rendered from templates go through it, in this
 * thread (the worker pool is only started for files over its in-thread limit).
 */
import { formatWarning, InputError, type Diagnostic } from "../load/diagnostics.js";
import { loadManifest } from "../load/manifest.js";
import { buildServerModel } from "../model/build-server.js";
import type { EmittedFile } from "../model/ir.js";
import type { ServerModel } from "../model/server-ir.js";
import { servedRevisions } from "../model/served-revisions.js";
import { emitManifestTypes } from "../emit/manifest/types.js";
import { emitManifestLists } from "../emit/manifest/lists.js";
import { emitManifestValidators } from "../emit/manifest/validators.js";
import { emitDefinition } from "../emit/manifest/definition.js";
import { emitServer } from "../emit/manifest/server.js";
import { emitClient } from "../emit/manifest/client.js";
import { emitSkills } from "../emit/manifest/skills.js";
import { emitResourceFiles } from "../emit/manifest/resource-files.js";
import { bindingsModule } from "../emit/manifest/bindings.js";
import { checkToolExamples } from "../emit/manifest/tool-examples.js";
import { toolDefaultsCheck } from "../emit/manifest/tool-defaults.js";
import { assertListed, skipsPrettier } from "../emit/files.js";
import { banner } from "../print/banner.js";
import { PRINT_WIDTH } from "../print/width.js";
import { mcpgenVersion } from "../paths.js";

export interface ManifestGenerateOptions {
  /** How diagnostics and banners name the manifest (default: the path as given). */
  display?: string;
  /** printWidth types.ts and validators.ts are laid out for (default 80, prettier's default; renderManifest gives the print stage's, print/width.ts, which lists.ts always targets). */
  printWidth?: number;
  /** Tool schemas that are not valid JSON Schema are warnings instead of errors. */
  lenient?: boolean;
  /** The generated code imports its own parts statically (a bundled deployment: `target: "workers"`). */
  staticImports?: boolean;
}

export interface ManifestGenerateResult {
  model: ServerModel;
  files: EmittedFile[];
  /**
   * Paths the print stage need not run prettier on, as the table of generated files decides
   * (emit/files.ts, `layout`): laid out as prettier would at `printWidth` (types, lists,
   * validators: data that grows with the manifest's schemas, where prettier costs seconds per
   * megabyte; tests prove the layout a fixpoint) or ajv's machine code (`*.ajv.ts`, @ts-nocheck).
   * The facades (definition, server, client, bindings) are small and always go through prettier.
   */
  preformatted: Set<string>;
  /** Warnings to show; errors throw. */
  warnings: Diagnostic[];
}

export function generateManifest(path: string, options: ManifestGenerateOptions = {}): ManifestGenerateResult {
  const display = options.display ?? path;
  const loaded = loadManifest(path, display, { lenient: options.lenient ?? false });
  const built = buildServerModel(loaded);
  const defaults = toolDefaultsCheck(built, options.lenient ?? false);
  // A default its schema rejects is an error, or under --lenient a warning and not filled in.
  const linked =
    defaults.rejected.size === 0 ? built : buildServerModel(loaded, { rejectedDefaults: defaults.rejected });
  const model = options.staticImports ? { ...linked, staticImports: true } : linked;
  const types = emitManifestTypes(model, { printWidth: options.printWidth });
  const validators = emitManifestValidators(model, { printWidth: options.printWidth });
  const emitted: Diagnostic[] = [
    ...types.problems,
    ...validators.problems,
    ...checkToolExamples(loaded.manifest, model),
    ...defaults.problems,
  ].map((p) => ({ ...p, file: display, ...loaded.locate(p.pointer) }));
  const warnings = [...loaded.diagnostics, ...emitted.filter((d) => d.severity === "warning")];
  if (emitted.some((d) => d.severity === "error")) throw new InputError(display, [...emitted, ...warnings]);
  const lists = emitManifestLists(model);
  // rendered from templates/facades/ and laid out by prettier in the print stage
  // server.ts, client.ts and bindings.ts import the bundled revisions from @mcpgen/runtime/protocol/<rev>.
  const spoken = servedRevisions(model.revisions, display);
  const facades = [
    emitDefinition(model),
    emitServer(model, spoken),
    emitClient(model, spoken),
    ...(model.skills.length > 0 ? [emitSkills(model)] : []),
    ...(model.resources.some((r) => r.file !== null) ? [emitResourceFiles(model)] : []),
  ];
  const bindings = bindingsModule(spoken, model.staticImports === true);
  const files = [types.file, lists, bindings, ...validators.files, ...facades];
  assertListed("manifest", files);
  return { model, files, warnings, preformatted: skipsPrettier("manifest", files) };
}

export interface RenderedManifest {
  /** Revisions the server speaks, preferred first, for messages. */
  revisions: string[];
  files: EmittedFile[];
}

export async function renderManifest(
  path: string,
  source: { display: string; sha256: string },
  /** How diagnostics name the manifest (banners use `source.display`). */
  display: string,
  warn: (message: string) => void,
  lenient = false,
  staticImports = false,
): Promise<RenderedManifest> {
  const r = generateManifest(path, { display, printWidth: PRINT_WIDTH, lenient, staticImports });
  for (const w of r.warnings) warn(formatWarning(w));
  const files = [...r.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.some((f) => !r.preformatted.has(f.path))) {
    const { printFiles } = await import("../print/index.js");
    return { revisions: r.model.revisions, files: await printFiles(files, source, undefined, r.preformatted) };
  }
  const head = banner(mcpgenVersion, source);
  return {
    revisions: r.model.revisions,
    files: files.map((f) => ({ path: f.path, contents: `${head}\n${f.contents}` })),
  };
}
