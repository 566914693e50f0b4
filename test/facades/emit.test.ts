// The server/client/definition emitters (templates/facades/*.hbs + a view model): what the print
// stage makes of them is prettier's layout, deterministic and independent of entry order; odd
// names compile.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import prettier from "prettier";
import { parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitDefinition } from "../../generator/emit/manifest/definition.js";
import { emitServer } from "../../generator/emit/manifest/server.js";
import { emitClient } from "../../generator/emit/manifest/client.js";
import { generateManifest } from "../../generator/render/manifest.js";
import { printFiles } from "../../generator/print/index.js";
import { fixture, root, tscStrict, withTempDir, writeFiles } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { RUNTIME_ABI } from "../../generator/emit/runtime-imports.js";

const format = (text: string) => prettier.format(text, { parser: "typescript", printWidth: 120, trailingComma: "all" });

const longNames = {
  name: "a-server-with-a-rather-long-name-to-force-line-breaks-in-signatures",
  version: "1",
  capabilities: { completions: {} },
  tools: [
    { name: "delete", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    {
      name: "compute_the_extremely_long_named_statistic_of_everything_everywhere",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { n: { type: "number" } } },
    },
  ],
  prompts: [
    {
      name: "a_prompt_with_a_very_long_name_for_breaking_lines",
      arguments: [{ name: "user-name", required: true }, { name: "class" }],
    },
  ],
  resourceTemplates: [
    { uriTemplate: "x://{the.id}{?q}", name: "a_template_whose_name_is_long_enough_to_break_the_line" },
  ],
};

function facades(text: string) {
  const model = buildServerModel(parseManifest(text, "mcp.manifest.json"));
  return [emitDefinition(model), emitServer(model), emitClient(model)].map((file) => ({ file }));
}

const inputs: [string, string][] = [
  ["facades", readFileSync(fixture("facades"), "utf8")],
  ["schema-features", readFileSync(fixture("schema-features"), "utf8")],
  ["tools-list-pasted", readFileSync(fixture("tools-list-pasted"), "utf8")],
  ["weather", readFileSync(join(root, "examples", "weather", "mcp.manifest.json"), "utf8")],
  ["long names", JSON.stringify(longNames)],
  ["empty", JSON.stringify({ name: "empty", version: "1" })],
];

test("printed facade files are prettier fixpoints with no blank-line runs or trailing spaces left by the templates", async () => {
  let checked = 0;
  for (const [name, text] of inputs) {
    const printed = await printFiles(
      facades(text).map((f) => f.file),
      { display: "mcp.manifest.json", sha256: "0".repeat(64) },
    );
    for (const f of printed) {
      assert.fixture(await format(f.contents), f.contents, `${name} ${f.path}`);
      assert.not.match(f.contents, /\n\n\n|[ \t]\n/, `${name} ${f.path}`);
      checked++;
    }
  }
  assert.is(checked, inputs.length * 3);
});

test("facade files are deterministic and independent of entry order", () => {
  const m = JSON.parse(inputs[0]![1]);
  const a = facades(JSON.stringify(m));
  m.tools.reverse();
  m.prompts.reverse();
  m.resources.reverse();
  m.resourceTemplates.reverse();
  assert.equal(facades(JSON.stringify(m)), a);
  assert.equal(facades(inputs[0]![1]), a);
});

test("reserved words, dashed argument names and long names compile; an empty manifest too", () => {
  for (const manifest of [longNames, { name: "empty", version: "1" }]) {
    const dir = tempDir("facades-names-");
    try {
      writeFiles(dir, { "mcp.manifest.json": JSON.stringify(manifest) });
      const r = generateManifest(join(dir, "mcp.manifest.json"));
      writeFiles(dir, Object.fromEntries(r.files.map((f) => [f.path, f.contents])));
      const out = tscStrict(dir, ["server.ts", "client.ts"]);
      assert.is(out.code, 0, out.output);
    } finally {
      removeDir(dir);
    }
  }
});

test("the facade fixture (generated files, handlers, type tests) also compiles with TypeScript 5", () => {
  const dir = tempDir("facades-ts5-");
  try {
    const r = generateManifest(fixture("facades"));
    const generated = Object.fromEntries(r.files.map((f) => [f.path, f.contents]));
    writeFiles(dir, Object.fromEntries(Object.entries(generated).map(([p, t]) => [`mcp/${p}`, t])));
    for (const f of ["handlers.ts", "type-errors.ts", "drive.ts"])
      writeFiles(dir, { [f]: readFileSync(join(root, "test", "fixtures", "facades", f), "utf8") });
    const out = tscStrict(
      dir,
      ["mcp/server.ts", "mcp/client.ts", "handlers.ts", "type-errors.ts", "drive.ts"],
      "typescript-5",
    );
    assert.is(out.code, 0, out.output);
  } finally {
    removeDir(dir);
  }
});

// The server's protocol loaders (`protocol/server-load`) are mcpgen's own generated bindings shipped in
// the runtime, like the `protocol/<revision>/...` modules they load, not runtime code behind the ABI.
test("server.ts / client.ts import only the runtime's versioned ABI entry, the server's protocol loaders and sibling files", () => {
  for (const [, text] of inputs) {
    for (const f of facades(text)) {
      for (const m of f.file.contents.matchAll(/from "([^"]+)"/g))
        assert.ok(
          m[1] === `@mcpgen/runtime/abi/v${RUNTIME_ABI}` ||
            (f.file.path.endsWith("server.ts") && m[1] === "@mcpgen/runtime/protocol/server-load") ||
            m[1]!.startsWith("./"),
          m[1],
        );
    }
  }
});

void withTempDir;
test.run();
