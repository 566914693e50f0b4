import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { check, generate } from "../../generator/generate.js";
import { listFiles } from "../../generator/write/compare.js";
import { repoRoot, revisions, tempDir } from "../helpers.js";

// Golden: generated/ is checked in; regenerating every bundled revision from scratch (no cache)
// must reproduce it byte for byte. After an intended change: `node dist/bin/mcpgen.js generate-bundled`.
test("regenerating all five revisions reproduces generated/ byte for byte", async () => {
  const { dir, cleanup } = tempDir("mcpgen-golden-");
  try {
    const config = join(dir, "targets.json");
    writeFileSync(config, JSON.stringify({ targets: revisions.map((r) => ({ schema: r, out: r })) }));
    // A fresh cache directory: everything is generated from scratch, and `check` below reuses it.
    const cache = join(dir, "cache");
    const result = await generate({ cwd: dir, config, cache });
    assert.equal(result.targets.map((t) => t.revision), [...revisions]);
    assert.ok(result.targets.every((t) => !t.cached));
    for (const rev of revisions) {
      const fresh = join(dir, rev);
      const golden = join(repoRoot, "generated", rev);
      const files = listFiles(fresh);
      assert.ok(files.length >= 4, `${rev}: ${files.join(", ")}`);
      assert.equal(listFiles(golden), files, `${rev}: file list (run \`node dist/bin/mcpgen.js generate-bundled\`)`);
      for (const f of files) {
        const want = readFileSync(join(golden, f), "utf8");
        const got = readFileSync(join(fresh, f), "utf8");
        if (got !== want) assert.unreachable(`generated/${rev}/${f} is stale (run \`node dist/bin/mcpgen.js generate-bundled\`)`);
      }
    }
    // `check` against the repository agrees (and writes nothing).
    const checked = await check({ cwd: repoRoot, bundled: true, cache });
    assert.equal(checked.problems, []);
    assert.ok(checked.ok);
  } finally {
    cleanup();
  }
});

test.run();
