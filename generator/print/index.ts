import { mcpgenVersion } from "../paths.js";
import type { EmittedFile, SchemaSource } from "../model/ir.js";
import { banner } from "./banner.js";
import { parserFor } from "./format.js";
import { formatInPool } from "./pool.js";

export { banner, bannerPattern, hasBanner } from "./banner.js";
export { formatSource, parserFor, prettierOptions } from "./format.js";
export { closeFormatPool, warmFormatPool } from "./pool.js";

/**
 * Banner (where the format has comments) + one prettier pass over each file; order and paths
 * unchanged. Paths in `preformatted` only get the banner: their emitters lay them out as prettier
 * would (tests prove the pass a no-op) or they are machine code, and prettier is by far the most
 * expensive stage on large outputs.
 */
export async function printFiles(
  files: readonly EmittedFile[],
  source: SchemaSource,
  version: string = mcpgenVersion,
  preformatted: ReadonlySet<string> = new Set(),
): Promise<EmittedFile[]> {
  const head = banner(version, source);
  return Promise.all(
    files.map(async (f) => {
      const withBanner = parserFor(f.path) === "json" ? f.contents : `${head}\n${f.contents}`;
      if (preformatted.has(f.path)) return { path: f.path, contents: withBanner };
      return { path: f.path, contents: await formatInPool(f.path, withBanner) };
    }),
  );
}
