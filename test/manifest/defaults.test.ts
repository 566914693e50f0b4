// A `default` in a tool schema that its own schema rejects is a generation error naming the file,
// the line and the JSON pointer of the default (a warning under --lenient); nothing is written.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { checkToolDefaults } from "../../generator/emit/manifest/tool-defaults.js";
import { runCli } from "../cli/run-cli.js";
import { withTempDir } from "./helpers.js";

const BAD = `{
  "name": "x",
  "version": "1",
  "tools": [
    {
      "name": "get_forecast",
      "inputSchema": {
        "type": "object",
        "properties": {
          "days": { "type": "integer", "minimum": 1, "default": 0 },
          "units": { "$ref": "#/$defs/units", "default": "kelvin" },
          "city": { "type": "string", "default": "Paris" },
          "when": { "type": "array", "items": { "type": "string", "format": "date", "default": 3 } },
          "default": { "type": "boolean" }
        },
        "$defs": { "units": { "enum": ["metric", "imperial"], "default": "metric" } }
      },
      "outputSchema": { "type": "object", "properties": { "n": { "type": "number", "default": "1" } } }
    }
  ]
}
`;

test("defaults that fail their own schema: exit 1, every one with file, line, pointer and what was expected; nothing written", () => {
  withTempDir((dir) => {
    writeFileSync(join(dir, "m.json"), BAD);
    const r = runCli(["generate", "--manifest", "m.json", "--out", "out", "--no-cache"], dir);
    assert.is(r.status, 1, r.stdout);
    assert.equal(r.stderr.trim().split("\n"), [
      "mcpgen: m.json: 4 errors",
      "  m.json:10:65: error: /tools/0/inputSchema/properties/days/default: default 0 does not satisfy its own schema: must be >= 1 (--lenient makes this a warning)",
      '  m.json:11:58: error: /tools/0/inputSchema/properties/units/default: default "kelvin" does not satisfy its own schema: must be one of "metric", "imperial" (--lenient makes this a warning)',
      "  m.json:13:96: error: /tools/0/inputSchema/properties/when/items/default: default 3 does not satisfy its own schema: must be string (--lenient makes this a warning)",
      '  m.json:18:95: error: /tools/0/outputSchema/properties/n/default: default "1" does not satisfy its own schema: must be number (--lenient makes this a warning)',
    ]);
    assert.not.ok(existsSync(join(dir, "out")));
    // captured from a server: --lenient reports them and generates
    const lenient = runCli(["generate", "--manifest", "m.json", "--out", "out", "--no-cache", "--lenient"], dir);
    assert.is(lenient.status, 0, lenient.stderr);
    assert.is(
      lenient.stderr.match(
        /^warning: m\.json:\d+:\d+: \/tools\/0\/\w+Schema\/properties\/\w+(\/items)?\/default: default .* does not satisfy its own schema: must/gm,
      )?.length,
      4,
      lenient.stderr,
    );
    assert.ok(existsSync(join(dir, "out", "validators.ts")));
  });
});

const model = (inputSchema: object) =>
  buildServerModel(
    parseManifest(JSON.stringify({ name: "x", version: "1", tools: [{ name: "t", inputSchema }] }), "m.json"),
  );

test("defaults that satisfy their schema pass: through $ref, in composition, in 2020-12 and draft-07 tuples, objects", () => {
  const ok = [
    {
      type: "object",
      properties: { a: { $ref: "#/$defs/pos", default: 2 } },
      $defs: { pos: { type: "integer", minimum: 1 } },
    },
    { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "null" }], default: null } } },
    {
      type: "object",
      properties: { a: { type: "array", prefixItems: [{ type: "string", default: "x" }], default: ["y"] } },
    },
    {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { a: { type: "array", items: [{ type: "integer", default: 1 }] } },
    },
    {
      type: "object",
      properties: {
        o: { type: "object", properties: { k: { type: "string" } }, required: ["k"], default: { k: "v" } },
      },
      default: {},
    },
    // format is an annotation in the generated validators, as here
    { type: "object", properties: { d: { type: "string", format: "date", default: "not a date" } } },
  ];
  for (const schema of ok) assert.equal(checkToolDefaults(model(schema), false), [], JSON.stringify(schema));
  // the root's own default is checked too
  assert.equal(
    checkToolDefaults(model({ type: "object", required: ["a"], default: {} }), false).map((p) => p.pointer),
    ["/tools/0/inputSchema/default"],
  );
});

test("property: an integer default with bounds is an error exactly when it lies outside them", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -50, max: 50 }),
      fc.integer({ min: -50, max: 50 }),
      fc.integer({ min: -60, max: 60 }),
      (lo, hi, value) => {
        const problems = checkToolDefaults(
          model({ type: "object", properties: { n: { type: "integer", minimum: lo, maximum: hi, default: value } } }),
          false,
        );
        assert.is(problems.length, value < lo || value > hi ? 1 : 0);
        for (const p of problems) assert.is(p.pointer, "/tools/0/inputSchema/properties/n/default");
      },
    ),
    { numRuns: 200 },
  );
});

test.run();
