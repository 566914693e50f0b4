/**
 * Maintainer pipeline for the runtime's checked-in wire types (`runtime/src/wire/`): load the
 * newest bundled revision of each era -> model -> emit (wire-types.ts) -> print (banner,
 * prettier) -> write. `generate-bundled` writes them, `check-bundled` compares, like generated/.
 */
import { join } from "node:path";
import { emitWireTypes, RUNTIME_WIRE } from "../emit/wire-types.js";
import { bundledRevisions } from "../load/schema-manifest.js";
import { loadSchema } from "../load/load.js";
import { buildModel } from "../model/build.js";
import type { EmittedFile } from "../model/ir.js";
import { readOverlay } from "../model/overlay.js";
import { packageRoot } from "../paths.js";
import { printFiles } from "../print/index.js";
import { commitOutput } from "../write/commit.js";
import { compareOutput, type OutputDiff } from "../write/compare.js";

/** The directory the wire types live in (owned by mcpgen: nothing else may be put there). */
export const runtimeWireDir = join(packageRoot, "runtime", "src", "wire");
const display = "runtime/src/wire";

/** The newest bundled revision of `era`. */
export function newestRevision(era: "legacy" | "modern"): string {
  const found = bundledRevisions().filter((r) => readOverlay(r).era === era);
  if (found.length === 0) throw new Error(`no bundled ${era} revision`);
  return found[found.length - 1]!;
}

/** Every wire-types file, formatted and bannered, paths relative to the wire directory, sorted. */
export async function renderRuntimeWire(): Promise<EmittedFile[]> {
  const files = await Promise.all(
    RUNTIME_WIRE.map(async (selection) => {
      const loaded = loadSchema(newestRevision(selection.era));
      const model = buildModel(loaded, {
        warn: (w) => {
          throw new Error(`${loaded.source.display}: ${w}`);
        },
      });
      const file = emitWireTypes(model, selection);
      const [printed] = await printFiles([file], loaded.source);
      return printed!;
    }),
  );
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Writes rendered wire types (render first, so a failure elsewhere leaves the directory untouched). */
export function writeRuntimeWire(
  files: readonly EmittedFile[],
  dir: string = runtimeWireDir,
): { written: boolean; files: string[] } {
  const { written } = commitOutput(dir, files, display);
  return { written, files: files.map((f) => f.path) };
}

/** What differs between `dir` and a fresh generation; problems as `runtime/src/wire/<file> (<kind>)`. */
export async function checkRuntimeWire(
  dir: string = runtimeWireDir,
): Promise<{ diff: OutputDiff; problems: string[] }> {
  const diff = compareOutput(dir, await renderRuntimeWire());
  const problems = (Object.entries(diff) as [keyof OutputDiff, string[]][]).flatMap(([kind, list]) =>
    list.map((f) => `${display}/${f} (${kind})`),
  );
  return { diff, problems: problems.sort() };
}
