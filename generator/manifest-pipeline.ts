/**
 * load -> model -> emit -> print for one server manifest (the manifest counterpart of
 * pipeline.ts, kept apart from generate.ts for the same reason: heavy dependencies load only
 * when something has to be generated).
 */
import { formatDiagnostic } from "./load/diagnostics.js";
import { generateManifest } from "./generate-manifest.js";
import type { EmittedFile } from "./model/ir.js";
import { printFiles, warmFormatPool } from "./print/index.js";
import { prettierOptions } from "./print/format.js";

export interface RenderedManifest {
  /** Revisions the server speaks, preferred first, for messages. */
  revisions: string[];
  files: EmittedFile[];
}

export async function renderManifest(
  path: string,
  source: { display: string; sha256: string },
  warn: (message: string) => void,
): Promise<RenderedManifest> {
  warmFormatPool();
  const r = generateManifest(path, { display: source.display, printWidth: prettierOptions.printWidth ?? 80 });
  for (const w of r.warnings) warn(formatDiagnostic(w));
  const files = [...r.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { revisions: r.model.revisions, files: await printFiles(files, source, undefined, r.preformatted) };
}
