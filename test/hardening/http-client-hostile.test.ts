// Our Streamable HTTP client against a hostile server: SSE data that is JSON but no message
// (a string, a number) must not throw out of the stream handler (found by npm run fuzz), and a
// reply stream cut before the response fails that request at once instead of at its timeout.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { connectMcpClient, UnreadableResponseError } from "@mcpgen/runtime";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import { bindings } from "../runtime/helpers/binding.js";

const INIT = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "h", version: "0" } };

async function hostile(onTools: (id: unknown, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const m = JSON.parse(body);
      if (m.method === "initialize")
        return void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: INIT }));
      if (!("id" in m)) return void res.writeHead(202).end();
      onTools(m.id, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const errors: Error[] = [];
  const client = await connectMcpClient(new StreamableHttpClientTransport({ url }), {
    bindings,
    clientInfo: { name: "t", version: "1" },
    onerror: (e) => errors.push(e),
    timeout: 30_000,
  });
  return {
    client,
    errors,
    close: async () => {
      await client.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

test("SSE events whose data is a JSON string or number are dropped, the response after them is delivered", async () => {
  const h = await hostile((id, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      `data: "${"s".repeat(1000)}"\n\ndata: 0\n\ndata: null\n\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } })}\n\n`,
    );
  });
  assert.equal(await h.client.listTools(), []);
  await h.close();
});

test("an SSE reply cut before its response (no event id to resume from) fails the request at once", async () => {
  const h = await hostile((_id, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } })}\n\n`,
    );
  });
  const started = Date.now();
  const e = await h.client.listTools().then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.instance(e, UnreadableResponseError);
  assert.ok(Date.now() - started < 5000, "not left to its 30 s timeout");
  await h.close();
});

test.run();
