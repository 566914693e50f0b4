// Server features handed over by whoever creates the server (createMcpServerWith, ABI 8): a
// tools-only server given none answers prompts, resources and completion requests as before (-32601, the
// capability is not declared) in both eras, exactly as the server createMcpServer gives every
// feature; a definition declaring a feature it was not given is refused, naming it. The Mcp-Param-*
// check is the `toolHeaders` feature: needed once a tool's input schema names x-mcp-header.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair, createMcpServer, type McpDefinition, type Validator } from "@mcpgen/runtime";
import {
  createMcpServerWith,
  legacyEra,
  serveCompletion,
  servePrompts,
  serveResources,
  serveToolHeaders,
} from "@mcpgen/runtime/abi/v8";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { dual } from "./helpers/binding.js";
import { rawPeer } from "./helpers/peer.js";

const anyObject = ((d: unknown) => typeof d === "object" && d !== null && !Array.isArray(d)) as Validator;
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const REVISIONS = ["2026-07-28", "2025-11-25"];

function definition(
  capabilities: object,
  extra: Partial<McpDefinition["published"][string]> = {},
  inputSchema: object = { type: "object" },
): McpDefinition {
  const tools = [{ name: "add", description: "adds", inputSchema }];
  const lists = {
    serverInfo: { name: "features", version: "1" },
    capabilities: capabilities as McpDefinition["published"][string]["capabilities"],
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
    ...extra,
  };
  return {
    revisions: REVISIONS,
    pageSize: 100,
    published: Object.fromEntries(REVISIONS.map((r) => [r, lists])),
    toolValidators: { add: { input: anyObject, output: null } },
    members: { tools: { add: "add" }, prompts: { p: "p" }, resources: { s: "s" }, resourceTemplates: {} },
  };
}
const handlers = { tools: { add: () => "3" }, prompts: { p: () => "say hi" }, resources: { s: () => "static" } };
const options = { bindings: dual, onerror: () => {} };

/** What a server answers to `method` in 2026-07-28 and in a 2025-11-25 session. */
async function answers(server: ReturnType<typeof createMcpServer>, method: string, params: object) {
  const [a, b] = createMemoryTransportPair();
  await server.connect(a);
  const peer = rawPeer(b);
  await peer.send({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } });
  const modern = await peer.next(2000);
  await peer.transport.close();
  const [c, d] = createMemoryTransportPair();
  await server.connect(c);
  const legacy = rawPeer(d);
  await legacy.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  assert.is((await legacy.next(2000)).result?.protocolVersion, "2025-11-25");
  await legacy.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await legacy.send({ jsonrpc: "2.0", id: 2, method, params });
  const old = await legacy.next(2000);
  await legacy.transport.close();
  return { modern: modern.error, legacy: old.error };
}

const REQUESTS: [string, object][] = [
  ["prompts/get", { name: "p" }],
  ["prompts/list", {}],
  ["resources/read", { uri: "u://s" }],
  ["resources/list", {}],
  ["resources/templates/list", {}],
  ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }],
];

test("a tools-only server given no feature answers prompts, resources and completion -32601 in both eras, as one given all", async () => {
  const bare = createMcpServerWith(definition({ tools: {} }), handlers, options, { legacyEra });
  const full = createMcpServer(definition({ tools: {} }), handlers, options);
  try {
    for (const [method, params] of REQUESTS) {
      const got = await answers(bare, method, params);
      assert.is(got.modern?.code, -32601, `${method} (2026-07-28): ${JSON.stringify(got.modern)}`);
      assert.is(got.legacy?.code, -32601, `${method} (2025-11-25): ${JSON.stringify(got.legacy)}`);
      assert.equal(got, await answers(full, method, params), `${method}: the same answers as with every feature`);
    }
  } finally {
    await bare.close();
    await full.close();
  }
});

