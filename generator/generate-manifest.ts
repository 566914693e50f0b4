/**
 * The manifest half of `generate()`: load and check `mcp.manifest.json`, build the server
 * model, run the manifest emitters (types.ts, lists.ts, validators.ts + tools*.ajv.ts, definition.ts, server.ts, client.ts, bindings.ts). Returns unformatted, unbannered files for the print/write
 * stages; throws `InputError` (every error, with file, pointer, line) when anything is wrong.
 */
import { InputError, type Diagnostic } from "./load/diagnostics.js";
import { loadManifest } from "./load/manifest.js";
import { buildServerModel } from "./model/build-server.js";
import type { EmittedFile } from "./model/ir.js";
import type { ServerModel } from "./model/server-ir.js";
import { emitManifestTypes } from "./emit/manifest-types.js";
import { emitManifestLists } from "./emit/manifest-lists.js";
import { emitManifestValidators } from "./emit/manifest-validators.js";
import { emitDefinition } from "./emit/manifest-facade.js";
import { emitServer } from "./emit/server.js";
import { emitClient } from "./emit/client.js";
import { bindingsModule } from "./emit/bindings.js";
import { servedRevisions } from "./model/served-revisions.js";
import { checkToolExamples } from "./emit/tool-examples.js";
import { checkToolDefaults } from "./emit/tool-defaults.js";
import { assertListed } from "./emit/files.js";

export interface ManifestGenerateOptions {
  /** How diagnostics and banners name the manifest (default: the path as given). */
  display?: string;
  /** printWidth types.ts and validators.ts are laid out for (default 80, prettier's default; the print stage uses 120; lists.ts always targets 120). */
  printWidth?: number;
  /** Tool schemas that are not valid JSON Schema are warnings instead of errors. */
  lenient?: boolean;
}

export interface ManifestGenerateResult {
  model: ServerModel;
  files: EmittedFile[];
  /**
   * Paths the print stage need not run prettier on: laid out as prettier would at `printWidth`
   * (types, lists, validators: data that grows with the manifest's schemas, where prettier costs
   * seconds per megabyte; tests prove the layout a fixpoint) or ajv's machine code (`*.ajv.ts`,
   * @ts-nocheck). The facades (definition, server, client) are small and always go through
   * prettier.
   */
  preformatted: Set<string>;
  /** Warnings to show; errors throw. */
  warnings: Diagnostic[];
}

export function generateManifest(path: string, options: ManifestGenerateOptions = {}): ManifestGenerateResult {
  const display = options.display ?? path;
  const loaded = loadManifest(path, display, { lenient: options.lenient ?? false });
  const model = buildServerModel(loaded);
  const types = emitManifestTypes(model, { printWidth: options.printWidth });
  const validators = emitManifestValidators(model, { printWidth: options.printWidth });
  const emitted: Diagnostic[] = [...types.problems, ...validators.problems, ...checkToolExamples(loaded.manifest, model), ...checkToolDefaults(model, options.lenient ?? false)].map((p) => ({ ...p, file: display, ...loaded.locate(p.pointer) }));
  const warnings = [...loaded.diagnostics, ...emitted.filter((d) => d.severity === "warning")];
  if (emitted.some((d) => d.severity === "error")) throw new InputError(display, [...emitted, ...warnings]);
  const lists = emitManifestLists(model);
  // rendered from templates/facades/ and laid out by prettier in the print stage
  // server.ts, client.ts and bindings.ts import the bundled revisions from @mcpgen/runtime/protocol/<rev>.
  const spoken = servedRevisions(model.revisions, display);
  const facades = [emitDefinition(model), emitServer(model, spoken), emitClient(model, spoken)];
  const bindings = bindingsModule(spoken);
  const preformatted = new Set([types.file, lists, ...validators.files].map((f) => f.path));
  const files = [types.file, lists, bindings, ...validators.files, ...facades];
  assertListed("manifest", files);
  return { model, files, warnings, preformatted };
}
