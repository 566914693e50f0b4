/**
 * load -> model -> emit -> print for one server manifest (the manifest counterpart of
 * pipeline.ts, kept apart from generate.ts for the same reason: heavy dependencies load only
 * when something has to be generated).
 *
 * The large outputs (types, lists, validators) are preformatted (see generate-manifest.ts); only
 * the small facades rendered from templates go through prettier, in this thread (the worker pool
 * is only started for files over its in-thread limit).
 */
import { formatWarning } from "./load/diagnostics.js";
import { generateManifest } from "./generate-manifest.js";
import type { EmittedFile } from "./model/ir.js";
import { banner } from "./print/banner.js";
import { mcpgenVersion } from "./paths.js";

/** The print stage's printWidth (print/format.ts; a test keeps them equal without loading prettier here). */
export const MANIFEST_PRINT_WIDTH = 120;

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
): Promise<RenderedManifest> {
  const r = generateManifest(path, { display, printWidth: MANIFEST_PRINT_WIDTH, lenient });
  for (const w of r.warnings) warn(formatWarning(w));
  const files = [...r.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.some((f) => !r.preformatted.has(f.path))) {
    const { printFiles } = await import("./print/index.js");
    return { revisions: r.model.revisions, files: await printFiles(files, source, undefined, r.preformatted) };
  }
  const head = banner(mcpgenVersion, source);
  return { revisions: r.model.revisions, files: files.map((f) => ({ path: f.path, contents: `${head}\n${f.contents}` })) };
}
