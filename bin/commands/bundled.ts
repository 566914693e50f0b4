/**
 * Maintainer commands: build and check the protocol bindings bundled in the mcpgen package itself
 * (`generated/<rev>/` of every bundled revision) and the runtime's wire types generated from the
 * bundled schemas (`runtime/src/wire/`). Users never need them; they say so, and refuse
 * to touch an installed copy of mcpgen.
 */
import type { CAC } from "cac";
import { check, generate } from "../../generator/generate.js";
import { packageRoot } from "../../generator/paths.js";
import { checkRuntimeWire, renderRuntimeWire, writeRuntimeWire } from "../../generator/render/runtime-wire.js";
import { stderr, stdout, UsageError } from "../cli-io.js";
import { printGenerated } from "./watch.js";

function maintainerOnly(): void {
  if (packageRoot.split(/[\\/]/).includes("node_modules")) {
    throw new UsageError(
      `this is a maintainer command for a clone of the mcpgen repository; ${packageRoot} is an installed package`,
    );
  }
  stdout(`maintainer: mcpgen's own bundled bindings in ${packageRoot}/generated/<revision>/`);
}

export function registerBundled(cli: CAC, setExit: (code: number) => void): void {
  cli
    .command(
      "generate-bundled",
      "Maintainers: regenerate mcpgen's own generated/<rev>/ for every bundled revision, and runtime/src/wire/",
    )
    .action(async () => {
      maintainerOnly();
      const wireFiles = await renderRuntimeWire();
      printGenerated(await generate({ bundled: true, warn: (w) => stderr(`warning: ${w}`) }));
      const wire = writeRuntimeWire(wireFiles);
      stdout(`${wire.written ? "wrote" : "unchanged"} runtime/src/wire: ${wire.files.join(", ")}`);
    });
  cli
    .command("check-bundled", "Maintainers: exit 1 when mcpgen's own generated/<rev>/ or runtime/src/wire/ is stale")
    .action(async () => {
      maintainerOnly();
      const result = await check({ bundled: true, warn: (w) => stderr(`warning: ${w}`) });
      const wire = await checkRuntimeWire();
      const problems = [...result.problems, ...wire.problems];
      if (problems.length === 0)
        return stdout(`fresh: ${[...result.targets.map((t) => t.out), "runtime/src/wire"].join(", ")}`);
      for (const p of problems) stderr(`stale: ${p}`);
      stderr(`${problems.length} bundled file(s) out of date; run \`node dist/bin/mcpgen.js generate-bundled\``);
      setExit(1);
    });
}
