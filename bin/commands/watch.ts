/**
 * `mcpgen watch` (and `mcpgen generate --watch`): regenerate on every manifest, schema or config
 * change until interrupted. `--with "<command>"` runs a companion (typically `tsc --watch`) for as
 * long as watching goes on, so one npm script covers the whole edit loop on every platform.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { CAC } from "cac";
import { McpgenError } from "../../generator/errors.js";
import type { GenerateResult } from "../../generator/generate.js";
import { resolve } from "node:path";
import { apiOptions, stderr, stdout, stringFlag, UsageError, type Flags } from "../cli-io.js";
import { runExtract } from "./extract.js";

export function printGenerated(result: GenerateResult): void {
  for (const t of result.targets) {
    const what = t.written ? `wrote ${t.files.length} files` : "up to date";
    stdout(`${t.out}: ${what} (${t.schema}, revision ${t.revision}${t.cached ? ", cached" : ""})`);
  }
}

/** Runs until SIGINT/SIGTERM (or the companion exits); resolves to the exit code. */
export async function runWatch(flags: Flags): Promise<number> {
  const debounceMs = flags.debounce === undefined ? 100 : Number(flags.debounce); // cac parses numbers
  if (!Number.isInteger(debounceMs) || debounceMs < 0 || debounceMs > 60_000)
    throw new UsageError("--debounce must be a whole number of milliseconds, 0-60000");
  const companion = stringFlag(flags, "with");
  const { watchGenerate } = await import("../../generator/watch.js");
  const controller = new AbortController();
  let child: ChildProcess | undefined;
  let exitCode = 0;
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let first = true;
  // Code first: every run re-extracts the manifest, and the handlers module (and the project files
  // it imports) are watched along with the manifest.
  const from = stringFlag(flags, "from");
  if (from !== undefined && flags.out !== undefined)
    flags.manifest = stringFlag(flags, "manifest") ?? "mcp.manifest.json";
  const codeFirst =
    from === undefined
      ? {}
      : {
          prepare: async () => (await runExtract(flags, stringFlag(flags, "manifest"))).sources,
          extraInputs: [resolve(from)],
        };
  await watchGenerate({
    ...apiOptions(flags),
    ...codeFirst,
    debounceMs,
    signal: controller.signal,
    report: (event) => {
      if (event.kind === "generated") printGenerated(event.result);
      else if (event.kind === "watching")
        stdout(`watching ${event.files.length} input file(s) for changes (Ctrl-C to stop)`);
      else {
        const e = event.error;
        if (process.env.MCPGEN_DEBUG && e instanceof Error) stderr(e.stack ?? String(e));
        stderr(
          e instanceof McpgenError
            ? `mcpgen: ${e.message}`
            : `mcpgen: internal error: ${e instanceof Error ? e.message : String(e)}`,
        );
        stderr("mcpgen: the previous output is unchanged; waiting for the next change");
      }
      if (first && event.kind !== "watching" && companion !== undefined) {
        // after the first run, so the companion starts with the generated files in place
        child = spawn(companion, { shell: true, stdio: "inherit", detached: process.platform !== "win32" });
        child.on("exit", (code, signal) => {
          if (controller.signal.aborted) return;
          stderr(`mcpgen: ${JSON.stringify(companion)} exited (${signal ?? `code ${code}`}); stopping`);
          exitCode = code ?? 1;
          stop();
        });
      }
      if (event.kind !== "watching") first = false;
    },
  });
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  if (child && child.exitCode === null && child.signalCode === null) {
    try {
      // the companion runs under a shell: end its whole process group
      if (process.platform !== "win32" && child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
      else child.kill("SIGTERM");
    } catch {
      // already gone
    }
  }
  return exitCode;
}

type Command = ReturnType<CAC["command"]>;

/** The options of watch mode, on `watch` and on `generate` (with --watch). */
export function watchOptions(command: Command): Command {
  return command
    .option("--debounce <ms>", "Watch mode: quiet period after a change before regenerating (default 100)")
    .option("--with <command>", 'Watch mode: also run this command while watching, e.g. "tsc --watch"');
}

export function registerWatch(
  cli: CAC,
  withTargetOptions: (c: Command) => Command,
  setExit: (code: number) => void,
): void {
  watchOptions(
    withTargetOptions(
      cli.command(
        "watch",
        "Generate, then regenerate whenever the manifest, schema or config changes (same as generate --watch)",
      ),
    ),
  )
    .option(
      "--from <src.ts>",
      "Code first: re-extract the manifest from typed handlers on every change of the module or what it imports",
    )
    .option("--name <name>", "With --from: server name (default: the nearest package.json's name)")
    .action(async (flags: Flags) => setExit(await runWatch(flags)));
}
