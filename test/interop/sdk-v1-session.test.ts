// Our legacy-era client and server against the official TypeScript SDK v1 over its in-memory
// transport (which implements the same small Transport shape), to check the handshake, dispatch,
// progress and cancellation interoperate.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CapabilityError, McpError, type Transport } from "@mcpgen/runtime";
import { connectClient, createServerSession } from "@mcpgen/runtime/internal";
import { bindings, byRevision } from "../runtime/helpers/binding.js";

test("SDK v1 client -> our server: handshake, tools, progress, errors, server->client sampling", async () => {
  const [ct, st] = InMemoryTransport.createLinkedPair();
  const server = await createServerSession({
    transport: st as unknown as Transport,
    bindings,
    serverInfo: { name: "ours", version: "1.0.0" },
    instructions: "hi",
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({
        tools: [
          {
            name: "add",
            inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
          },
        ],
      }),
      "tools/call": async (p: any, ctx) => {
        if (p.name === "fail") throw new McpError(-32602, "Unknown tool: fail");
        await ctx.sendProgress(1, { total: 2 });
        const s: any = await ctx.sendRequest("sampling/createMessage", { messages: [], maxTokens: 1 });
        return { content: [{ type: "text", text: `${p.arguments.a + p.arguments.b} via ${s.model}` }] };
      },
    },
  });
  const client = new Client({ name: "sdk", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "x" },
    model: "m1",
  }));
  await client.connect(ct);
  await server.initialized;
  assert.is(server.protocolVersion, "2025-11-25");
  assert.equal(client.getServerVersion(), { name: "ours", version: "1.0.0" });
  assert.is(client.getInstructions(), "hi");
  assert.is((await client.listTools()).tools[0]!.name, "add");
  const progress: number[] = [];
  const r: any = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }, undefined, {
    onprogress: (p) => void progress.push(p.progress),
  });
  assert.is(r.content[0].text, "5 via m1");
  assert.equal(progress, [1]);
  const e: any = await client.callTool({ name: "fail", arguments: {} }).catch((x) => x);
  assert.ok(e.code === -32602 || e.message.includes("Unknown tool"), String(e));
  await client.ping();
  await server.ping();
  await client.close();
});

test("our client -> SDK v1 server: negotiation, tools, ping, cancellation reaches the SDK handler", async () => {
  const [ct, st] = InMemoryTransport.createLinkedPair();
  const mcp = new McpServer({ name: "sdk-server", version: "2.0.0" });
  let aborted = false;
  mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  mcp.registerTool("hang", { inputSchema: {} }, async (_args, extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => ((aborted = true), resolve())));
    return { content: [] };
  });
  await mcp.connect(st);
  const client = await connectClient({
    transport: ct as unknown as Transport,
    bindings,
    clientInfo: { name: "ours", version: "1.0.0" },
  });
  assert.is(client.protocolVersion, "2025-11-25");
  assert.is(client.serverInfo.name, "sdk-server");
  const r: any = await client.request("tools/call", { name: "add", arguments: { a: 1, b: 2 } });
  assert.is(r.content[0].text, "3");
  await client.ping();
  const ac = new AbortController();
  const p = client.request("tools/call", { name: "hang", arguments: {} }, { signal: ac.signal });
  await new Promise((r) => setTimeout(r, 10));
  ac.abort();
  await p.catch(() => {});
  for (let i = 0; i < 50 && !aborted; i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(aborted, "the SDK handler saw the cancellation");
  assert.instance(await client.request("prompts/list").catch((x) => x), CapabilityError);
  await client.close();
});

test("our client asking for 2024-11-05 gets it from the SDK v1 server", async () => {
  const [ct, st] = InMemoryTransport.createLinkedPair();
  const mcp = new McpServer({ name: "sdk-server", version: "2.0.0" });
  mcp.registerTool("noop", { inputSchema: {} }, async () => ({ content: [] }));
  await mcp.connect(st);
  const client = await connectClient({
    transport: ct as unknown as Transport,
    bindings: [byRevision("2024-11-05")],
    clientInfo: { name: "ours", version: "1.0.0" },
  });
  assert.is(client.protocolVersion, "2024-11-05");
  assert.equal(await client.request("tools/call", { name: "noop", arguments: {} }), { content: [] });
  await client.close();
});

test.run();
