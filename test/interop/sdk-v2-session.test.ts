// Our legacy-era client and server against the official TypeScript SDK v2 (server/client 2.4.0)
// over its in-memory transport.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Transport } from "@mcpgen/runtime";
import { connectClient, createServerSession } from "@mcpgen/runtime/internal";
import { bindings } from "../runtime/helpers/binding.js";

test("SDK v2 client -> our server", async () => {
  const [ct, st] = InMemoryTransport.createLinkedPair();
  const server = await createServerSession({
    transport: st as unknown as Transport,
    bindings,
    serverInfo: { name: "ours", version: "1.0.0" },
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [{ name: "add", inputSchema: { type: "object" } }] }),
      "tools/call": (p: any) => ({ content: [{ type: "text", text: String(p.arguments.a + p.arguments.b) }] }),
    },
  });
  const client = new Client({ name: "sdk2", version: "1.0.0" });
  await client.connect(ct);
  await server.initialized;
  assert.ok(server.protocolVersion);
  assert.is((await client.listTools()).tools[0]!.name, "add");
  const r: any = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
  assert.is(r.content[0].text, "5");
  await client.close();
});

test("our client -> SDK v2 server", async () => {
  const [ct, st] = InMemoryTransport.createLinkedPair();
  const mcp = new McpServer({ name: "sdk2-server", version: "2.0.0" });
  mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  await mcp.connect(st);
  const client = await connectClient({
    transport: ct as unknown as Transport,
    bindings,
    clientInfo: { name: "ours", version: "1.0.0" },
  });
  assert.is(client.serverInfo.name, "sdk2-server");
  const r: any = await client.request("tools/call", { name: "add", arguments: { a: 1, b: 2 } });
  assert.is(r.content[0].text, "3");
  await client.ping();
  await client.close();
});

test.run();
