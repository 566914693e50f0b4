// Keys of MCP wire objects that mcpgen's manifest format does not list (a real server's
// `annotations.category`, a prompt argument's `default`): accepted where MCP's schema admits them
// and published as given, end to end; a key no spoken revision admits is a warning and left out.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  connectMcpClient,
  createMcpServer,
  createMemoryTransportPair,
  type McpDefinition,
  type Validator,
} from "@mcpgen/runtime";
import { manifestSchemaPath, parseManifest } from "../../generator/load/manifest.js";
import { mcpDefinitions, type Definitions } from "../../generator/load/mcp-definitions.js";
import { bundledRevisions } from "../../generator/load/schema-manifest.js";
import { checkWireKeys } from "../../generator/load/wire-keys.js";
import { generateManifest } from "../../generator/render/manifest.js";
import { pick, wireFields } from "../../generator/model/wire-fields.js";
import { runCli } from "../cli/run-cli.js";
import { bindings } from "../runtime/helpers/binding.js";
import { fixture, withTempDir } from "./helpers.js";

const captured = fixture("captured-extras");
const declared = JSON.parse(readFileSync(captured, "utf8"));

// TS 5 keeps the JS API (TS 7's package is the native CLI): strip types, then import the module.
const ts5 = createRequire(import.meta.url)("typescript-5") as {
  transpileModule(src: string, o: object): { outputText: string };
};
async function evaluate(
  source: string,
): Promise<{ published: McpDefinition["published"]; revisions: string[]; pageSize: number }> {
  const js = ts5.transpileModule(source, { compilerOptions: { module: 99, target: 9 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString("base64")}`);
}

test("a captured manifest with keys MCP admits generates without edits and without --lenient; each warning printed once, labelled once", () => {
  withTempDir((dir) => {
    copyFileSync(captured, join(dir, "mcp.manifest.json"));
    const r = runCli(["generate", "--manifest", "mcp.manifest.json", "--out", "out", "--no-cache"], dir);
    assert.is(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split("\n");
    // the one near miss ("readOnly" for "readOnlyHint"); category, conditions, default, enum, source and x-* pass silently
    assert.equal(lines, [
      `warning: mcp.manifest.json:18:136: /tools/1/annotations/readOnly: "readOnly" is not a field of MCP's ToolAnnotations (did you mean "readOnlyHint"?); MCP admits other properties, so it is published as given`,
    ]);
    const check = runCli(["check", "--manifest", "mcp.manifest.json", "--out", "out", "--no-cache"], dir);
    assert.is(check.status, 0, check.stderr);
    assert.is(check.stderr.split("\n").filter((l) => l.includes("warning")).length, 1, check.stderr);
    assert.not.match(check.stderr, /warning:.*warning:/);
  });
});

test("the extras reach tools/list, prompts/list and resources/list exactly as given, in every revision that publishes the object", async () => {
  const lists = generateManifest(captured).files.find((f) => f.path === "lists.ts")!;
  const { published, revisions, pageSize } = await evaluate(lists.contents);
  const tools = declared.tools as { name: string }[];
  const definition: McpDefinition = {
    revisions,
    pageSize,
    published,
    toolValidators: Object.fromEntries(
      tools.map((t) => [t.name, { input: ((_: unknown): boolean => true) as Validator, output: null }]),
    ),
    members: {
      tools: { read_file: "readFile", write_file: "writeFile" },
      prompts: { summarise: "summarise" },
      resources: { readme: "readme" },
      resourceTemplates: {},
    },
  };
  const handlers = {
    tools: { readFile: () => "x", writeFile: () => "ok" },
    prompts: { summarise: () => "s" },
    resources: { readme: () => "# hi" },
  };
  const server = createMcpServer(definition, handlers as never, { bindings });
  try {
    for (const revision of ["2025-11-25", "2025-03-26", "2024-11-05"]) {
      const [ct, st] = createMemoryTransportPair();
      await server.connect(st);
      const client = await connectMcpClient(ct, {
        bindings,
        clientInfo: { name: "c", version: "1" },
        protocolVersion: revision,
        timeout: 5000,
      });
      try {
        assert.is(client.protocolVersion, revision);
        const listed = (await client.listTools()) as { [key: string]: unknown }[];
        // a key no revision defines is the server's own: published everywhere, as given
        assert.equal(listed[0]!["x-rate-limit"], { perMinute: 60 }, revision);
        // annotations are MCP's from 2025-03-26: then with every key as declared
        if (revision === "2024-11-05") assert.not.ok("annotations" in listed[0]!);
        else
          assert.equal(
            listed.map((t) => t.annotations),
            [declared.tools[0].annotations, declared.tools[1].annotations],
            revision,
          );
        const prompts = (await client.listPrompts()) as { arguments: unknown[] }[];
        assert.equal(prompts[0]!.arguments, declared.prompts[0].arguments, revision);
        const resources = (await client.listResources()) as { [key: string]: unknown }[];
        assert.equal(resources[0]!.annotations, declared.resources[0].annotations, revision);
        assert.is(resources[0]!["x-etag"], "abc");
      } finally {
        await client.close();
      }
    }
  } finally {
    await server.close();
  }
});

