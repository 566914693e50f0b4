// The world publishes broken tool lists (gitlab: root inputSchema without "type"). One malformed
// tool must not cost the client the whole list, nor that tool: it is kept as sent with its defect
// reported, and only an entry that cannot be used at all (no name) is dropped; strictLists
// restores all-or-nothing, with an error naming trustPeer. And a server generated from such a
// manifest publishes a valid schema.
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  connectMcpClient,
  createMemoryTransportPair,
  InvalidListEntryError,
  InvalidResultError,
} from "@mcpgen/runtime";
import { createServerSession } from "@mcpgen/runtime/internal";
import { createEverythingClient } from "../../examples/everything/src/mcp/client.js";
import { parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { bindings, latest } from "../runtime/helpers/binding.js";

const good = { name: "good", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
const broken = { name: "gitlab_like", inputSchema: { properties: { project: { type: "string" } } } };
const page = (cursor: unknown) =>
  cursor === undefined
    ? { tools: [good, broken], nextCursor: "2" }
    : { tools: [{ ...good, name: "good2" }, { name: 5 }] };

async function serve(
  handlers: { [method: string]: (p: any) => unknown } = {
    "tools/list": (p: { cursor?: unknown } | undefined) => page(p?.cursor),
  },
) {
  const [ct, st] = createMemoryTransportPair();
  await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "broken-lists", version: "1" },
    capabilities: { tools: {}, prompts: {}, resources: {} },
    handlers: handlers as never,
  });
  return ct;
}

test("generic client: a tool with a defective schema is kept as sent and reported; one without a name is dropped", async () => {
  const errors: Error[] = [];
  const client = await connectMcpClient(await serve(), {
    bindings,
    clientInfo: { name: "t", version: "1" },
    onerror: (e) => errors.push(e),
  });
  const tools = await client.listTools();
  assert.equal(
    tools.map((t) => t.name),
    ["good", "gitlab_like", "good2"],
  );
  assert.equal(tools[1], broken, "kept verbatim");
  assert.is(client.listProblems.length, 2);
  assert.instance(client.listProblems[0], InvalidListEntryError);
  assert.is(client.listProblems[0]!.entryName, "gitlab_like");
  assert.is(client.listProblems[0]!.kept, true);
  assert.match(
    client.listProblems[0]!.message,
    /tools\/list: "gitlab_like" \(entry 1\) kept despite a defect: \/tools\/1\/inputSchema/,
  );
  assert.is(client.listProblems[1]!.entryName, undefined);
  assert.is(client.listProblems[1]!.kept, false);
  // Named by its place in the whole list (second entry of the second page).
  assert.is(client.listProblems[1]!.index, 3);
  assert.match(
    client.listProblems[1]!.message,
    /tools\/list: entry 3 dropped: \/tools\/3\/name must be a string: the entry cannot be used without it/,
  );
  assert.equal(errors.filter((e) => e instanceof InvalidListEntryError).length, 2);
  await client.close();
});

test("generic client: invalid JSON Schema keywords are kept; prompts, resources and templates follow the same rule", async () => {
  const tools = [
    { name: "bad_required", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: "q" } },
    { name: "bad_properties", inputSchema: { type: "object", properties: [] } },
    { name: "no_schema" },
    { inputSchema: { type: "object" }, description: "no name" },
  ];
  const client = await connectMcpClient(
    await serve({
      "tools/list": () => ({ tools }),
      "prompts/list": () => ({ prompts: [{ name: "p", arguments: [{ required: true }] }, { description: "no name" }] }),
      "resources/list": () => ({ resources: [{ uri: "demo://no-name" }, { name: "no uri" }] }),
      "resources/templates/list": () => ({
        resourceTemplates: [{ uriTemplate: "demo://{id}" }, { name: "no template" }],
      }),
    }),
    { bindings, clientInfo: { name: "t", version: "1" } },
  );
  assert.equal(
    (await client.listTools()).map((t) => t.name),
    ["bad_required", "bad_properties", "no_schema"],
  );
  assert.equal(
    client.listProblems.map((p) => [p.index, p.kept]),
    [
      [0, true],
      [1, true],
      [2, true],
      [3, false],
    ],
  );
  assert.equal(
    (await client.listPrompts()).map((p) => p.name),
    ["p"],
  );
  assert.equal(
    client.listProblems.map((p) => [p.index, p.kept]),
    [
      [0, true],
      [1, false],
    ],
  );
  assert.equal(
    (await client.listResources()).map((r) => r.uri),
    ["demo://no-name"],
  );
  assert.equal(
    client.listProblems.map((p) => [p.index, p.kept]),
    [
      [0, true],
      [1, false],
    ],
  );
  assert.equal(
    (await client.listResourceTemplates()).map((r) => r.uriTemplate),
    ["demo://{id}"],
  );
  assert.equal(
    client.listProblems.map((p) => [p.index, p.kept]),
    [
      [0, true],
      [1, false],
    ],
  );
  await client.close();
});

test("generic client: a malformed envelope still fails whole", async () => {
  const client = await connectMcpClient(
    await serve({ "tools/list": () => ({ tools: [{ name: 1 }], nextCursor: 7 }) }),
    { bindings, clientInfo: { name: "t", version: "1" } },
  );
  assert.instance(
    await client.listTools().then(
      () => undefined,
      (x: unknown) => x,
    ),
    InvalidResultError,
  );
  await client.close();
});

test("strictLists: one bad tool fails the call, and the error names trustPeer", async () => {
  const client = await connectMcpClient(await serve(), {
    bindings,
    clientInfo: { name: "t", version: "1" },
    strictLists: true,
  });
  const e = await client.listTools().then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.instance(e, InvalidResultError);
  assert.match((e as Error).message, /trustPeer/);
  await client.close();
});

test("generated client: the same leniency", async () => {
  const client = await createEverythingClient(await serve(), {
    clientInfo: { name: "t", version: "1" },
    bindings: [latest],
  });
  assert.equal(
    (await client.listTools()).map((t) => t.name),
    ["good", "gitlab_like", "good2"],
  );
  assert.equal(
    client.listProblems.map((p) => p.kept),
    [true, false],
  );
  await client.close();
});

test("generator: an inputSchema without a root type is published with type object, with a warning", () => {
  const manifest = {
    name: "m",
    version: "1.0.0",
    tools: [
      { name: "no_type", inputSchema: { properties: { project: { type: "string" } }, required: ["project"] } },
      { name: "empty", inputSchema: {} },
    ],
  };
  const loaded = parseManifest(JSON.stringify(manifest, null, 2), "m.json");
  const warnings = loaded.diagnostics.filter((d) => d.severity === "warning").map((d) => `${d.pointer} ${d.message}`);
  assert.ok(
    warnings.some((w) => w.startsWith("/tools/0/inputSchema ") && /"type": "object" added/.test(w)),
    warnings.join("\n"),
  );
  assert.ok(
    warnings.some((w) => w.startsWith("/tools/1/inputSchema ") && /published as \{"type":"object"\}/.test(w)),
    warnings.join("\n"),
  );
  const model = buildServerModel(loaded);
  const published = model.tools.map((t) => t.definition);
  const byName = (n: string) => published.find((t) => t.name === n)!;
  assert.equal(byName("no_type").inputSchema, {
    type: "object",
    properties: { project: { type: "string" } },
    required: ["project"],
  });
  assert.equal(byName("empty").inputSchema, { type: "object" });
  const validate = latest.results["tools/list"]!;
  assert.ok(validate({ tools: published }), JSON.stringify(validate.errors));
});

test.run();
