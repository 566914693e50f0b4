// createFetchHandler serving the generated everything server through a host that knows only fetch
// (@hono/node-server turns node's requests into Requests and the returned Responses back, streams
// included) on 127.0.0.1: the official SDK v2 client at 2026-07-28 and in auto mode, input-required
// rounds, an SDK v1 client in a legacy session with its GET stream and over 2024-11-05 HTTP+SSE,
// a listen stream receiving a change, and the node:http handler's refusals (Origin, Host, body
// size, method).
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { AddressInfo } from "node:net";
import { request, type Server } from "node:http";
import { serve } from "@hono/node-server";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createFetchHandler, type FetchHandler } from "@mcpgen/runtime/fetch";
import { createServer } from "../../../examples/everything/src/server.js";

const server = createServer({ onerror: () => {} });
const errors: Error[] = [];
const handler: FetchHandler = createFetchHandler(server, {
  maxBodyBytes: 64 * 1024,
  keepAliveMs: 50,
  legacySse: true,
  onerror: (e) => void errors.push(e),
});
const http = serve({ fetch: handler, port: 0, hostname: "127.0.0.1" }) as Server;
await new Promise<void>((resolve) => (http.listening ? resolve() : http.once("listening", () => resolve())));
const port = (http.address() as AddressInfo).port;
const url = new URL(`http://127.0.0.1:${port}/mcp`);

function modernClient(mode: "auto" | { pin: string }): ClientV2 {
  const client = new ClientV2({ name: "fetch-handler", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode },
  } as never);
  client.setRequestHandler(
    "elicitation/create",
    async () => ({ action: "accept", content: { name: "Alice" } }) as never,
  );
  return client;
}

test.after(async () => {
  await handler.close();
  await server.close();
  await new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
});

test("SDK v2 client at 2026-07-28 and in auto mode: lists, a structured tool call, an input-required round", async () => {
  for (const mode of [{ pin: "2026-07-28" }, "auto"] as const) {
    const client = modernClient(mode);
    await client.connect(new HttpV2(url));
    try {
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((t) => t.name === "test_simple_text"),
        JSON.stringify(mode),
      );
      const r: any = await client.callTool({ name: "test_simple_text" });
      assert.is(r.content[0].text, "This is a simple text response for testing.");
      const asked: any = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      assert.is(asked.content[0].text, "Hello, Alice!");
      const { prompts } = await client.listPrompts();
      assert.ok(prompts.length > 0);
    } finally {
      await client.close();
    }
  }
});

test("SDK v1 client in a legacy session: initialize, a tool call, a list change on its GET stream, DELETE", async () => {
  const client = new ClientV1({ name: "v1", version: "1" }, { capabilities: {} });
  const transport = new HttpV1(url);
  await client.connect(transport);
  assert.ok(transport.sessionId, "a session id");
  assert.is(handler.sessions.size, 1);
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  const r: any = await client.callTool({ name: "test_simple_text" });
  assert.is(r.content[0].text, "This is a simple text response for testing.");
  // The GET stream is open once the SDK has seen the session; the change arrives on it.
  for (let i = 0; i < 100 && ![...handler.sessions.values()][0]?.hasStandaloneStream; i++)
    await new Promise((r) => setTimeout(r, 10));
  await client.callTool({ name: "test_trigger_tool_change" });
  await changed;
  await transport.terminateSession();
  await client.close();
  assert.is(handler.sessions.size, 0);
});

test("SDK v1 client over the 2024-11-05 HTTP+SSE transport (legacySse): its stream, a tool call, the session gone when it closes", async () => {
  const client = new ClientV1({ name: "v1-sse", version: "1" }, { capabilities: {} });
  const transport = new SSEClientTransport(new URL("/sse", url));
  await client.connect(transport);
  const r: any = await client.callTool({ name: "test_simple_text" });
  assert.is(r.content[0].text, "This is a simple text response for testing.");
  await client.close();
});

const MODERN = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
};
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

test("a subscriptions/listen stream is a streamed Response that receives a change, and ends when the client goes", async () => {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: "POST",
    headers: { ...MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: META },
    }),
    signal: abort.signal,
  });
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/event-stream");
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const until = async (what: string) => {
    for (let i = 0; i < 200 && !text.includes(what); i++) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    assert.ok(text.includes(what), `stream so far: ${text}`);
  };
  await until("notifications/subscriptions/acknowledged");
  await server.notifyToolsListChanged();
  await until("notifications/tools/list_changed");
  await until(": keep-alive");
  abort.abort();
  await reader.cancel().catch(() => {});
});

test("the node:http handler's refusals: a foreign Origin, a foreign Host, an oversized body, an unknown path, a wrong method", async () => {
  const post = (headers: Record<string, string>, body: string) =>
    fetch(url, { method: "POST", headers: { ...MODERN, "mcp-method": "tools/list", ...headers }, body });
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
  let r = await post({ origin: "https://evil.example" }, call);
  assert.is(r.status, 403);
  assert.match(((await r.json()) as any).error.message, /Origin not allowed/);
  r = await post({ origin: `http://127.0.0.1:${port}` }, call);
  assert.is(r.status, 200, "the server's own origin");
  await r.text();
  // fetch sends the Host of its URL whatever it is given: a raw request says another.
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { ...MODERN, "mcp-method": "tools/list", host: "evil.example" } },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on("error", reject);
    req.end(call);
  });
  assert.is(status, 421);
  r = await post(
    {},
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: META, pad: "x".repeat(70 * 1024) },
    }),
  );
  assert.is(r.status, 413);
  await r.text();
  r = await fetch(new URL("/other", url), { method: "GET" });
  assert.is(r.status, 404);
  await r.text();
  r = await fetch(url, { method: "PUT" });
  assert.is(r.status, 405);
  await r.text();
  assert.ok(
    errors.some((e) => /413/.test(e.message)),
    "the refusal is reported",
  );
  assert.is(handler.bufferedBodyBytes, 0);
});

test.run();
