import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import prettier from "prettier";
import { prettierOptions } from "../../generator/print/format.js";
import { loadManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitManifestLists } from "../../generator/emit/manifest/lists.js";
import { printData } from "../../generator/print/print-data.js";
import { fixture, tscStrict, withTempDir, writeFiles } from "./helpers.js";

type Published = { [key: string]: any };

// TS 5 keeps the JS API (TS 7's package is the native CLI): strip types, then import the module.
const ts5 = createRequire(import.meta.url)("typescript-5") as {
  transpileModule(src: string, o: object): { outputText: string };
};
async function evaluate(source: string): Promise<{ published: Published; revisions: string[]; pageSize: number }> {
  const js = ts5.transpileModule(source, { compilerOptions: { module: 99, target: 9 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString("base64")}`);
}

const listsFor = (name: string) =>
  emitManifestLists(buildServerModel(loadManifest(fixture(name), undefined, { lenient: true }))).contents;

test("lists: per-revision payloads keep only the fields each revision defines", async () => {
  const { published, revisions, pageSize } = await evaluate(listsFor("tools-list-pasted"));
  assert.equal(revisions, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  assert.is(pageSize, 100);
  const add = (rev: string) => published[rev].tools.find((t: { name: string }) => t.name === "add");
  assert.equal(Object.keys(add("2024-11-05")), ["name", "description", "inputSchema"]);
  assert.equal(Object.keys(add("2025-03-26")), ["name", "description", "inputSchema", "annotations"]);
  assert.equal(Object.keys(add("2025-06-18")), [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "_meta",
  ]);
  assert.equal(Object.keys(add("2025-11-25")), [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "execution",
    "_meta",
  ]);
  assert.equal(Object.keys(add("2026-07-28")), [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
  ]);
  // the pasted tools/list entries come back exactly (2025-11-25 has every field they use)
  const manifest = JSON.parse(readFileSync(fixture("tools-list-pasted"), "utf8"));
  assert.equal(published["2025-11-25"].tools, manifest.tools);
  // one schema object shared by every revision
  assert.ok(add("2024-11-05").inputSchema === add("2026-07-28").inputSchema);
});

test("lists: capabilities, serverInfo and prompt arguments per revision; declaration order kept", async () => {
  const { published } = await evaluate(listsFor("schema-features"));
  assert.equal(Object.keys(published), ["2026-07-28", "2025-11-25", "2025-06-18"]);
  const p = published["2025-06-18"];
  assert.equal(p.serverInfo, { name: "weather", version: "1.2.0", title: "Weather" });
  assert.equal(published["2025-11-25"].serverInfo.description, "Forecasts and alerts");
  assert.equal(p.capabilities, {
    tools: { listChanged: true },
    resources: { subscribe: true },
    prompts: {},
    logging: {},
    completions: {},
  });
  assert.equal(
    p.tools.map((t: { name: string }) => t.name),
    ["get_forecast", "reserved-words", "compose.shapes", "recursive", "no_params", "country_codes"],
  );
  assert.equal(p.prompts[0].arguments, [{ name: "city", required: true, description: "City name" }, { name: "style" }]);
  assert.is(p.instructions, "Use get_forecast for daily forecasts.");
  // a property named __proto__ stays a property, not the prototype
  const rw = p.tools[1].inputSchema.properties;
  assert.ok(Object.prototype.hasOwnProperty.call(rw, "__proto__"));
  assert.equal(rw["__proto__"], { type: "string" });
});

test("lists: no completions capability for 2024-11-05 (it has none)", async () => {
  const model = buildServerModel(loadManifest(fixture("schema-features")));
  model.revisions = ["2024-11-05"];
  const { published } = await evaluate(emitManifestLists(model).contents);
  assert.equal(Object.keys(published["2024-11-05"].capabilities), ["tools", "resources", "prompts", "logging"]);
});

test("lists: the file is a prettier fixpoint (the print stage's options) and compiles under tsc --strict", async () => {
  for (const name of ["schema-features", "tools-list-pasted", "broken-schemas", "facades"]) {
    const src = listsFor(name);
    assert.fixture(await prettier.format(src, { ...prettierOptions, parser: "typescript" }), src, name);
    withTempDir((dir) => {
      writeFiles(dir, { "lists.ts": src });
      const r = tscStrict(dir, ["lists.ts"]);
      assert.is(r.code, 0, r.output);
    });
  }
});

test("print-data: prettier layout rules (quotes, keys, long strings, arrays)", async () => {
  const value = {
    "1": 2,
    ünï: 1,
    "a-b": "it's",
    d: 'say "hi" it\'s',
    e: 'say "hi"',
    nums: Array.from({ length: 40 }, (_, i) => i * 1.5 - 3),
    big: 1e21,
    nested: [["a", "b"], ["c"]],
    mixed: [null, true, "x"],
    empty: [],
    eo: {},
    ctrl: "a\u0001b\nc\t\\",
    longArr: Array.from({ length: 12 }, (_, i) => `item-${i}`),
    description: "x".repeat(70),
    abcd: "y".repeat(80),
  };
  const src = `export const data = ${printData(value, {}, 0, "export const data = ".length, 1)};\n`;
  assert.fixture(await prettier.format(src, { parser: "typescript" }), src);
});

test.run();
