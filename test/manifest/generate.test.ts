import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateManifest } from "../../generator/render/manifest.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { McpgenError } from "../../generator/errors.js";
import { fixture, root, tscStrict, withTempDir, writeFiles } from "./helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

test("generateManifest: files and warnings for a valid manifest", () => {
  const r = generateManifest(fixture("schema-features"), { display: "mcp.manifest.json" });
  assert.equal(
    r.files.map((f) => f.path),
    [
      "types.ts",
      "lists.ts",
      "bindings.ts",
      "tools.ajv.ts",
      "tools.2020.ajv.ts",
      "tools.all-errors.ajv.ts",
      "tools.2020.all-errors.ajv.ts",
      "tools.defaults.ts",
      "validators.ts",
      "tool-validators.ts",
      "definition.ts",
      "server.ts",
      "client.ts",
    ],
  );
  assert.equal(
    r.warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.pointer}`),
    ["mcp.manifest.json:131:29 /tools/2/inputSchema/properties/tree/$ref"],
  );
  assert.is(r.model.identity.name, "weather");
});

test("generateManifest: emitter errors (nested type name clash) throw with file, pointer and line", () => {
  withTempDir((dir) => {
    const manifest = {
      name: "x",
      version: "1",
      tools: [
        {
          name: "t",
          inputSchema: {
            type: "object",
            $defs: { location: { type: "object", properties: { a: { type: "string" } } } },
            properties: {
              location: { type: "object", properties: { b: { type: "string" } } },
              other: { $ref: "#/$defs/location" },
            },
          },
        },
      ],
    };
    writeFiles(dir, { "mcp.manifest.json": JSON.stringify(manifest, null, 2) });
    try {
      generateManifest(join(dir, "mcp.manifest.json"), { display: "mcp.manifest.json" });
      assert.unreachable();
    } catch (e) {
      assert.instance(e, InputError);
      assert.instance(e, McpgenError);
      assert.is((e as McpgenError).exitCode, 1);
      const d = (e as InputError).diagnostics[0]!;
      assert.equal([d.file, d.pointer, d.line], ["mcp.manifest.json", "/tools/0/inputSchema/properties/location", 20]);
      assert.match(
        (e as Error).message,
        /^mcp\.manifest\.json: 1 error\n  mcp\.manifest\.json:20:\d+: error: \/tools\/0\/inputSchema\/properties\/location: generated type names clash/,
      );
    }
  });
});

test("generateManifest: every file is byte-identical across runs and independent of entry order", () => {
  const a = generateManifest(fixture("schema-features"), { display: "mcp.manifest.json" }).files;
  const b = generateManifest(fixture("schema-features"), { display: "mcp.manifest.json" }).files;
  assert.equal(b, a);
  withTempDir((dir) => {
    const m = JSON.parse(readFileSync(fixture("schema-features"), "utf8"));
    m.tools.reverse();
    m.prompts.reverse();
    m.resourceTemplates.reverse();
    writeFiles(dir, { "mcp.manifest.json": JSON.stringify(m) });
    const c = generateManifest(join(dir, "mcp.manifest.json"), { display: "mcp.manifest.json" }).files;
    // lists.ts keeps declaration order on purpose (it is what tools/list publishes); the rest is sorted
    assert.equal(
      c.filter((f) => f.path !== "lists.ts"),
      a.filter((f) => f.path !== "lists.ts"),
    );
  });
});

test("generateManifest: the weather example loads without warnings and its files compile", () => {
  const r = generateManifest(join(root, "examples", "weather", "mcp.manifest.json"));
  assert.equal(r.warnings, []);
  assert.equal(
    r.model.tools.map((t) => t.ids.member),
    ["getForecast", "searchStations", "setAlert"],
  );
  // under the repo's tmp/ so that @mcpgen/runtime/abi/v8 resolves
  const dir = tempDir("manifest-example-");
  try {
    const files = Object.fromEntries(r.files.map((f) => [f.path, f.contents]));
    writeFiles(dir, files);
    const out = tscStrict(dir, Object.keys(files));
    assert.is(out.code, 0, out.output);
  } finally {
    removeDir(dir);
  }
});

test.run();
