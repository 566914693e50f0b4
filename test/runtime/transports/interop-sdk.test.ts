// Interop with the official TypeScript SDK v1 (devDependency): its clients against our servers and
// our client against its server, at the transport level (the "session" on our side is a raw
// hand-written handler).
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  createLegacySseHandler,
  createStreamableHttpServer,
  StreamableHttpClientTransport,
} from "@mcpgen/runtime/http";
import type { JSONRPCMessage, Transport } from "@mcpgen/runtime";
import { waitFor, within } from "./helpers.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Just enough MCP to be a server: initialize, tools/list, tools/call (with progress), ping. */
function miniMcp(t: Transport): void {
  t.onmessage = (message) => {
    const m = message as JSONRPCMessage;
    if (!("method" in m) || !("id" in m)) return;
    const id = m.id;
    const params = (m.params ?? {}) as Record<string, any>;
    const reply = (result: Record<string, unknown>) => void t.send({ jsonrpc: "2.0", id, result });
    switch (m.method) {
      case "initialize":
        return reply({
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "mini", version: "1" },
        });
      case "tools/list":
        return reply({
          tools: [
            {
              name: "add",
              inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
            },
          ],
        });
      case "tools/call": {
        const token = params._meta?.progressToken;
        if (token !== undefined) {
          void t.send(
            {
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: token, progress: 1, total: 1 },
            },
            { relatedRequestId: id },
          );
        }
        return reply({ content: [{ type: "text", text: String(params.arguments.a + params.arguments.b) }] });
      }
      case "ping":
        return reply({});
      default:
        void t.send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
    }
  };
}

test("SDK v1 client (Streamable HTTP) ↔ our server: handshake, list, call with progress over SSE, close", async () => {
  const server = createStreamableHttpServer({ onsession: miniMcp, keepAliveMs: 0 });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const client = new Client({ name: "sdk", version: "1" });
  const transport = new StreamableHTTPClientTransport(url);
  cleanup.push(() => client.close());
  await within(client.connect(transport), 5000, "connect");
  assert.is(server.sessions.size, 1);
  const tools = await within(client.listTools(), 5000, "list");
  assert.is(tools.tools[0]!.name, "add");
  const progress: number[] = [];
  const r = await within(
    client.callTool({ name: "add", arguments: { a: 2, b: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    }),
    5000,
    "call",
  );
  assert.equal(r.content, [{ type: "text", text: "5" }]);
  assert.equal(progress, [1]);
  await within(transport.terminateSession(), 5000, "terminate");
  await waitFor(() => server.sessions.size === 0, 2000, "session gone");
});

test("SDK v1 client (legacy SSE) ↔ our legacy server", async () => {
  const legacy = createLegacySseHandler({ onsession: miniMcp, keepAliveMs: 0 });
  const server = createStreamableHttpServer({ onsession: miniMcp, legacySse: legacy, keepAliveMs: 0 });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const client = new Client({ name: "sdk", version: "1" });
  cleanup.push(() => client.close());
  await within(client.connect(new SSEClientTransport(new URL("/sse", url))), 5000, "connect");
  const r = await within(client.callTool({ name: "add", arguments: { a: 1, b: 1 } }), 5000, "call");
  assert.equal(r.content, [{ type: "text", text: "2" }]);
});

test("our client ↔ SDK v1 server (stateful Streamable HTTP)", async () => {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sid = req.headers["mcp-session-id"] as string | undefined;
    let t = sid ? transports.get(sid) : undefined;
    if (!t) {
      t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, t!),
      });
      const mcp = new Server({ name: "sdk-server", version: "1" }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: "add", inputSchema: { type: "object" as const } }],
      }));
      mcp.setRequestHandler(CallToolRequestSchema, async (r) => {
        const { a, b } = r.params.arguments as { a: number; b: number };
        return { content: [{ type: "text" as const, text: String(a + b) }] };
      });
      await mcp.connect(t);
    }
    await t.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r));
  cleanup.push(async () => {
    for (const t of transports.values()) await t.close();
    httpServer.closeAllConnections();
    await new Promise<void>((r) => httpServer.close(() => r()));
  });
  const c = new StreamableHttpClientTransport({
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
  });
  cleanup.push(() => c.close());
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  c.onmessage = (m) => received.push(m as JSONRPCMessage);
  c.onerror = (e) => errors.push(e);
  await c.start();
  await within(
    c.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "ours", version: "1" } },
    }),
    5000,
    "initialize",
  );
  await waitFor(() => received.length === 1, 2000, "initialize result");
  const init = received[0] as unknown as { result: { protocolVersion: string } };
  assert.type(c.sessionId, "string");
  c.setProtocolVersion(init.result.protocolVersion);
  await within(c.send({ jsonrpc: "2.0", method: "notifications/initialized" }), 5000, "initialized");
  await within(
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 20, b: 22 } } }),
    5000,
    "call",
  );
  await waitFor(() => received.length === 2, 2000, "call result");
  assert.equal((received[1] as unknown as { result: { content: unknown } }).result.content, [
    { type: "text", text: "42" },
  ]);
  await within(c.close(), 5000, "close");
  assert.equal(errors, []);
});

test.run();
