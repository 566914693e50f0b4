#!/usr/bin/env node
/**
 * The `mcpgen` CLI: parses flags, calls the generator API, maps errors to exit codes
 * (0 ok, 1 check failed or input invalid, 2 usage error). Never prints a stack trace unless
 * MCPGEN_DEBUG is set.
 */
import { cac } from "cac";
import { McpgenError } from "../generator/errors.js";
import { check, generate, type GenerateOptions } from "../generator/generate.js";
import { bundledRevisions, readSchemaManifest } from "../generator/load/schema-manifest.js";
import { mcpgenVersion } from "../generator/paths.js";

interface Flags {
  from?: unknown;
  schema?: unknown;
  manifest?: unknown;
  name?: unknown;
  out?: unknown;
  revision?: unknown;
  config?: unknown;
  cache?: unknown;
}

const stdout = (line: string) => process.stdout.write(line + "\n");
const stderr = (line: string) => process.stderr.write(line + "\n");

class UsageError extends Error {}

function stringFlag(flags: Flags, name: keyof Flags): string | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} needs a value`);
  return v;
}

function apiOptions(flags: Flags): GenerateOptions {
  const options: GenerateOptions = { warn: (w) => stderr(`warning: ${w}`) };
  const schema = stringFlag(flags, "schema");
  const manifest = stringFlag(flags, "manifest");
  const out = stringFlag(flags, "out");
  const revision = stringFlag(flags, "revision");
  const config = stringFlag(flags, "config");
  if (schema !== undefined) options.schema = schema;
  if (manifest !== undefined) options.manifest = manifest;
  if (out !== undefined) options.out = out;
  if (revision !== undefined) options.revision = revision;
  if (config !== undefined) options.config = config;
  if (flags.cache === false) options.cache = false;
  else if (process.env.MCPGEN_CACHE_DIR) options.cache = process.env.MCPGEN_CACHE_DIR;
  return options;
}

const cli = cac("mcpgen");

function targetOptions(command: ReturnType<typeof cli.command>) {
  return command
    .option("--schema <revision|path>", `Bundled revision (${bundledRevisions().join(", ")}) or path to a schema.json`)
    .option("--manifest <file>", "Server manifest (mcp.manifest.json): typed tool/prompt/template types, validators, list payloads")
    .option("--out <dir>", "Output directory (replaced as a whole)")
    .option("--revision <id>", "Revision id of an unbundled schema whose directory does not name it")
    .option("--config <file>", "Config file (default: mcpgen.config.json in the current directory, if present)")
    .option("--no-cache", "Do not read or write the output cache (.mcpgen-cache/, or $MCPGEN_CACHE_DIR)");
}

let exitCode = 0;

targetOptions(cli.command("generate", "Generate protocol bindings (all bundled revisions into generated/<rev>/ by default)"))
  .option("--from <src.ts>", "Code first: extract the manifest (written to --manifest, default mcp.manifest.json) from typed handlers, then generate")
  .option("--name <name>", "With --from: server name (default: the nearest package.json's name)")
  .action(async (flags: Flags) => {
    if (flags.from !== undefined) flags.manifest = (await runExtract(flags, stringFlag(flags, "manifest"))).manifest;
    const result = await generate(apiOptions(flags));
    for (const t of result.targets) {
      const what = t.written ? `wrote ${t.files.length} files` : "up to date";
      stdout(`${t.out}: ${what} (${t.schema}, revision ${t.revision}${t.cached ? ", cached" : ""})`);
    }
  });

targetOptions(cli.command("check", "Exit 1 and list the files that `mcpgen generate` would change; writes nothing"))
  .option("--from <src.ts>", "Code first: also check that --manifest (default mcp.manifest.json) is what extract derives")
  .option("--name <name>", "With --from: server name (default: the nearest package.json's name)")
  .action(async (flags: Flags) => {
    const extracted = flags.from === undefined ? undefined : await runCheckExtracted(flags);
    const own = extracted?.problem ? [`${extracted.manifest} (${extracted.problem})`] : [];
    if (extracted) flags.manifest = extracted.manifest;
    const result = extracted?.problem === "missing" ? { ok: false, targets: [], problems: [] } : await check(apiOptions(flags));
    if (result.ok && own.length === 0) {
      stdout(`fresh: ${[...(extracted ? [extracted.manifest] : []), ...result.targets.map((t) => t.out)].join(", ")}`);
      return;
    }
    for (const p of [...own, ...result.problems]) stderr(`stale: ${p}`);
    stderr(`${own.length + result.problems.length} generated file(s) out of date; run \`mcpgen generate\` with the same options`);
    exitCode = 1;
  });

