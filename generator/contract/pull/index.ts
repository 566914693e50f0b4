/**
 * `mcpgen pull`: connect to a running server, write its manifest (atomically: a temporary
 * sibling renamed into place, so a failure leaves the previous file untouched), and with
 * `--client` generate the typed client from it through the ordinary `generate` pipeline.
 */
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { McpgenError } from "../../errors.js";
import { formatWarning } from "../../load/diagnostics.js";
import type { ConnectOptions } from "../connect.js";
import { snapshotToManifest } from "./manifest.js";
import { takeSnapshot } from "./snapshot.js";

export interface PullOptions extends ConnectOptions {
  /** Manifest file to write. */
  out: string;
  /** Directory to generate the typed server and client into. */
  client?: string;
  cwd?: string;
  /** Progress and problems, one line each (the CLI prints them on stderr). */
  log?: (line: string) => void;
}

export interface PullResult {
  /** Path written, relative to cwd. */
  out: string;
  text: string;
  problems: string[];
  revisions: string[];
  counts: { tools: number; prompts: number; resources: number; resourceTemplates: number };
  /** How many entries the server listed, per section (more than `counts` when some were left out). */
  listed: { tools: number; prompts: number; resources: number; resourceTemplates: number };
  summary: string;
}

/** Writes `text` to `path` via a temporary file in the same directory and a rename. */
function writeAtomically(path: string, text: string): void {
  const tmp = join(dirname(path), `.${randomBytes(6).toString("hex")}.mcpgen-tmp`);
  try {
    writeFileSync(tmp, text, { flag: "wx" });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new McpgenError(`cannot write: ${(e as Error).message}`, { file: path });
  }
}

export async function runPull(options: PullOptions): Promise<PullResult> {
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? (() => {});
  const outPath = resolve(cwd, options.out);
  const display = relative(cwd, outPath) || options.out;
  const snapshot = await takeSnapshot(options, log);
  const pulled = snapshotToManifest(snapshot, display);
  for (const p of pulled.problems) log(`problem: ${p}`);
  writeAtomically(outPath, pulled.text);
  const m = pulled.loaded.manifest;
  const counts = {
    tools: m.tools?.length ?? 0,
    prompts: m.prompts?.length ?? 0,
    resources: m.resources?.length ?? 0,
    resourceTemplates: m.resourceTemplates?.length ?? 0,
  };
  const listed = snapshot.listed ?? counts;
  // Fewer entries written than the server listed is never silent.
  const leftOut = (["tools", "prompts", "resources", "resourceTemplates"] as const).flatMap((k) =>
    listed[k] > counts[k] ? [`${listed[k] - counts[k]} of the ${listed[k]} ${k} listed`] : [],
  );
  let summary =
    `wrote ${display}: ${m.name} ${m.version}, revisions ${snapshot.revisions.join(", ")}; ` +
    `${counts.tools} tools, ${counts.prompts} prompts, ${counts.resources} resources, ${counts.resourceTemplates} templates` +
    (leftOut.length ? `; left out: ${leftOut.join(", ")}` : "") +
    (pulled.problems.length ? `; ${pulled.problems.length} problem(s) reported` : "");
  if (options.client !== undefined) {
    const { generate } = await import("../../generate.js");
    // lenient like the load above: the schemas are the server's, reported already, as are the
    // loader's warnings (generate finds them again in the same text: printed once)
    const reported = new Set(pulled.loaded.diagnostics.map(formatWarning));
    const warn = (w: string) => void (reported.has(w) || log(`warning: ${w}`));
    const r = await generate({
      manifest: outPath,
      out: resolve(cwd, options.client),
      cwd,
      config: false,
      lenient: true,
      warn,
    });
    summary += `\n${r.targets.map((t) => `${t.out}: ${t.written ? `wrote ${t.files.length} files` : "up to date"}`).join("\n")}`;
  }
  return {
    out: display,
    text: pulled.text,
    problems: pulled.problems,
    revisions: snapshot.revisions,
    counts,
    listed,
    summary,
  };
}
