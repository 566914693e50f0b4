import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadConfig, resolveTargets } from "../../generator/config.js";
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

test("maintainer mode: every bundled revision into the package's generated/<rev>, and nothing else", () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.equal(
      resolveTargets({ cwd: dir, bundled: true }),
      revisions.map((r) => ({ schema: r, out: join(repoRoot, "generated", r) })),
    );
    assert.match(
      failure(() => resolveTargets({ cwd: dir, bundled: true, out: "x" })).message,
      /bundled bindings take no/,
    );
  } finally {
    cleanup();
  }
});

test("no flags and no config: ./mcp.manifest.json into src/mcp, else a usage error that says what to do", () => {
  const { dir, cleanup } = tempDir();
  try {
    const none = failure(() => resolveTargets({ cwd: dir }));
    assert.is(none.exitCode, 2);
    assert.match(
      none.message,
      /nothing to generate in .*: no mcpgen\.config\.json, mcpgen\.config\.ts, mcpgen\.config\.js, mcpgen\.config\.mjs or mcp\.manifest\.json; run `mcpgen init`/,
    );
    writeFileSync(join(dir, "mcp.manifest.json"), "{}");
    assert.equal(resolveTargets({ cwd: dir }), [
      { schema: "", manifest: "mcp.manifest.json", out: join(dir, "src", "mcp") },
    ]);
  } finally {
    cleanup();
  }
});