cli
  .command("init", "Write a starter mcp.manifest.json and src/handlers.ts in the current directory (never overwrites)")
  .option("--name <name>", "Server name in the manifest (default: my-server)")
  .option("--out <dir>", "Where `mcpgen generate --manifest` will write, under src/ (default: src/mcp)")
  .action(async (flags: Flags) => {
    const { initProject } = await import("../generator/init.js");
    const name = stringFlag(flags, "name");
    const out = stringFlag(flags, "out");
    const result = initProject({ dir: process.cwd(), ...(name === undefined ? {} : { name }), ...(out === undefined ? {} : { out }) });
    for (const file of result.written) stdout(`wrote ${file}`);
    stdout(`next: npx mcpgen generate --manifest mcp.manifest.json --out ${out ?? "src/mcp"}`);
  });

async function runExtract(flags: Flags, out: string | undefined) {
  const from = stringFlag(flags, "from");
  if (from === undefined) throw new UsageError("--from <src.ts> is required");
  const name = stringFlag(flags, "name");
  const { extractCommand } = await import("../generator/extract/command.js");
  const r = await extractCommand({ from, ...(out === undefined ? {} : { out }), ...(name === undefined ? {} : { name }), warn: (w) => stderr(`warning: ${w}`) });
  stdout(`${r.manifest}: ${r.written ? "wrote" : "up to date"} (${r.tools} tools, extracted from ${from})`);
  return r;
}

async function runCheckExtracted(flags: Flags) {
  const from = stringFlag(flags, "from")!;
  const name = stringFlag(flags, "name");
  const out = stringFlag(flags, "manifest");
  const { checkExtracted } = await import("../generator/extract/command.js");
  return checkExtracted({ from, ...(out === undefined ? {} : { out }), ...(name === undefined ? {} : { name }), warn: (w) => stderr(`warning: ${w}`) });
}

cli
  .command("extract", "Code first: write mcp.manifest.json from a TypeScript module of typed handlers (see docs/code-first.md)")
  .option("--from <src.ts>", "The handlers module: exported tools/prompts/resources objects, or exported functions (tools)")
  .option("--out <file>", "Manifest to write (default: mcp.manifest.json)")
  .option("--name <name>", "Server name (default: the nearest package.json's name)")
  .action(async (flags: Flags) => void (await runExtract(flags, stringFlag(flags, "out"))));

cli.command("schemas", "List the bundled protocol revisions with their sha256").action(() => {
  const files = readSchemaManifest().files;
  for (const rev of bundledRevisions()) stdout(`${rev}  sha256 ${files[`${rev}/schema.json`]?.sha256 ?? "?"}`);
});

cli.option("-v, --version", "Print the mcpgen version");
cli.help();

async function main(): Promise<number> {
  try {
    cli.parse(process.argv, { run: false });
    if (cli.options.help) return 0;
    if (cli.options.version) {
      stdout(mcpgenVersion);
      return 0;
    }
    if (!cli.matchedCommand) {
      const name = cli.args[0];
      stderr(name === undefined ? "mcpgen: no command given" : `mcpgen: unknown command ${JSON.stringify(name)}`);
      stderr("Run `mcpgen --help` for usage.");
      return 2;
    }
    await cli.runMatchedCommand();
    return exitCode;
  } catch (e) {
    if (process.env.MCPGEN_DEBUG && e instanceof Error) stderr(e.stack ?? String(e));
    if (e instanceof McpgenError) {
      stderr(`mcpgen: ${e.message}`);
      return e.exitCode;
    }
    if (e instanceof UsageError || (e instanceof Error && e.name === "CACError")) {
      stderr(`mcpgen: ${(e as Error).message}`);
      stderr("Run `mcpgen --help` for usage.");
      return 2;
    }
    stderr(`mcpgen: internal error: ${e instanceof Error ? e.message : String(e)} (set MCPGEN_DEBUG=1 for details)`);
    return 1;
  }
}

process.exitCode = await main();