/** The bundled definitions, with one definition closed (`additionalProperties: false`) in `closedIn`. */
function closing(name: string, closedIn: readonly string[]): (revision: string) => Definitions {
  return (revision) => {
    const defs = mcpDefinitions(revision);
    if (!closedIn.includes(revision) || !defs[name]) return defs;
    return { ...defs, [name]: { ...defs[name], additionalProperties: false } };
  };
}

test("a key no spoken revision admits is a warning and left out of what is published; one some spoken revision admits is kept", () => {
  const schema = JSON.parse(readFileSync(manifestSchemaPath(), "utf8"));
  const bundled = bundledRevisions();
  const manifest = () => JSON.parse(readFileSync(captured, "utf8"));
  const closedEverywhere = manifest();
  const problems = checkWireKeys({
    manifest: closedEverywhere,
    manifestSchema: schema,
    spoken: ["2025-11-25", "2025-06-18"],
    bundled,
    definitionsOf: closing("ToolAnnotations", bundled),
  });
  assert.equal(
    problems.map((p) => `${p.pointer}: ${p.message}`),
    [
      `/tools/0/annotations/category: unknown property "category": MCP's ToolAnnotations admits no other properties (2025-06-18, 2025-11-25), so it is left out of what is published`,
      `/tools/0/annotations/conditions: unknown property "conditions": MCP's ToolAnnotations admits no other properties (2025-06-18, 2025-11-25), so it is left out of what is published`,
      `/tools/1/annotations/category: unknown property "category": MCP's ToolAnnotations admits no other properties (2025-06-18, 2025-11-25), so it is left out of what is published`,
      `/tools/1/annotations/conditions: unknown property "conditions": MCP's ToolAnnotations admits no other properties (2025-06-18, 2025-11-25), so it is left out of what is published`,
      `/tools/1/annotations/readOnly: unknown property "readOnly" (did you mean "readOnlyHint"?): MCP's ToolAnnotations admits no other properties (2025-06-18, 2025-11-25), so it is left out of what is published`,
    ],
  );
  assert.equal(closedEverywhere.tools[1].annotations, { destructiveHint: true });
  assert.equal(closedEverywhere.tools[0]["x-rate-limit"], { perMinute: 60 }, "Tool itself stays open");
  // closed in one spoken revision only: the other admits the keys, so they stay (and the lists drop them where closed)
  const closedInOne = manifest();
  const some = checkWireKeys({
    manifest: closedInOne,
    manifestSchema: schema,
    spoken: ["2025-11-25", "2025-06-18"],
    bundled,
    definitionsOf: closing("ToolAnnotations", ["2025-11-25"]),
  });
  assert.equal(
    some.map((p) => p.pointer),
    ["/tools/1/annotations/readOnly"],
  );
  assert.equal(closedInOne.tools[0].annotations, declared.tools[0].annotations);
  // a revision that is not spoken has no say
  const unspoken = manifest();
  checkWireKeys({
    manifest: unspoken,
    manifestSchema: schema,
    spoken: ["2025-06-18"],
    bundled,
    definitionsOf: closing("ToolAnnotations", ["2025-11-25"]),
  });
  assert.equal(unspoken.tools[0].annotations, declared.tools[0].annotations);
});

test("lists: a revision publishes the keys it declares and the extras where its schema admits them; never another revision's fields", () => {
  const f = wireFields("2025-06-18").Tool;
  const tool = { name: "t", inputSchema: {}, execution: { taskSupport: "optional" }, "x-extra": 1 };
  assert.equal(pick(tool, f), { name: "t", inputSchema: {}, "x-extra": 1 }, "execution is 2025-11-25's");
  assert.equal(pick(tool, { ...f, open: false }), { name: "t", inputSchema: {} });
});

test("the manifest loads the same with every key (nothing renamed), and a typo in mcpgen's own keys stays an error", () => {
  const loaded = parseManifest(readFileSync(captured, "utf8"), "m.json");
  assert.equal(loaded.manifest, declared);
  const text = JSON.stringify({ ...declared, tools: [{ ...declared.tools[0], auth: { scopes: ["a"], scopez: [] } }] });
  assert.throws(
    () => parseManifest(text, "m.json"),
    /\/tools\/0\/auth\/scopez: unknown property "scopez" \(did you mean "scopes"\?\)/,
  );
});

test.run();
