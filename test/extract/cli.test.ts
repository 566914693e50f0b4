// The CLI surface of code-first authoring: `extract` writes the manifest, is quiet on an
// unchanged re-run, `check --from` tells whether the manifest matches the source, and on unsupported types exits 1 naming file, line and type with nothing
// written; `generate --from` then writes neither the manifest nor the output directory.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasStack, runCli } from "../cli/run-cli.js";
import { root } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const dir = tempDir("extract-cli-");
test.after(() => removeDir(dir));

test("extract writes the manifest, then reports it up to date", () => {
  copyFileSync(join(root, "test", "fixtures", "extract", "nested", "given.ts"), join(dir, "ok.ts"));
  const first = runCli(["extract", "--from", "ok.ts", "--name", "nested", "--out", "out.json"], dir);
  assert.is(first.status, 0, first.stderr);
  assert.is(first.stdout, "out.json: wrote (1 tools, extracted from ok.ts)\n");
  const manifest = JSON.parse(readFileSync(join(dir, "out.json"), "utf8")) as {
    name: string;
    tools: { name: string }[];
  };
  assert.is(manifest.name, "nested");
  assert.is(manifest.tools[0]!.name, "addContact");
  const again = runCli(["extract", "--from", "ok.ts", "--name", "nested", "--out", "out.json"], dir);
  assert.is(again.stdout, "out.json: up to date (1 tools, extracted from ok.ts)\n");
});

test("check --from: fresh after generate --from, stale when the source changes, missing without a manifest", () => {
  const gen = runCli(
    ["generate", "--from", "ok.ts", "--name", "nested", "--manifest", "out.json", "--out", "mcp", "--no-cache"],
    dir,
  );
  assert.is(gen.status, 0, gen.stderr);
  const fresh = runCli(
    ["check", "--from", "ok.ts", "--name", "nested", "--manifest", "out.json", "--out", "mcp", "--no-cache"],
    dir,
  );
  assert.is(fresh.status, 0, fresh.stderr);
  assert.is(fresh.stdout, "fresh: out.json, mcp\n");
  writeFileSync(
    join(dir, "ok.ts"),
    readFileSync(join(dir, "ok.ts"), "utf8").replace("street: string;", "street: string;\n  zip?: string;"),
  );
  const stale = runCli(
    ["check", "--from", "ok.ts", "--name", "nested", "--manifest", "out.json", "--out", "mcp", "--no-cache"],
    dir,
  );
  assert.is(stale.status, 1);
  assert.match(stale.stderr, "stale: out.json (stale)\n");
  const missing = runCli(
    ["check", "--from", "ok.ts", "--name", "nested", "--manifest", "none.json", "--out", "mcp", "--no-cache"],
    dir,
  );
  assert.is(missing.status, 1);
  assert.match(missing.stderr, "stale: none.json (missing)\n");
  assert.not.ok(existsSync(join(dir, "none.json")));
});

test("an unsupported type: exit 1, file:line:column and the type named, nothing written", () => {
  copyFileSync(join(root, "test", "fixtures", "extract", "error-function", "given.ts"), join(dir, "bad.ts"));
  const r = runCli(["extract", "--from", "bad.ts", "--name", "bad", "--out", "bad.json"], dir);
  assert.is(r.status, 1);
  assert.match(
    r.stderr,
    "bad.ts:3:37: error: /tools/0/inputSchema/properties/onEvent: cannot express type (e: string) => void as JSON Schema",
  );
  assert.not.ok(hasStack(r.stderr));
  assert.not.ok(existsSync(join(dir, "bad.json")));
  const gen = runCli(
    ["generate", "--from", "bad.ts", "--name", "bad", "--manifest", "bad.json", "--out", "bad-out"],
    dir,
  );
  assert.is(gen.status, 1);
  assert.not.ok(existsSync(join(dir, "bad.json")));
  assert.not.ok(existsSync(join(dir, "bad-out")));
});

test("usage and input errors", () => {
  const missing = runCli(["extract", "--name", "x"], dir);
  assert.is(missing.status, 2);
  assert.match(missing.stderr, "--from <src.ts> is required");
  const nofile = runCli(["extract", "--from", "nope.ts", "--name", "x"], dir);
  assert.is(nofile.status, 1);
  assert.match(nofile.stderr, "nope.ts: file not found");
  const notTs = runCli(["extract", "--from", "out.json", "--name", "x"], dir);
  assert.is(notTs.status, 1);
  assert.match(notTs.stderr, "is not a TypeScript source file");
});

test.run();
