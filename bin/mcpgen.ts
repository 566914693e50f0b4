#!/usr/bin/env node
/**
 * The `mcpgen` CLI: parses flags, calls the generator API, maps errors to exit codes
 * (0 ok, 1 check failed or input invalid, 2 usage error). Never prints a stack trace unless
 * MCPGEN_DEBUG is set.
 */
import { cac } from "cac";
import { DEPLOY_TARGETS } from "../generator/config.js";
import { McpgenError } from "../generator/errors.js";
import { check, generate } from "../generator/generate.js";
import { bundledRevisions, readSchemaManifest } from "../generator/load/schema-manifest.js";
import { mcpgenVersion } from "../generator/paths.js";
import { apiOptions, stderr, stdout, stringFlag, UsageError, type Flags } from "./cli-io.js";
import { registerContractCommands } from "../generator/contract/cli.js";
import { registerBundled } from "./commands/bundled.js";
import { registerExtract, runCheckExtracted, runExtract } from "./commands/extract.js";
import { registerInit } from "./commands/init.js";
import { printGenerated, registerWatch, runWatch, watchOptions } from "./commands/watch.js";

const cli = cac("mcpgen");

function targetOptions(command: ReturnType<typeof cli.command>) {
  return command
    .option("--schema <revision|path>", `Bundled revision (${bundledRevisions().join(", ")}) or path to a schema.json`)
    .option(
      "--manifest <file>",
      "Server manifest (mcp.manifest.json): typed tool/prompt/template types, validators, list payloads",
    )
    .option("--out <dir>", "Output directory (replaced as a whole)")
    .option("--revision <id>", "Revision id of an unbundled schema whose directory does not name it")
    .option(
      "--target <target>",
      `Where the generated code runs: ${DEPLOY_TARGETS.join(", ")} (default: the config's "target", else node; workers imports the generated parts statically, for one bundled file)`,
    )
    .option(
      "--config <file>",
      "Config file (default: mcpgen.config.{json,ts,js,mjs} in the current directory, if present)",
    )
    .option(
      "--lenient",
      "A manifest's tool schemas that are not valid JSON Schema are warnings, not errors (schemas captured from servers)",
    )
    .option("--no-cache", "Do not read or write the output cache (.mcpgen-cache/, or $MCPGEN_CACHE_DIR)");
}

let exitCode = 0;

const setExit = (code: number) => void (exitCode = code);

watchOptions(
  targetOptions(
    cli.command(
      "generate",
      "Generate typed bindings (default: mcpgen.config.*, else ./mcp.manifest.json into src/mcp)",
    ),
  ),
)
  .option("--watch", "Keep running and regenerate on every input change (see `mcpgen watch`)")
  .option(
    "--from <src.ts>",
    "Code first: extract the manifest (written to --manifest, default mcp.manifest.json) from typed handlers, then generate",
  )
  .option("--name <name>", "With --from: server name (default: the nearest package.json's name)")
  .action(async (flags: Flags) => {
    if (flags.watch) return setExit(await runWatch(flags));
    if (flags.from !== undefined) {
      const { manifest } = await runExtract(flags, stringFlag(flags, "manifest"));
      // With explicit targets the extracted manifest is the target; without any, user mode
      // generates ./mcp.manifest.json (where extract wrote it) into src/mcp.
      if (flags.out !== undefined) flags.manifest = manifest;
    }
    printGenerated(await generate(apiOptions(flags)));
  });

targetOptions(cli.command("check", "Exit 1 and list the files that `mcpgen generate` would change; writes nothing"))
  .option(
    "--from <src.ts>",
    "Code first: also check that --manifest (default mcp.manifest.json) is what extract derives",
  )
  .option("--name <name>", "With --from: server name (default: the nearest package.json's name)")
  .action(async (flags: Flags) => {
    const extracted = flags.from === undefined ? undefined : await runCheckExtracted(flags);
    const own = extracted?.problem ? [`${extracted.manifest} (${extracted.problem})`] : [];
    if (extracted) flags.manifest = extracted.manifest;
    const result =
      extracted?.problem === "missing" ? { ok: false, targets: [], problems: [] } : await check(apiOptions(flags));
    if (result.ok && own.length === 0) {
      stdout(`fresh: ${[...(extracted ? [extracted.manifest] : []), ...result.targets.map((t) => t.out)].join(", ")}`);
      return;
    }
    for (const p of [...own, ...result.problems]) stderr(`stale: ${p}`);
    stderr(
      `${own.length + result.problems.length} generated file(s) out of date; run \`mcpgen generate\` with the same options`,
    );
    exitCode = 1;
  });

registerWatch(cli, targetOptions, setExit);
registerInit(cli);
registerBundled(cli, setExit);
registerExtract(cli);
registerContractCommands(cli, { stdout, stderr, fail: setExit });

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
