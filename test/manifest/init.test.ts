import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HANDLERS_FILE, MANIFEST_FILE, initProject } from "../../generator/init.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { tscStrict, typesFor, withTempDir, writeFiles } from "./helpers.js";

test("init: writes a valid starter manifest with $schema and a handler file that compiles against the generated types", () => {
  withTempDir((dir) => {
    const r = initProject({ dir, name: "demo" });
    assert.equal(r.written, [MANIFEST_FILE, HANDLERS_FILE]);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8"));
    assert.is(manifest.$schema, "./node_modules/mcpgen/schema/manifest.schema.json");
    assert.is(manifest.name, "demo");
    const { file, loaded } = typesFor(join(dir, MANIFEST_FILE));
    assert.equal(loaded.diagnostics, []);
    writeFiles(dir, { "src/mcp/types.ts": file.contents });
    const tsc = tscStrict(dir, ["src/handlers.ts"]);
    assert.is(tsc.code, 0, tsc.output);
  });
});

test("init: the starter handler's return type is really checked against outputSchema", () => {
  withTempDir((dir) => {
    initProject({ dir });
    writeFiles(dir, { "src/mcp/types.ts": typesFor(join(dir, MANIFEST_FILE)).file.contents });
    const path = join(dir, HANDLERS_FILE);
    writeFileSync(path, readFileSync(path, "utf8").replace("return { echoed, length: echoed.length };", "return { echoed };"));
    const tsc = tscStrict(dir, ["src/handlers.ts"]);
    assert.ok(tsc.code !== 0);
    assert.match(tsc.output, /length/);
  });
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
