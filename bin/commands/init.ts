/** `mcpgen init`: scaffold a project that builds and serves (generator/init.ts), then say what to run next. */
import type { CAC } from "cac";
import { stdout, stringFlag, type Flags } from "../cli-io.js";
import type { DeployTarget } from "../../generator/config.js";

export function registerInit(cli: CAC): void {
  cli
    .command(
      "init",
      "Scaffold an MCP server here: manifest, handlers, stdio and HTTP entry points, config, tsconfig, npm scripts (never overwrites)",
    )
    .option("--name <name>", "Server name in the manifest (default: package.json's name or the directory's)")
    .option("--out <dir>", "Where `mcpgen generate` writes, under src/ (default: src/mcp)")
    .option(
      "--target <target>",
      "Where it runs: node (stdio and node:http), workers (Cloudflare Workers, wrangler.jsonc), bun (Bun.serve) or deno (Deno.serve) (default: node)",
    )
    .option(
      "-y, --yes",
      'In an existing project, make the changes it needs (package.json "type", tsconfig.json outDir, rootDir, types, module) instead of listing them',
    )
    .action(async (flags: Flags) => {
      const { initProject } = await import("../../generator/init.js");
      const name = stringFlag(flags, "name");
      const out = stringFlag(flags, "out");
      const target = stringFlag(flags, "target");
      const result = initProject({
        dir: process.cwd(),
        yes: flags.yes === true,
        ...(name === undefined ? {} : { name }),
        ...(out === undefined ? {} : { out }),
        ...(target === undefined ? {} : { target: target as DeployTarget }),
      });
      for (const file of result.written) stdout(`created ${file}`);
      for (const file of result.updated) stdout(`updated ${file}`);
      for (const note of result.notes) stdout(`note: ${note}`);
      stdout("");
      stdout("next:");
      for (const command of result.next) stdout(`  ${command}`);
    });
}
