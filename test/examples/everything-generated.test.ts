// The "everything" example's generated code (examples/everything/src/mcp) is what the manifest
// generates today: `mcpgen check --manifest` finds nothing stale.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";

test("examples/everything/src/mcp is fresh", () => {
  const r = runCli(
    [
      "check",
      "--no-cache",
      "--manifest",
      "examples/everything/mcp.manifest.json",
      "--out",
      "examples/everything/src/mcp",
    ],
    repoRoot,
  );
  assert.is(
    r.status,
    0,
    `${r.stdout}${r.stderr}\nregenerate: node dist/bin/mcpgen.js generate --manifest examples/everything/mcp.manifest.json --out examples/everything/src/mcp`,
  );
});

test.run();