test("mcpgen.config.ts / .mjs / .js: default export, found in that order after .json", async () => {
  const { dir, cleanup } = tempDir();
  try {
    writeFileSync(join(dir, "mcpgen.config.mjs"), 'export default { manifest: "m.json", out: "from-mjs" };\n');
    assert.equal(resolveTargets({ cwd: dir }, await loadConfig(dir, undefined)), [
      { schema: "", manifest: "m.json", out: join(dir, "from-mjs") },
    ]);
    writeFileSync(
      join(dir, "mcpgen.config.ts"),
      'interface C { manifest: string; out: string }\nconst config: C = { manifest: "m.json", out: "from-ts" as string };\nexport default config;\n',
    );
    assert.equal(resolveTargets({ cwd: dir }, await loadConfig(dir, undefined)), [
      { schema: "", manifest: "m.json", out: join(dir, "from-ts") },
    ]);
    assert.equal(
      readdirSync(dir).sort(),
      ["mcpgen.config.mjs", "mcpgen.config.ts"],
      "the transpiled temporary file is removed",
    );
    writeFileSync(join(dir, "mcpgen.config.ts"), "export default { manifest: 'm.json', out: };\n");
    const syntax = await loadConfig(dir, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(syntax, McpgenError);
    assert.match((syntax as Error).message, /^mcpgen\.config\.ts:1:\d+: cannot load config: Expression expected/);
    writeFileSync(join(dir, "mcpgen.config.ts"), "export const x = 1;\n");
    const noDefault = await loadConfig(dir, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.match((noDefault as Error).message, /mcpgen\.config\.ts: config module has no default export/);
    writeFileSync(join(dir, "mcpgen.config.ts"), "export default { manifest: 'm.json', outt: 'x' };\n");
    const bad = await loadConfig(dir, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.match((bad as Error).message, /mcpgen\.config\.ts at \/outt: invalid config/);
    writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify({ manifest: "m.json", out: "from-json" }));
    assert.equal(resolveTargets({ cwd: dir }, await loadConfig(dir, undefined)), [
      { schema: "", manifest: "m.json", out: join(dir, "from-json") },
    ]);
  } finally {
    cleanup();
  }
});

test("config targets, flag overrides, and usage errors", () => {
  const { dir, cleanup } = tempDir();
  try {
    const cfg = join(dir, "mcpgen.config.json");
    writeFileSync(
      cfg,
      JSON.stringify({
        targets: [
          { schema: "2025-11-25", out: "a" },
          { schema: "x/schema.json", out: "b", revision: "2027-01-01" },
        ],
      }),
    );
    assert.equal(resolveTargets({ cwd: dir }), [
      { schema: "2025-11-25", out: join(dir, "a") },
      { schema: "x/schema.json", out: join(dir, "b"), revision: "2027-01-01" },
    ]);
    assert.equal(resolveTargets({ cwd: dir, schema: "2024-11-05", out: "c" }), [
      { schema: "2024-11-05", out: join(dir, "c") },
    ]);
    const partial = failure(() => resolveTargets({ cwd: dir, schema: "2024-11-05" }));
    assert.is(partial.exitCode, 2);
    assert.match(partial.message, /lists targets; give both --schema and --out/);

    writeFileSync(cfg, JSON.stringify({ schema: "2025-06-18", out: "o" }));
    assert.equal(resolveTargets({ cwd: dir, out: "p" }), [{ schema: "2025-06-18", out: join(dir, "p") }]);
    assert.equal(resolveTargets({ cwd: dir, config: false, schema: "2025-06-18", out: "q" }), [
      { schema: "2025-06-18", out: join(dir, "q") },
    ]);

    writeFileSync(
      cfg,
      JSON.stringify({
        targets: [
          { schema: "2025-11-25", out: "same" },
          { schema: "2026-07-28", out: "./same" },
        ],
      }),
    );
    const dup = failure(() => resolveTargets({ cwd: dir }));
    assert.is(dup.exitCode, 2);
    assert.match(dup.message, /two targets write to the same directory same/);

    writeFileSync(cfg, JSON.stringify({ targets: [{ schema: "2025-11-25" }] }));
    const missing = failure(() => resolveTargets({ cwd: dir }));
    assert.is(missing.exitCode, 1);
    assert.match(
      missing.message,
      /mcpgen\.config\.json at \/targets\/0\/out: invalid config \(expected an output directory\)/,
    );

    writeFileSync(cfg, "{ nope }");
    assert.match(
      failure(() => resolveTargets({ cwd: dir })).message,
      /mcpgen\.config\.json: invalid JSON at line 1 column 3/,
    );
    assert.match(
      failure(() => resolveTargets({ cwd: dir, config: "other.json" })).message,
      /other\.json: config file not found/,
    );
  } finally {
    cleanup();
  }
});

test('"target": per target or for all, overridden by the flag; an unknown one names the file, the pointer and the values', () => {
  const { dir, cleanup } = tempDir();
  try {
    const cfg = join(dir, "mcpgen.config.json");
    writeFileSync(
      cfg,
      JSON.stringify({
        target: "bun",
        targets: [
          { manifest: "a.json", out: "a", target: "workers" },
          { manifest: "b.json", out: "b" },
        ],
      }),
    );
    assert.equal(resolveTargets({ cwd: dir }), [
      { schema: "", manifest: "a.json", out: join(dir, "a"), target: "workers" },
      { schema: "", manifest: "b.json", out: join(dir, "b"), target: "bun" },
    ]);
    assert.equal(
      resolveTargets({ cwd: dir, target: "node" }).map((t) => t.target),
      ["node", "node"],
    );

    writeFileSync(cfg, JSON.stringify({ manifest: "m.json", out: "o", target: "workers" }));
    assert.equal(resolveTargets({ cwd: dir }), [
      { schema: "", manifest: "m.json", out: join(dir, "o"), target: "workers" },
    ]);
    assert.equal(resolveTargets({ cwd: dir, target: "deno" })[0]!.target, "deno");
    writeFileSync(cfg, JSON.stringify({ manifest: "m.json", out: "o" }));
    assert.is(resolveTargets({ cwd: dir })[0]!.target, undefined);

    writeFileSync(cfg, JSON.stringify({ targets: [{ manifest: "m.json", out: "o", target: "lambda" }] }));
    const unknown = failure(() => resolveTargets({ cwd: dir }));
    assert.is(unknown.exitCode, 1);
    assert.match(
      unknown.message,
      /mcpgen\.config\.json at \/targets\/0\/target: invalid config \(expected one of "node", "workers", "bun", "deno"\)/,
    );
    writeFileSync(cfg, JSON.stringify({ manifest: "m.json", out: "o", target: 1 }));
    assert.match(
      failure(() => resolveTargets({ cwd: dir })).message,
      /mcpgen\.config\.json at \/target: invalid config \(expected one of "node", "workers", "bun", "deno"\)/,
    );

    const flag = failure(() =>
      resolveTargets({ cwd: dir, config: false, manifest: "m.json", out: "o", target: "edge" as never }),
    );
    assert.is(flag.exitCode, 2);
    assert.match(flag.message, /--target must be one of node, workers, bun, deno \(got "edge"\)/);
  } finally {
    cleanup();
  }
});

test.run();
