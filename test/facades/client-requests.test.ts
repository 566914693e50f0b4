// The manifest's `clientRequests`: the generated handler context offers the declared requests only
// (the fixture's @ts-expect-error lines compile, tsc --strict), the declared ones work, and a
// manifest declaring none leaves the MRTR code out of its server (no `serveInputs`), whose
// `ctx.client` then refuses, whose retries' `requestState` is refused and whose unread
// `inputResponses` are ignored; task tools still get it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMemoryTransportPair, type McpDefinition, type Validator } from "@mcpgen/runtime";
import { createMcpServerWith, serveInputs } from "@mcpgen/runtime/abi/v8";
import { generateManifest } from "../../generator/render/manifest.js";
import { modern } from "../runtime/helpers/binding.js";
import { rawPeer } from "../runtime/helpers/peer.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { root } from "../manifest/helpers.js";
import { buildFixture, type BuiltFixture } from "./build-fixture.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

let fx: BuiltFixture;
test.before(async () => {
  fx = await buildFixture("client-requests", []);
});
test.after(() => fx?.cleanup());

async function call(server: any, params: object): Promise<any> {
  const [a, b] = createMemoryTransportPair();
  await server.connect(a);
  const peer = rawPeer(b);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: {}, ...params, _meta: META } });
  const reply = await peer.next(2000);
  await peer.transport.close();
  return reply;
}

test("declared requests compile and work; undeclared ones are compile errors (TypeScript 7 and 5.9)", async () => {
  assert.is(fx.tsc.code, 0, fx.tsc.output);
  const ts5 = spawnSync(
    process.execPath,
    [join(root, "node_modules", "typescript-5", "bin", "tsc"), "-p", join(fx.dir, "tsconfig.json"), "--noEmit"],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.is(ts5.status, 0, `${ts5.stdout}${ts5.stderr}`);
  const { server } = await fx.load("handlers.js");
  try {
    const first = await call(server, { name: "ask" });
    assert.is(first.result?.resultType, "input_required", JSON.stringify(first));
    const done = await call(server, {
      name: "ask",
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: first.result.requestState,
    });
    assert.is(done.result?.content?.[0]?.text, "hello Ada", JSON.stringify(done));
  } finally {
    await server.close();
  }
});

/** The generated server.ts of a one-tool manifest with `extra` fields. */
function emittedServer(extra: object): string {
  const dir = tempDir("client-requests-");
  try {
    mkdirSync(dir, { recursive: true });
    const tools = [{ name: "t", inputSchema: { type: "object" } }];
    const manifest = { name: "m", version: "1.0.0", revisions: ["2026-07-28"], tools, ...extra };
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest));
    const r = generateManifest(join(dir, "mcp.manifest.json"), { display: "mcp.manifest.json" });
    return r.files.find((f) => f.path === "server.ts")!.contents;
  } finally {
    removeDir(dir);
  }
}

test("the generated server is handed the MRTR code unless its manifest declares no client requests", () => {
  const undeclared = emittedServer({});
  assert.match(undeclared, "inputs: runtime.serveInputs");
  assert.match(undeclared, "ctx: HandlerContext)");
  const none = emittedServer({ clientRequests: [] });
  assert.not.match(none, "serveInputs");
  assert.match(none, "ctx: HandlerContext<never>");
  const some = emittedServer({ clientRequests: ["roots", "elicitation"] });
  assert.match(some, "inputs: runtime.serveInputs");
  assert.match(some, 'ctx: HandlerContext<"elicitation" | "roots">');
});

const anyObject = ((d: unknown) => typeof d === "object" && d !== null && !Array.isArray(d)) as Validator;
function definition(taskSupport?: "optional"): McpDefinition {
  const tools = [{ name: "ask", description: "asks", inputSchema: { type: "object" } }];
  const lists = {
    serverInfo: { name: "s", version: "1" },
    capabilities: { tools: {} },
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
  return {
    revisions: ["2026-07-28"],
    pageSize: 100,
    published: { "2026-07-28": lists },
    toolValidators: { ask: { input: anyObject, output: null } },
    members: { tools: { ask: "ask" }, prompts: {}, resources: {}, resourceTemplates: {} },
    ...(taskSupport ? { toolTasks: { ask: taskSupport }, tasks: () => import("@mcpgen/runtime/tasks/server") } : {}),
  } as McpDefinition;
}

test("a server given no MRTR code: ctx.client refuses, requestState is refused, unread inputResponses are ignored", async () => {
  const handlers = {
    tools: {
      ask: async (_: never, ctx: any) => {
        const info = ctx.client.info?.name;
        try {
          await ctx.client.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } });
          return "asked";
        } catch (e) {
          return `${info}: ${(e as Error).message}`;
        }
      },
    },
  };
  const server = createMcpServerWith(definition(), handlers, { bindings: [modern], onerror: () => {} }, {});
  try {
    const refused = await call(server, { name: "ask" });
    assert.match(refused.result?.content?.[0]?.text, /^raw: .*asks clients for no input/);
    const state = await call(server, { name: "ask", requestState: "v1.x.y" });
    assert.is(state.error?.code, -32602);
    assert.is(state.error.data.pointer, "/params/requestState");
    const unread = await call(server, { name: "ask", inputResponses: { k: { action: "accept" } } });
    assert.is(unread.result?.resultType, "complete", JSON.stringify(unread));
  } finally {
    await server.close();
  }
  const withInputs = createMcpServerWith(
    definition(),
    handlers,
    { bindings: [modern], onerror: () => {} },
    {
      inputs: serveInputs,
    },
  );
  try {
    assert.is((await call(withInputs, { name: "ask" })).result?.resultType, "input_required");
  } finally {
    await withInputs.close();
  }
});

test("tools that may run as tasks need the MRTR code", () => {
  assert.throws(
    () => createMcpServerWith(definition("optional"), { tools: { ask: () => "" } }, { bindings: [modern] }, {}),
    /no `inputs` feature/,
  );
});

test.run();
