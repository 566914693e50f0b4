/** `mcpgen extract` and the `--from` step of `mcpgen generate`: code first, typed handlers -> manifest. */
import type { CAC } from "cac";
import { stderr, stdout, stringFlag, UsageError, type Flags } from "../cli-io.js";

/** Extract the manifest of `--from` into `out` (default mcp.manifest.json); prints what happened. */
export async function runExtract(flags: Flags, out: string | undefined) {
  const from = stringFlag(flags, "from");
  if (from === undefined) throw new UsageError("--from <src.ts> is required");
  const name = stringFlag(flags, "name");
  const { extractCommand } = await import("../../generator/extract/command.js");
  const r = await extractCommand({
    from,
    ...(out === undefined ? {} : { out }),
    ...(name === undefined ? {} : { name }),
    warn: (w) => stderr(`warning: ${w}`),
  });
  stdout(`${r.manifest}: ${r.written ? "wrote" : "up to date"} (${r.tools} tools, extracted from ${from})`);
  return r;
}

/** `check --from`: whether the manifest is what extract derives today (writes nothing). */
export async function runCheckExtracted(flags: Flags) {
  const from = stringFlag(flags, "from");
  if (from === undefined) throw new UsageError("--from <src.ts> is required");
  const name = stringFlag(flags, "name");
  const out = stringFlag(flags, "manifest");
  const { checkExtracted } = await import("../../generator/extract/command.js");
  return checkExtracted({
    from,
    ...(out === undefined ? {} : { out }),
    ...(name === undefined ? {} : { name }),
    warn: (w) => stderr(`warning: ${w}`),
  });
}

export function registerExtract(cli: CAC): void {
  cli
    .command(
      "extract",
      "Code first: write mcp.manifest.json from a TypeScript module of typed handlers (see docs/code-first.md)",
    )
    .option(
      "--from <src.ts>",
      "The handlers module: exported tools/prompts/resources objects, or exported functions (tools)",
    )
    .option("--out <file>", "Manifest to write (default: mcp.manifest.json)")
    .option("--name <name>", "Server name (default: the nearest package.json's name)")
    .action(async (flags: Flags) => void (await runExtract(flags, stringFlag(flags, "out"))));
}
