// The `changes` server feature (LocalBroadcast: telling connections and listens of changes): a
// 2026-07-28-only server that announces no change is handed none, and still acknowledges, holds,
// counts and ends its listens exactly as createMcpServer's server (every feature) does; one that
// announces changes or has task tools is refused without it, and delivers with it. The legacy era
// brings it along. The generated server is handed it exactly then.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMemoryTransportPair, createMcpServer, type McpDefinition, type Validator } from "@mcpgen/runtime";
import { createMcpServerWith, legacyEra, serveChanges, serveInputs } from "@mcpgen/runtime/abi/v8";
import { generateManifest } from "../../generator/render/manifest.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { dual, modern } from "./helpers/binding.js";
import { rawPeer, type RawPeer } from "./helpers/peer.js";

const anyObject = ((d: unknown) => typeof d === "object" && d !== null && !Array.isArray(d)) as Validator;
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function definition(revisions: string[], capabilities: object, toolTasks?: McpDefinition["toolTasks"]): McpDefinition {
  const lists = {
    serverInfo: { name: "changes", version: "1" },
    capabilities: capabilities as McpDefinition["published"][string]["capabilities"],
    tools: [{ name: "add", description: "adds", inputSchema: { type: "object" } }],
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
  return {
    revisions,
    pageSize: 100,
    published: Object.fromEntries(revisions.map((r) => [r, lists])),
    toolValidators: { add: { input: anyObject, output: null } },
    members: { tools: { add: "add" }, prompts: {}, resources: {}, resourceTemplates: {} },
    ...(toolTasks === undefined ? {} : { toolTasks }),
  };
}
const handlers = { tools: { add: () => "3" } };
const options = { bindings: [modern], onerror: () => {} };

/** A listen for tools list changes, up to its acknowledgement. */
async function listen(server: ReturnType<typeof createMcpServer>): Promise<{ peer: RawPeer; ack: unknown }> {
  const [a, b] = createMemoryTransportPair();
  await server.connect(a);
  const peer = rawPeer(b);
  await peer.send({
    jsonrpc: "2.0",
    id: 7,
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true }, _meta: META },
  });
  return { peer, ack: await peer.next(2000) };
}

test("a 2026-07-28 server announcing no change, given no changes feature, holds listens as one given every feature", async () => {
  const seen: unknown[] = [];
  for (const server of [
    createMcpServerWith(definition(["2026-07-28"], { tools: {} }), handlers, options, {}),
    createMcpServer(definition(["2026-07-28"], { tools: {} }), handlers, options),
  ]) {
    const { peer, ack } = await listen(server);
    assert.is(server.listens.size, 1, "the listen is held and counted");
    const refused = await server.notifyToolsListChanged().then(
      () => undefined,
      (e: Error) => e,
    );
    assert.match(String(refused), /does not declare tools.listChanged/);
    await server.log("error", "nobody listens");
    await server.close();
    const end = await peer.next(2000);
    seen.push([ack, end]);
    await peer.transport.close();
  }
  assert.equal(seen[0], seen[1]);
  const [ack, end] = seen[0] as [{ method: string; params: { notifications: object } }, { id: number; result: object }];
  assert.is(ack.method, "notifications/subscriptions/acknowledged");
  assert.equal(ack.params.notifications, {}, "nothing the server does not announce is honoured");
  assert.is(end.id, 7);
});

test("a 2026-07-28 server announcing changes, or with task tools, is refused without the changes feature", () => {
  // (prompts and resources are refused first for lacking their own code: server-features.test.ts)
  for (const caps of [{ tools: { listChanged: true } }, { tools: { listChanged: {} } }]) {
    assert.throws(
      () => createMcpServerWith(definition(["2026-07-28"], caps), handlers, options, {}),
      (e: Error) => e instanceof TypeError && /no `changes` feature/.test(e.message),
      JSON.stringify(caps),
    );
  }
  // Task tools are refused earlier for lacking their own code; with it, for lacking changes.
  const tasks: McpDefinition = {
    ...definition(["2026-07-28"], { tools: {} }, { add: "optional" }),
    tasks: () => import("@mcpgen/runtime/tasks/server"),
  };
  assert.throws(
    () => createMcpServerWith(tasks, handlers, options, { inputs: serveInputs }),
    (e: Error) => e instanceof TypeError && /no `changes` feature/.test(e.message),
  );
});

test("given the feature (or the legacy era), a listen is told of tools list changes", async () => {
  const servers = [
    createMcpServerWith(definition(["2026-07-28"], { tools: { listChanged: true } }), handlers, options, {
      changes: serveChanges,
    }),
    createMcpServerWith(
      definition(["2026-07-28", "2025-11-25"], { tools: { listChanged: true } }),
      handlers,
      { bindings: dual, onerror: () => {} },
      {
        legacyEra,
      },
    ),
  ];
  for (const server of servers) {
    const { peer, ack } = await listen(server);
    assert.equal((ack as { params: { notifications: object } }).params.notifications, { toolsListChanged: true });
    await server.notifyToolsListChanged();
    const told = (await peer.next(2000)) as { method: string; params: { _meta: object } };
    assert.is(told.method, "notifications/tools/list_changed");
    assert.equal(told.params._meta, { "io.modelcontextprotocol/subscriptionId": 7 });
    await server.close();
    await peer.transport.close();
  }
});

/** The generated server.ts of a manifest of `revisions` with `capabilities`. */
function emittedServer(revisions: string[], capabilities: object): string {
  const dir = tempDir("changes-");
  try {
    mkdirSync(dir, { recursive: true });
    const manifest = {
      name: "m",
      version: "1.0.0",
      revisions,
      capabilities,
      tools: [{ name: "t", inputSchema: { type: "object" } }],
    };
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest));
    const r = generateManifest(join(dir, "mcp.manifest.json"), { display: "mcp.manifest.json" });
    return r.files.find((f) => f.path === "server.ts")!.contents;
  } finally {
    removeDir(dir);
  }
}

test("the generated server is handed the changes feature when it speaks 2026-07-28 alone and announces changes", () => {
  assert.match(emittedServer(["2026-07-28"], { tools: { listChanged: true } }), "changes: runtime.serveChanges");
  assert.not.match(emittedServer(["2026-07-28"], {}), "serveChanges");
  // The legacy era brings it along.
  assert.not.match(emittedServer(["2026-07-28", "2025-11-25"], { tools: { listChanged: true } }), "serveChanges");
});

test.run();
