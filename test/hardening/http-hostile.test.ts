// Hostile HTTP clients against a real Streamable HTTP server (127.0.0.1) serving the "everything"
// example: every POST is answered, a failed initialize leaves no session, a duplicate in-flight id
// cannot steal a reply, and the Host/Origin/Content-Type checks and the limits hold.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as net from "node:net";
import {
  createStreamableHttpServer,
  type StreamableHttpServer,
  type StreamableHttpServerOptions,
} from "@mcpgen/runtime/http";
import { createServer } from "../../examples/everything/src/server.js";
import { raw } from "../runtime/transports/helpers.js";

const servers: StreamableHttpServer[] = [];
test.after.each(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(o: Partial<StreamableHttpServerOptions> = {}) {
  const refusals: Error[] = [];
  const mcp = createServer({ onerror: () => {} });
  const server = createStreamableHttpServer({
    onsession: (t) => void mcp.connect(t),
    keepAliveMs: 0,
    onerror: (e) => refusals.push(e),
    ...o,
  });
  servers.push(server);
  return { server, url: await server.listen(), refusals };
}

const ACCEPT = "application/json, text/event-stream";
const initBody = (
  params: unknown = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params });
const post = (url: URL, body: string, headers: Record<string, string> = {}) =>
  raw(url, { method: "POST", body, headers: { "content-type": "application/json", accept: ACCEPT, ...headers } });

async function session(url: URL): Promise<Record<string, string>> {
  const r = await post(url, initBody());
  assert.is(r.status, 200, r.body);
  const h = { "mcp-session-id": r.headers["mcp-session-id"] as string, "mcp-protocol-version": "2025-11-25" };
  assert.is((await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), h)).status, 202);
  return h;
}

test("requests whose id is an object, array, boolean, null or unsafe number are answered 400 / -32600 / id null", async () => {
  const { url, refusals } = await start();
  const h = await session(url);
  for (const id of ["{}", "[1]", "true", "null", "1e400", "9007199254740993"]) {
    const r = await post(url, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, h);
    assert.is(r.status, 400, id);
    const body = JSON.parse(r.body);
    assert.is(body.error.code, -32600, id);
    assert.is(body.id, null, id);
  }
  assert.is(refusals.length, 6, "each refusal is logged");
  const ok = await post(url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, h);
  assert.equal(JSON.parse(ok.body).result, {});
});

test("a batch on a 2025-11-25 session is answered 400 / -32600", async () => {
  const { url } = await start();
  const h = await session(url);
  const r = await post(
    url,
    JSON.stringify([
      { jsonrpc: "2.0", id: 5, method: "ping" },
      { jsonrpc: "2.0", id: 6, method: "ping" },
    ]),
    h,
  );
  assert.is(r.status, 400);
  assert.is(JSON.parse(r.body).error.code, -32600);
  assert.match(JSON.parse(r.body).error.message, /batches are not allowed in protocol revision "2025-11-25"/);
});

test("initialize inside a batch is refused at once and opens no session (found by npm run fuzz)", async () => {
  const { server, url } = await start();
  const r = await post(url, `[${initBody()}]`);
  assert.is(r.status, 400);
  assert.is(JSON.parse(r.body).error.code, -32600);
  assert.is(r.headers["mcp-session-id"], undefined);
  assert.is(server.sessions.size, 0);
});

test("a failed initialize opens no session: no Mcp-Session-Id, nothing held", async () => {
  const { server, url } = await start();
  const r = await post(
    url,
    initBody({
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "x".repeat(100_000) },
      pad: "y".repeat(1_000_000),
    }),
  );
  assert.is(JSON.parse(r.body).error.code, -32602);
  assert.is(r.headers["mcp-session-id"], undefined);
  await new Promise((r) => setTimeout(r, 20));
  assert.is(server.sessions.size, 0);
  await session(url);
  assert.is(server.sessions.size, 1);
});

test("a second request with an id still in flight is refused by that id; the first still gets its reply", async () => {
  const { url } = await start();
  const h = await session(url);
  const call = JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "test_tool_with_progress", arguments: {} },
  });
  const first = post(url, call, h);
  await new Promise((r) => setTimeout(r, 30));
  const dup = await post(url, call, h);
  assert.is(dup.status, 400);
  assert.equal(JSON.parse(dup.body).id, 7);
  assert.match(JSON.parse(dup.body).error.message, /already in progress/);
  const r = await first;
  assert.is(JSON.parse(r.body).id, 7);
  assert.ok(JSON.parse(r.body).result, r.body);
});

test("Host with userinfo-like tricks is refused; loopback Origin only on the server's own port", async () => {
  const { url } = await start();
  const port = url.port;
  const bad = await post(url, initBody(), { host: `localhost:${port}@evil.example` });
  assert.is(bad.status, 400);
  const other = await post(url, initBody(), {
    origin: `http://localhost:${Number(port) === 65535 ? 1 : Number(port) + 1}`,
  });
  assert.is(other.status, 403);
  const own = await post(url, initBody(), { origin: `http://localhost:${port}` });
  assert.is(own.status, 200);
});

test("Content-Type is matched as a media type", async () => {
  const { url } = await start();
  const sneaky = await post(url, initBody(), { "content-type": "text/plain; note=application/json" });
  assert.is(sneaky.status, 415);
  const withCharset = await post(url, initBody(), { "content-type": "Application/JSON; charset=utf-8" });
  assert.is(withCharset.status, 200);
});

test("limits: too deep is 400 by id, sessions past maxSessions get 503, a slow body gets 408", async () => {
  const { url, refusals } = await start({ maxSessions: 1, bodyTimeoutMs: 200 });
  const h = await session(url);
  const deep = await post(
    url,
    `{"jsonrpc":"2.0","id":"d","method":"ping","params":{"x":${"[".repeat(1000)}${"]".repeat(1000)}}}`,
    h,
  );
  assert.is(deep.status, 400);
  assert.equal(JSON.parse(deep.body), {
    jsonrpc: "2.0",
    id: "d",
    error: { code: -32600, message: "Invalid Request: message nests deeper than 128 levels" },
  });
  const full = await post(url, initBody());
  assert.is(full.status, 503);
  const slow = await new Promise<string>((resolve, reject) => {
    const sock = net.connect(Number(url.port), "127.0.0.1", () => {
      sock.write(
        `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${url.port}\r\ncontent-type: application/json\r\naccept: ${ACCEPT}\r\ncontent-length: 100\r\n\r\n{"json`,
      );
    });
    let got = "";
    sock.setEncoding("utf8").on("data", (d: string) => (got += d));
    sock.on("close", () => resolve(got));
    sock.on("error", reject);
    setTimeout(() => sock.destroy(), 3000);
  });
  assert.match(slow, /^HTTP\/1.1 408/);
  assert.ok(refusals.length >= 3);
});

test.run();
