import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { check } from "../../generator/generate.js";
import { listFiles } from "../../generator/write/compare.js";
import { SHARED_FOLDER } from "../../generator/paths.js";
import { repoRoot, revisions, tempDir } from "../helpers.js";

// Golden: generated/ is checked in; regenerating every bundled revision from scratch (no cache)
// must reproduce it byte for byte. The bundled revisions are generated together (their validators
// shared across revisions), so this is `check` in bundled mode with an empty cache: it produces
// everything in memory and compares it with the repository, writing nothing.
// After an intended change: `node dist/bin/mcpgen.js generate-bundled`.
test("regenerating all five revisions (and their shared folder) reproduces generated/ byte for byte", async () => {
  const { dir, cleanup } = tempDir("mcpgen-golden-");
  try {
    const cache = join(dir, "cache");
    // Each revision's folder, then the shared folder of the validators several of them use.
    const folders = [...revisions, SHARED_FOLDER];
    const before = Object.fromEntries(folders.map((r) => [r, listFiles(join(repoRoot, "generated", r))]));
    const checked = await check({ cwd: repoRoot, bundled: true, cache });
    assert.equal(
      checked.targets.map((t) => t.revision),
      folders,
    );
    assert.ok(
      checked.targets.every((t) => !t.cached),
      "generated from scratch",
    );
    for (const t of checked.targets) assert.ok(t.files.length >= 4, `${t.revision}: ${t.files.join(", ")}`);
    assert.equal(checked.problems, [], "run `node dist/bin/mcpgen.js generate-bundled`");
    assert.ok(checked.ok);
    // Served from the cache the second time, with the same verdict; nothing was written.
    const again = await check({ cwd: repoRoot, bundled: true, cache });
    assert.ok(again.targets.every((t) => t.cached));
    assert.ok(again.ok);
    assert.equal(Object.fromEntries(folders.map((r) => [r, listFiles(join(repoRoot, "generated", r))])), before);
  } finally {
    cleanup();
  }
});

test.run();