test("a server declaring prompts, resources or completions it was not given the code of is refused, naming the feature", () => {
  const resources = definition({ tools: {}, resources: {} }, { resources: [{ uri: "u://s", name: "s" }] });
  assert.throws(
    () => createMcpServerWith(resources, handlers, options, { legacyEra }),
    (e: Error) => e instanceof TypeError && /no `resources` feature/.test(e.message),
  );
  assert.throws(
    () => createMcpServerWith(definition({ tools: {}, completions: {} }), handlers, options, { legacyEra }),
    /no `completion` feature/,
  );
  const prompts = definition({ tools: {}, prompts: {} }, { prompts: [{ name: "p" }] });
  assert.throws(() => createMcpServerWith(prompts, handlers, options, { legacyEra }), /no `prompts` feature/);
  // Prompts and resources listed without the capability need their feature all the same.
  const prompted = definition({ tools: {} }, { prompts: [{ name: "p" }] });
  assert.throws(() => createMcpServerWith(prompted, handlers, options, { legacyEra }), /no `prompts` feature/);
  // Resources listed without the capability need the router all the same.
  const listed = definition({ tools: {} }, { resources: [{ uri: "u://s", name: "s" }] });
  assert.throws(() => createMcpServerWith(listed, handlers, options, { legacyEra }), /no `resources` feature/);
});

test("given the features it declares, the server serves them in both eras", async () => {
  const def = definition(
    { tools: {}, prompts: {}, resources: {}, completions: {} },
    { prompts: [{ name: "p" }], resources: [{ uri: "u://s", name: "s" }] },
  );
  const server = createMcpServerWith(def, handlers, options, {
    legacyEra,
    prompts: servePrompts,
    resources: serveResources,
    completion: serveCompletion,
  });
  try {
    const [a, b] = createMemoryTransportPair();
    await server.connect(a);
    const peer = rawPeer(b);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "u://s", _meta: META } });
    assert.is((await peer.next(2000)).result?.contents?.[0]?.text, "static");
    await peer.send({ jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: "p", _meta: META } });
    assert.is((await peer.next(2000)).result?.messages?.[0]?.content?.text, "say hi");
    await peer.send({
      jsonrpc: "2.0",
      id: 2,
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: "u://none/{x}" }, argument: { name: "x", value: "" }, _meta: META },
    });
    // Served (not -32601): an unknown template is invalid params.
    assert.is((await peer.next(2000)).error?.code, -32602);
    await peer.transport.close();
  } finally {
    await server.close();
  }
});

const MIRRORED = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };

/** Status and JSON-RPC error code of a 2026-07-28 `tools/call` of "add" POSTed to `handler` with `extra` headers. */
async function callAdd(handler: ReturnType<typeof createFetchHandler>, args: object, extra: Record<string, string>) {
  const res = await handler(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "add",
        ...extra,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "add", arguments: args, _meta: META },
      }),
    }),
  );
  const body = (await res.json()) as { error?: { code: number } };
  return [res.status, body.error?.code];
}

test("a tool mirroring an argument in a header is refused without the toolHeaders feature, and checked with it as createMcpServer checks", async () => {
  assert.throws(
    () => createMcpServerWith(definition({ tools: {} }, {}, MIRRORED), handlers, options, { legacyEra }),
    (e: Error) => e instanceof TypeError && /no `toolHeaders` feature/.test(e.message),
  );
  const given = createMcpServerWith(definition({ tools: {} }, {}, MIRRORED), handlers, options, {
    legacyEra,
    toolHeaders: serveToolHeaders,
  });
  const full = createMcpServer(definition({ tools: {} }, {}, MIRRORED), handlers, options);
  try {
    for (const server of [given, full]) {
      const handler = createFetchHandler(server, { sessions: false });
      assert.equal(await callAdd(handler, { region: "eu" }, { "mcp-param-region": "eu" }), [200, undefined]);
      assert.equal(await callAdd(handler, { region: "eu" }, { "mcp-param-region": "us" }), [400, -32020]);
      assert.equal(await callAdd(handler, { region: "eu" }, {}), [400, -32020]);
      assert.equal(await callAdd(handler, {}, { "mcp-param-region": "eu" }), [400, -32020]);
      await handler.close();
    }
  } finally {
    await given.close();
    await full.close();
  }
});

test("a server whose tools mirror nothing needs no toolHeaders feature and answers as one given it", async () => {
  const bare = createMcpServerWith(definition({ tools: {} }), handlers, options, { legacyEra });
  const full = createMcpServer(definition({ tools: {} }), handlers, options);
  try {
    for (const server of [bare, full]) {
      const handler = createFetchHandler(server, { sessions: false });
      // No argument is annotated: a stray Mcp-Param-* header is no one's business.
      assert.equal(await callAdd(handler, { region: "eu" }, { "mcp-param-region": "us" }), [200, undefined]);
      await handler.close();
    }
  } finally {
    await bare.close();
    await full.close();
  }
});

test.run();
