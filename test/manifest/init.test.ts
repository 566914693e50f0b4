import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HANDLERS_FILE, MANIFEST_FILE, initProject } from "../../generator/init.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { generateManifest } from "../../generator/generate-manifest.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { protocolFor, tscStrict, withTempDir, writeFiles } from "./helpers.js";

/** init + the output `mcpgen generate --manifest` writes, in a temp dir under the repo (so @mcpgen/runtime resolves). */
function initAndGenerate(name?: string): string {
  const dir = tempDir("init-");
  const r0 = initProject(name === undefined ? { dir } : { dir, name });
  assert.equal(r0.written, [MANIFEST_FILE, HANDLERS_FILE]);
  const r = generateManifest(join(dir, MANIFEST_FILE), { display: MANIFEST_FILE });
  assert.equal(r.warnings, []);
  const out = { ...Object.fromEntries(r.files.map((f) => [f.path, f.contents])), ...protocolFor(r.model.revisions) };
  writeFiles(join(dir, "src", "mcp"), out);
  return dir;
}

test("init: writes a valid starter manifest with $schema and a handler file that compiles against the generated types", () => {
  const dir = initAndGenerate("demo");
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8"));
    assert.is(manifest.$schema, "./node_modules/mcpgen/schema/manifest.schema.json");
    assert.is(manifest.name, "demo");
    assert.match(readFileSync(join(dir, HANDLERS_FILE), "utf8"), /createDemoServer, type DemoHandlers/);
    const tsc = tscStrict(dir, ["src/handlers.ts"]);
    assert.is(tsc.code, 0, tsc.output);
  } finally {
    removeDir(dir);
  }
});

test("init: the starter handler's return type is really checked against outputSchema", () => {
  const dir = initAndGenerate();
  try {
    const path = join(dir, HANDLERS_FILE);
    const text = readFileSync(path, "utf8");
    assert.ok(text.includes("return { echoed, length: echoed.length };"));
    writeFileSync(path, text.replace("return { echoed, length: echoed.length };", "return { echoed };"));
    const tsc = tscStrict(dir, ["src/handlers.ts"]);
    assert.ok(tsc.code !== 0);
    assert.match(tsc.output, /length/);
  } finally {
    removeDir(dir);
  }
});

test("init: refuses to overwrite and writes nothing when any target exists", () => {
  withTempDir((dir) => {
    writeFiles(dir, { [HANDLERS_FILE]: "// mine\n" });
    try {
      initProject({ dir });
      assert.unreachable("should refuse");
    } catch (e) {
      assert.instance(e, InputError);
      assert.match((e as Error).message, /src\/handlers\.ts.*already exists/);
    }
    assert.is(existsSync(join(dir, MANIFEST_FILE)), false);
    assert.is(readFileSync(join(dir, HANDLERS_FILE), "utf8"), "// mine\n");
  });
});

test.run();
