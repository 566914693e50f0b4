import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { resolveTargets } from "../../generator/config.js";
import { McpgenError } from "../../generator/errors.js";
import { repoRoot, revisions, tempDir } from "../helpers.js";

function failure(fn: () => unknown): McpgenError {
  try {
    fn();
  } catch (e) {
    assert.instance(e, McpgenError);
    return e as McpgenError;
  }
  assert.unreachable("should have thrown");
  throw new Error("unreachable");
}

test("no flags and no config: every bundled revision into the package's generated/<rev>", () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.equal(
      resolveTargets({ cwd: dir }),
      revisions.map((r) => ({ schema: r, out: join(repoRoot, "generated", r) })),
    );
  } finally {
    cleanup();
  }
});

test("config targets, flag overrides, and usage errors", () => {
  const { dir, cleanup } = tempDir();
  try {
    const cfg = join(dir, "mcpgen.config.json");
    writeFileSync(cfg, JSON.stringify({ targets: [{ schema: "2025-11-25", out: "a" }, { schema: "x/schema.json", out: "b", revision: "2027-01-01" }] }));
    assert.equal(resolveTargets({ cwd: dir }), [
      { schema: "2025-11-25", out: join(dir, "a") },
      { schema: "x/schema.json", out: join(dir, "b"), revision: "2027-01-01" },
    ]);
    assert.equal(resolveTargets({ cwd: dir, schema: "2024-11-05", out: "c" }), [{ schema: "2024-11-05", out: join(dir, "c") }]);
    const partial = failure(() => resolveTargets({ cwd: dir, schema: "2024-11-05" }));
    assert.is(partial.exitCode, 2);
    assert.match(partial.message, /lists targets; give both --schema and --out/);

    writeFileSync(cfg, JSON.stringify({ schema: "2025-06-18", out: "o" }));
    assert.equal(resolveTargets({ cwd: dir, out: "p" }), [{ schema: "2025-06-18", out: join(dir, "p") }]);
    assert.equal(resolveTargets({ cwd: dir, config: false, schema: "2025-06-18", out: "q" }), [{ schema: "2025-06-18", out: join(dir, "q") }]);

    writeFileSync(cfg, JSON.stringify({ targets: [{ schema: "2025-11-25", out: "same" }, { schema: "2026-07-28", out: "./same" }] }));
    const dup = failure(() => resolveTargets({ cwd: dir }));
    assert.is(dup.exitCode, 2);
    assert.match(dup.message, /two targets write to the same directory same/);

    writeFileSync(cfg, JSON.stringify({ targets: [{ schema: "2025-11-25" }] }));
    const missing = failure(() => resolveTargets({ cwd: dir }));
    assert.is(missing.exitCode, 1);
    assert.match(missing.message, /mcpgen\.config\.json at \/targets\/0\/out: invalid config \(expected an output directory\)/);

    writeFileSync(cfg, "{ nope }");
    assert.match(failure(() => resolveTargets({ cwd: dir })).message, /mcpgen\.config\.json: invalid JSON at line 1 column 3/);
    assert.match(failure(() => resolveTargets({ cwd: dir, config: "other.json" })).message, /other\.json: config file not found/);
  } finally {
    cleanup();
  }
});

test.run();
