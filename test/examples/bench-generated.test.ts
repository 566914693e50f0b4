// `npm run bench` measures the server and typed client mcpgen generates from bench/add/*.manifest.json;
// the checked-in output (bench/add/<variant>/) is what those manifests generate today.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";

for (const variant of ["text", "structured"]) {
  test(`bench/add/${variant} is fresh`, () => {
    const args = ["--manifest", `bench/add/${variant}.manifest.json`, "--out", `bench/add/${variant}`];
    const r = runCli(["check", "--no-cache", ...args], repoRoot);
    assert.is(r.status, 0, `${r.stdout}${r.stderr}\nregenerate: node dist/bin/mcpgen.js generate ${args.join(" ")}`);
  });
}

test.run();
