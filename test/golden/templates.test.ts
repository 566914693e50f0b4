// Golden output of the facade templates: test/fixtures/templates/mcp.manifest.json takes every
// branch of templates/facades/*.hbs (cache, scopes, tasks, completions, optional arguments, a
// resource section with templates, a comment terminator in names); its generated folder is
// checked in and must be reproduced byte for byte, and it compiles under strict tsc.
// golden-workers is the same manifest generated with `--target workers` (a bundled deployment):
// only the facades' imports of the generated parts differ.
// After an intended change: `npm run templates:golden`.
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { root, tscStrict } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const golden = join("test", "fixtures", "templates", "golden");
const goldenWorkers = join("test", "fixtures", "templates", "golden-workers");

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

test("test/fixtures/templates/golden-workers is what --target workers renders today (mcpgen check)", () => {
  const r = spawnSync(
    process.execPath,
    [
      join(root, "dist", "bin", "mcpgen.js"),
      "check",
      "--manifest",
      "test/fixtures/templates/mcp.manifest.json",
      "--out",
      goldenWorkers,
      "--target",
      "workers",
      "--no-cache",
    ],
    { cwd: root, encoding: "utf8", timeout: 120_000 },
  );
  assert.is(r.status, 0, `${r.stdout}${r.stderr}\nregenerate with: npm run templates:golden`);
});

test("--target workers: the facades import the generated parts statically; every other file is the default output", () => {
  const read = (dir: string, f: string) => readFileSync(join(root, dir, f), "utf8");
  const files = readdirSync(join(root, golden)).sort();
  assert.equal(readdirSync(join(root, goldenWorkers)).sort(), files);
  const facades = ["bindings.ts", "client.ts", "definition.ts", "server.ts", "validators.ts"];
  for (const f of files) {
    const [dynamic, bundled] = [read(golden, f), read(goldenWorkers, f)];
    if (facades.includes(f)) {
      assert.ok(/\bimport\(/.test(dynamic), `${f}: the default output imports on first use`);
      assert.not.ok(/\bimport\(/.test(bundled), `${f}: --target workers has no dynamic import`);
    } else if (f === "README.md") {
      // it names its own folder and the target
      assert.is(
        bundled,
        dynamic
          .replaceAll("--out golden\n", "--out golden-workers --target workers\n")
          .replaceAll("--out golden ", "--out golden-workers --target workers "),
      );
    } else {
      // the banner's input hash covers the target
      const [head, rest] = [(s: string) => s.slice(0, s.indexOf("\n")), (s: string) => s.slice(s.indexOf("\n"))];
      if (f !== ".gitattributes") assert.is.not(head(bundled), head(dynamic), f);
      assert.is(rest(bundled), rest(dynamic), f);
    }
  }
  assert.match(read(goldenWorkers, "definition.ts"), /^  toolValidators,\n  allErrorsValidators,$/m);
  assert.match(read(goldenWorkers, "server.ts"), /^import \{ readFile \} from "\.\/resource-files\.js";$/m);
});

test("the --target workers facades compile under strict tsc", () => {
  const dir = tempDir("templates-golden-workers-");
  try {
    cpSync(join(root, goldenWorkers), dir, { recursive: true });
    const out = tscStrict(dir, ["server.ts", "client.ts", "validators.ts", "bindings.ts"]);
    assert.is(out.code, 0, out.output);
  } finally {
    removeDir(dir);
  }
});

test.run();
