/**
 * The contract commands (`diff`, `breaking`, `pull`, `verify`) registered on the CLI. Each action
 * loads its module lazily so `mcpgen generate` never pays for ts-morph or the runtime client.
 */
import type { CAC } from "cac";
import { usageError } from "../errors.js";

export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
  /** Sets the process exit code (1 = contract violated). */
  fail(code: 1): void;
}

type Flags = { [key: string]: unknown };

function str(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v === "") throw usageError(`--${name} needs a value`);
  return v;
}

/** Repeatable string flag (`--header a --header b`). */
function list(flags: Flags, name: string): string[] {
  const v = flags[name];
  if (v === undefined) return [];
  const all = Array.isArray(v) ? v : [v];
  return all.map((x) => {
    if (typeof x !== "string" || x === "") throw usageError(`--${name} needs a value`);
    return x;
  });
}

function num(flags: Flags, name: string): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : Number(v);
  if (!Number.isFinite(n) || n <= 0) throw usageError(`--${name} needs a positive number of milliseconds`);
  return n;
}

function connectionFlags(flags: Flags) {
  const stdio = str(flags, "stdio");
  const url = str(flags, "url");
  if ((stdio === undefined) === (url === undefined))
    throw usageError('give exactly one of --stdio "<command>" or --url <url>');
  const timeoutMs = num(flags, "timeout");
  return {
    ...(stdio === undefined ? {} : { stdio }),
    ...(url === undefined ? {} : { url }),
    headers: list(flags, "header"),
    env: list(flags, "env"),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

function withConnection(command: ReturnType<CAC["command"]>) {
  return command
    .option("--stdio <command>", "Spawn the server: a command line (quotes group words; no shell)")
    .option("--url <url>", "Server URL (Streamable HTTP, falling back to HTTP+SSE)")
    .option("--header <name:value>", "HTTP header on every request (repeatable)")
    .option("--env <KEY=VALUE>", "Environment variable for the --stdio child (repeatable)")
    .option("--timeout <ms>", "Per-request time limit (default 10000); the whole run is bounded too");
}

export function registerContractCommands(cli: CAC, io: CliIo): void {
  cli
    .command("diff <revA> <revB>", "What changed between two protocol revisions (bundled ids or schema.json paths)")
    .option("--manifest <file>", "Also list the changes that affect this server and its clients")
    .option("--json", "Print the stable JSON form")
    .action(async (revA: string, revB: string, flags: Flags) => {
      const { runDiff } = await import("./diff/index.js");
      const manifest = str(flags, "manifest");
      const r = runDiff({
        from: revA,
        to: revB,
        ...(manifest === undefined ? {} : { manifest }),
        warn: (w) => io.stderr(`warning: ${w}`),
      });
      process.stdout.write(flags.json ? r.json : r.text);
    });

  cli
    .command("breaking", "Exit 1 when the manifest breaks clients of an earlier one")
    .option(
      "--against <file|git-ref:path>",
      "The earlier manifest: a file, or a git revision and path (main:mcp.manifest.json)",
    )
    .option("--manifest <file>", "The current manifest (default: mcp.manifest.json, or the config's)")
    .option("--config <file>", "Config with breaking.ignore entries (default: mcpgen.config.json if present)")
    .option("--strict", "Warnings (a changed default or description, a tool turning destructive, ...) fail too")
    .option("--json", "Print the findings as JSON")
    .action(async (flags: Flags) => {
      const { runBreaking } = await import("./breaking/index.js");
      const against = str(flags, "against");
      if (against === undefined) throw usageError("--against <file | git-ref:path> is required");
      const manifest = str(flags, "manifest");
      const config = str(flags, "config");
      const r = await runBreaking({
        against,
        ...(manifest === undefined ? {} : { manifest }),
        ...(config === undefined ? {} : { config }),
        ...(flags.strict === true ? { strict: true } : {}),
      });
      process.stdout.write(flags.json ? r.json : r.text);
      if (r.breaking) io.fail(1);
    });

  withConnection(cli.command("pull", "Connect to a running server and write its manifest"))
    .option("--out <file>", "Manifest to write (default: mcp.manifest.json)")
    .option(
      "--client <dir>",
      "Also generate the typed client (and server) from the pulled manifest into this directory",
    )
    .action(async (flags: Flags) => {
      const { runPull } = await import("./pull/index.js");
      const out = str(flags, "out") ?? "mcp.manifest.json";
      const client = str(flags, "client");
      const r = await runPull({
        ...connectionFlags(flags),
        out,
        ...(client === undefined ? {} : { client }),
        log: io.stderr,
      });
      io.stdout(r.summary);
    });

  withConnection(cli.command("verify", "Check a running server against its manifest"))
    .option("--manifest <file>", "The manifest (default: mcp.manifest.json)")
    .option(
      "--lenient",
      "Tool schemas that are not valid JSON Schema (as pulled from a server) are warnings, not errors",
    )
    .option("--json", "Print the report as JSON")
    .action(async (flags: Flags) => {
      const { runVerify } = await import("./verify/index.js");
      const manifest = str(flags, "manifest") ?? "mcp.manifest.json";
      const r = await runVerify({
        ...connectionFlags(flags),
        manifest,
        ...(flags.lenient === true ? { lenient: true } : {}),
      });
      process.stdout.write(flags.json ? r.json : r.text);
      if (!r.ok) io.fail(1);
    });
}
