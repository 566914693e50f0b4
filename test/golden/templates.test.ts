// Golden output of the facade templates: test/fixtures/templates/mcp.manifest.json takes every
// branch of templates/facades/*.hbs (cache, scopes, tasks, completions, optional arguments, a
// resource section with templates, a comment terminator in names); its generated folder is
// checked in and must be reproduced byte for byte, and it compiles under strict tsc.
// After an intended change: `npm run templates:golden`.
import { cpSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { root, tscStrict } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const golden = join("test", "fixtures", "templates", "golden");

test("test/fixtures/templates/golden is what the templates render today (mcpgen check)", () => {
  const r = spawnSync(
    process.execPath,
    [
      join(root, "dist", "bin", "mcpgen.js"),
      "check",
      "--manifest",
      "test/fixtures/templates/mcp.manifest.json",
      "--out",
      golden,
      "--no-cache",
    ],
    { cwd: root, encoding: "utf8", timeout: 120_000 },
  );
  assert.is(r.status, 0, `${r.stdout}${r.stderr}\nregenerate with: npm run templates:golden`);
});

test("the golden facades compile under strict tsc", () => {
  const dir = tempDir("templates-golden-");
  try {
    cpSync(join(root, golden), dir, { recursive: true });
    const out = tscStrict(dir, ["server.ts", "client.ts"]);
    assert.is(out.code, 0, out.output);
  } finally {
    removeDir(dir);
  }
});

test.run();
