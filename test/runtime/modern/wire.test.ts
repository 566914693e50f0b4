import { test } from "uvu";
import * as assert from "uvu/assert";
import { argumentAt, decodeHeaderValue, encodeHeaderValue, headerParams, nameField } from "@mcpgen/runtime/internal";

test("header values: plain ASCII raw, everything unsafe through the base64 sentinel", () => {
  assert.is(encodeHeaderValue("eu-west1"), "eu-west1");
  assert.is(encodeHeaderValue(42), "42");
  assert.is(encodeHeaderValue(false), "false");
  assert.is(encodeHeaderValue("Zürich"), "=?base64?WsO8cmljaA==?=");
  assert.is(encodeHeaderValue(" padded"), `=?base64?${Buffer.from(" padded").toString("base64")}?=`);
  assert.is(encodeHeaderValue("a\r\nb"), `=?base64?${Buffer.from("a\r\nb").toString("base64")}?=`);
  // A value that looks like the sentinel is itself wrapped, so it survives the round trip.
  const tricky = "=?base64?SGk=?=";
  assert.is(decodeHeaderValue(encodeHeaderValue(tricky)), tricky);
  assert.is(encodeHeaderValue(""), "=?base64??=");
  assert.is(decodeHeaderValue("=?base64??="), "");
});

test("decoding: round trips, refuses malformed sentinels and raw controls, trims whitespace", () => {
  for (const s of ["plain", "Zürich", "日本語", " x ", "tab\there", "=?base64?x?="])
    assert.is(decodeHeaderValue(encodeHeaderValue(s)), s);
  assert.is(decodeHeaderValue("  eu-west1\t"), "eu-west1");
  assert.is(decodeHeaderValue("=?base64?not base64!?="), undefined);
  assert.is(decodeHeaderValue("=?base64?/w==?="), undefined, "0xFF is not UTF-8");
  assert.is(decodeHeaderValue("a\u0001b"), undefined);
  assert.is(decodeHeaderValue("caf\u00e9"), undefined);
});

test("Mcp-Name mirrors name, uri or taskId", () => {
  assert.is(nameField("tools/call"), "name");
  assert.is(nameField("prompts/get"), "name");
  assert.is(nameField("resources/read"), "uri");
  assert.is(nameField("tasks/get"), "taskId");
  assert.is(nameField("tools/list"), undefined);
});

test("x-mcp-header: collects annotated properties reached through properties alone", () => {
  const r = headerParams({
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      opts: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
      count: { type: "integer", "x-mcp-header": "Count" },
      sql: { type: "string" },
    },
  });
  assert.equal(r, {
    params: [
      { header: "Region", path: ["region"], type: "string" },
      { header: "Dry-Run", path: ["opts", "dry"], type: "boolean" },
      { header: "Count", path: ["count"], type: "integer" },
    ],
  });
  assert.equal(headerParams({ type: "object" }), { params: [] });
});

test("x-mcp-header: every violation of the spec's custom-header rules is a problem for the tool", () => {
  const bad = (schema: unknown) => {
    const r = headerParams(schema);
    assert.ok("problem" in r, JSON.stringify(schema));
  };
  bad({ type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } });
  bad({ type: "object", properties: { s: { type: "string", "x-mcp-header": "" } } });
  bad({ type: "object", properties: { s: { type: "string", "x-mcp-header": "has space" } } });
  bad({
    type: "object",
    properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } },
  });
  bad({ type: "object", properties: { l: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } } });
  bad({ type: "object", anyOf: [{ properties: { s: { type: "string", "x-mcp-header": "S" } } }] });
  bad({ type: "object", $defs: { D: { type: "string", "x-mcp-header": "D" } } });
});

test("argumentAt: own properties only, null counts as absent", () => {
  assert.is(argumentAt({ a: { b: 1 } }, ["a", "b"]), 1);
  assert.is(argumentAt({ a: null }, ["a"]), undefined);
  assert.is(argumentAt({}, ["toString"]), undefined);
  assert.is(argumentAt({ a: 1 }, ["a", "b"]), undefined);
});

test.run();
