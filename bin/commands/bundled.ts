/**
 * Maintainer commands: build and check the protocol bindings bundled in the mcpgen package itself
 * (`generated/<rev>/` of every bundled revision). Users never need them; they say so, and refuse
 * to touch an installed copy of mcpgen.
 */
import type { CAC } from "cac";
import { check, generate } from "../../generator/generate.js";
import { packageRoot } from "../../generator/paths.js";
import { stderr, stdout, UsageError } from "../cli-io.js";
import { printGenerated } from "./watch.js";

function maintainerOnly(): void {
  if (packageRoot.split(/[\\/]/).includes("node_modules")) {
    throw new UsageError(`this is a maintainer command for a clone of the mcpgen repository; ${packageRoot} is an installed package`);
  }
  stdout(`maintainer: mcpgen's own bundled bindings in ${packageRoot}/generated/<revision>/`);
}

export function registerBundled(cli: CAC, setExit: (code: number) => void): void {
  cli.command("generate-bundled", "Maintainers: regenerate mcpgen's own generated/<rev>/ for every bundled revision").action(async () => {
    maintainerOnly();
    printGenerated(await generate({ bundled: true, warn: (w) => stderr(`warning: ${w}`) }));
  });
  cli.command("check-bundled", "Maintainers: exit 1 when mcpgen's own generated/<rev>/ is stale").action(async () => {
    maintainerOnly();
    const result = await check({ bundled: true, warn: (w) => stderr(`warning: ${w}`) });
    if (result.ok) return stdout(`fresh: ${result.targets.map((t) => t.out).join(", ")}`);
    for (const p of result.problems) stderr(`stale: ${p}`);
    stderr(`${result.problems.length} bundled file(s) out of date; run \`node dist/bin/mcpgen.js generate-bundled\``);
    setExit(1);
  });
}
