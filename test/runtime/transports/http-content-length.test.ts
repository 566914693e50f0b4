// Every complete reply of the Streamable HTTP server states its length: JSON results, JSON-RPC
// errors refused at the HTTP layer, and empty 202s. Without it node frames them as chunked,
// which costs the client a chunk parser per reply.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamableHttpServer, type StreamableHttpServer } from "@mcpgen/runtime/http";
import { echoSession, raw, type EchoLog, type RawResponse } from "./helpers.js";

const servers: StreamableHttpServer[] = [];
test.after.each(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(stateless = false): Promise<URL> {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const server = createStreamableHttpServer({ onsession: echoSession(log), keepAliveMs: 0, stateless });
  servers.push(server);
  return server.listen();
}

const post = (url: URL, body: string, headers: Record<string, string> = {}) =>
  raw(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  });

function framedByLength(r: RawResponse, what: string): void {
  assert.is(r.headers["transfer-encoding"], undefined, `${what}: not chunked`);
  assert.is(
    r.headers["content-length"],
    String(Buffer.byteLength(r.body)),
    `${what}: Content-Length is the body's byte length`,
  );
}

test("JSON results, HTTP-level JSON-RPC errors and 202s carry Content-Length, not chunked framing", async () => {
  const url = await start();
  const init = await post(
    url,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  );
  assert.is(init.status, 200);
  framedByLength(init, "initialize result");
  const h = { "mcp-session-id": init.headers["mcp-session-id"] as string, "mcp-protocol-version": "2025-11-25" };
  // Non-ASCII text: the length is in bytes, not characters.
  const echo = await post(
    url,
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo", params: { text: "héllo ✓" } }),
    h,
  );
  assert.is(echo.status, 200);
  assert.equal(JSON.parse(echo.body).result.params, { text: "héllo ✓" });
  framedByLength(echo, "result with non-ASCII text");
  const note = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), h);
  assert.is(note.status, 202);
  assert.is(note.body, "");
  framedByLength(note, "202");
  const bad = await post(url, "{nope", h);
  assert.is(bad.status, 400);
  assert.is(JSON.parse(bad.body).error.code, -32700);
  framedByLength(bad, "parse error");
  const unknown = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "echo" }), {
    "mcp-session-id": "nope",
  });
  assert.is(unknown.status, 404);
  assert.is(JSON.parse(unknown.body).error.code, -32001);
  framedByLength(unknown, "unknown session");
});

test("stateless replies carry Content-Length too", async () => {
  const url = await start(true);
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { n: 1 } }));
  assert.is(r.status, 200);
  framedByLength(r, "stateless result");
  const n = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  assert.is(n.status, 202);
  framedByLength(n, "stateless 202");
});

test.run();
