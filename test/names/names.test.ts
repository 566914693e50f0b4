import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  assignManifestNames,
  describeCollision,
  splitWords,
  toBindingName,
  toMemberName,
  toTypeName,
} from "../../generator/names/index.js";
import type { Manifest } from "../../generator/load/manifest-format.js";

// [MCP name, member, type]
const TABLE: [string, string, string][] = [
  ["get_forecast", "getForecast", "GetForecast"],
  ["get-forecast", "getForecast", "GetForecast"],
  ["get.forecast", "getForecast", "GetForecast"],
  ["getForecast", "getForecast", "GetForecast"],
  ["GetForecast", "getForecast", "GetForecast"],
  ["GET_FORECAST", "getForecast", "GetForecast"],
  ["get__forecast--now", "getForecastNow", "GetForecastNow"],
  ["_private_tool_", "privateTool", "PrivateTool"],
  ["fetchURL", "fetchUrl", "FetchUrl"],
  ["HTTPServer", "httpServer", "HttpServer"],
  ["v2Api", "v2Api", "V2Api"],
  ["3d_render", "_3dRender", "_3dRender"],
  ["42", "_42", "_42"],
  ["delete", "delete", "Delete"],
  ["class", "class", "Class"],
  ["météo_du_jour", "météoDuJour", "MétéoDuJour"],
  ["天气", "天气", "天气"],
  ["погода-завтра", "погодаЗавтра", "ПогодаЗавтра"],
  ["emoji🔥tool", "emojiTool", "EmojiTool"],
  ["a b,c", "aBC", "ABC"],
  ["server/tool:name", "serverToolName", "ServerToolName"],
];

test("names: mapping table", () => {
  for (const [name, member, type] of TABLE) {
    assert.is(toMemberName(name), member, `member of ${JSON.stringify(name)}`);
    assert.is(toTypeName(name), type, `type of ${JSON.stringify(name)}`);
  }
});

test("names: reserved words get a safe binding, members stay usable as property keys", () => {
  assert.is(toBindingName("delete"), "delete_");
  assert.is(toBindingName("for"), "for_");
  assert.is(toBindingName("get_forecast"), "getForecast");
  assert.is(toMemberName("delete"), "delete");
});

test("names: no letters or digits yields no identifier", () => {
  assert.is(toMemberName("🔥🔥"), "");
  assert.is(toTypeName("--"), "");
  assert.equal(splitWords("..."), []);
});

test("names: identifiers are valid JS identifiers", () => {
  for (const [name] of TABLE) {
    const id = toBindingName(name);
    assert.ok(/^[\p{ID_Start}$_][\p{ID_Continue}$]*$/u.test(id), id);
    assert.not.throws(() => new Function(`let ${id} = 1; return ${id};`), id);
  }
});

const manifest = (tools: string[]): Manifest => ({
  name: "x",
  version: "1",
  tools: tools.map((name) => ({ name, inputSchema: { type: "object" } })),
});

test("names: a collision names both sources with pointers", () => {
  const n = assignManifestNames(manifest(["get_forecast", "a", "b", "get-forecast"]));
  assert.is(n.collisions.length, 1);
  assert.is(
    describeCollision(n.collisions[0]!),
    '/tools/0/name "get_forecast" and /tools/3/name "get-forecast" both map to the tool identifier "getForecast"; rename one of them',
  );
});

test("names: no order-dependent suffixes, result independent of order", () => {
  const a = assignManifestNames(manifest(["x_y", "z", "w-v"]));
  const b = assignManifestNames(manifest(["w-v", "x_y", "z"]));
  assert.equal(a.tools.map((t) => t?.member).sort(), b.tools.map((t) => t?.member).sort());
  assert.equal(
    a.tools.map((t) => t?.member),
    ["xY", "z", "wV"],
  );
  const clash1 = assignManifestNames(manifest(["a-b", "a_b"])).collisions.map(describeCollision);
  const clash2 = assignManifestNames(manifest(["a_b", "a-b"])).collisions.map(describeCollision);
  assert.is(clash1.length, 1);
  assert.is(clash2.length, 1);
  for (const msg of [...clash1, ...clash2]) assert.ok(!/\d"$/.test(msg) && msg.includes('"aB"'));
});

test("names: tools and prompts with the same name do not clash (different namespaces and suffixes)", () => {
  const n = assignManifestNames({ ...manifest(["summary"]), prompts: [{ name: "summary" }] });
  assert.is(n.collisions.length, 0);
  assert.is(n.tools[0]!.type, "Summary");
  assert.ok(n.types.has("SummaryInput") && n.types.has("SummaryOutput") && n.types.has("SummaryArgs"));
});

test.run();
