/**
 * `mcpgen extract --from src/tools.ts [--out mcp.manifest.json]` and the extraction step of
 * `mcpgen generate --from ...`: extract, report warnings, write the manifest only when it
 * changed (through a temporary file). On any error nothing is written.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { formatWarning } from "../load/diagnostics.js";
import { extractManifest, writeManifest } from "./index.js";

export interface ExtractCommandOptions {
  from: string;
  /** Manifest path (default mcp.manifest.json). */
  out?: string;
  name?: string;
  cwd?: string;
  warn?: (message: string) => void;
}

export async function extractCommand(
  options: ExtractCommandOptions,
): Promise<{ manifest: string; written: boolean; tools: number; sources: string[] }> {
  const cwd = options.cwd ?? process.cwd();
  const result = await extractManifest(options.from, {
    cwd,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  for (const w of result.warnings) options.warn?.(formatWarning(w));
  const out = resolve(cwd, options.out ?? "mcp.manifest.json");
  const written = writeManifest(out, result.text);
  const tools = Array.isArray(result.manifest.tools) ? result.manifest.tools.length : 0;
  return { manifest: relative(cwd, out).split("\\").join("/"), written, tools, sources: result.sources };
}

/**
 * `mcpgen check --from src/notes.ts`: is the manifest on disk what `extract` derives today?
 * Writes nothing; "missing" / "stale" name the manifest's state, undefined when fresh.
 */
export async function checkExtracted(
  options: ExtractCommandOptions,
): Promise<{ manifest: string; problem?: "missing" | "stale" }> {
  const cwd = options.cwd ?? process.cwd();
  const result = await extractManifest(options.from, {
    cwd,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  for (const w of result.warnings) options.warn?.(formatWarning(w));
  const out = resolve(cwd, options.out ?? "mcp.manifest.json");
  const manifest = relative(cwd, out).split("\\").join("/");
  if (!existsSync(out)) return { manifest, problem: "missing" };
  return readFileSync(out, "utf8") === result.text ? { manifest } : { manifest, problem: "stale" };
}
