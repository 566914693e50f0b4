import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import {
  createLegacySseHandler,
  createStreamableHttpServer,
  LegacySseClientTransport,
  connectHttp,
} from "@mcpgen/runtime/http";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import type { LegacySseServerTransport } from "@mcpgen/runtime/http";
import { echoSession, OpenStream, raw, waitFor, within, type EchoLog } from "./helpers.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A server that only speaks the 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages). */
async function legacyOnly() {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const handler = createLegacySseHandler({ onsession: echoSession(log), keepAliveMs: 0 });
  const server = http.createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanup.push(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { log, handler, sse: new URL("/sse", base), base };
}

function collect(t: { onmessage?: (m: JSONRPCMessage | JSONRPCMessage[]) => void; onerror?: (e: Error) => void }) {
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  t.onmessage = (m) => received.push(...(Array.isArray(m) ? m : [m]));
  t.onerror = (e) => errors.push(e);
  return { received, errors };
}

test("legacy server: endpoint event first, POST → 202, replies on the stream", async () => {
  const { sse, log } = await legacyOnly();
  const s = await OpenStream.open(sse, { headers: { accept: "text/event-stream" } });
  cleanup.push(() => s.close());
  await waitFor(() => s.events().length === 1, 2000, "endpoint event");
  const ep = s.events()[0]!;
  assert.is(ep.event, "endpoint");
  assert.match(ep.data, /^\/messages\?sessionId=[\w-]+$/);
  const post = await raw(new URL(ep.data, sse), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" }),
  });
  assert.is(post.status, 202);
  await waitFor(() => s.events().length === 2, 2000, "reply event");
  assert.is(s.events()[1]!.event, "message");
  assert.equal(JSON.parse(s.events()[1]!.data), { jsonrpc: "2.0", id: 1, result: { method: "echo", params: {} } });
  assert.is(
    (
      await raw(new URL(ep.data, sse), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{bad",
      })
    ).status,
    400,
  );
  assert.is(
    (
      await raw(new URL("/messages?sessionId=nope", sse), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).status,
    404,
  );
  assert.is(
    (
      await raw(new URL("/messages", sse), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).status,
    400,
  );
  s.close();
  await waitFor(() => log.closed === 1, 2000, "closing the SSE GET ends the session");
});

test('legacy server reads the request target as a path: "//host/sse" is not /sse, and a target URL parsing rejects is a 404, not a crash', async () => {
  const { sse, log } = await legacyOnly();
  const target = (path: string, method = "GET") =>
    within(
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: sse.hostname,
            port: sse.port,
            path,
            method,
            headers: { accept: "text/event-stream", "content-type": "application/json" },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(method === "POST" ? "{}" : undefined);
      }),
      3000,
      path,
    );
  for (const path of ["//evil.example/sse", "//[", "//[/sse", "//evil.example/messages?sessionId=x"]) {
    assert.is(await target(path, path.includes("messages") ? "POST" : "GET"), 404, path);
  }
  assert.is(log.transports.length, 0, "no session opened");
  assert.is(await target("/messages?sessionId=nope", "POST"), 404, "still serving");
});

test("legacy server refuses a bad Origin", async () => {
  const { sse } = await legacyOnly();
  const r = await raw(sse, { headers: { accept: "text/event-stream", origin: "http://evil.example.com" } });
  assert.is(r.status, 403);
});

test("legacy client ↔ legacy server: both directions, close", async () => {
  const { sse, log } = await legacyOnly();
  const c = new LegacySseClientTransport({ url: sse });
  cleanup.push(() => c.close());
  const { received } = collect(c);
  await within(c.start(), 3000, "connect");
  assert.match(String(c.endpointUrl), /\/messages\?sessionId=/);
  await within(c.send({ jsonrpc: "2.0", id: 1, method: "chatty" }), 3000, "send");
  await waitFor(() => received.length === 2, 2000, "notification + result");
  const server = log.transports[0] as LegacySseServerTransport;
  await server.send({ jsonrpc: "2.0", id: "s1", method: "roots/list" });
  await waitFor(() => received.length === 3, 2000, "server request");
  await c.send({ jsonrpc: "2.0", id: "s1", result: { roots: [] } });
  await waitFor(() => log.received.length === 2, 2000, "response reached server");
  let closed = 0;
  c.onclose = () => closed++;
  await c.close();
  assert.is(closed, 1);
  await waitFor(() => log.closed === 1, 2000, "server saw the disconnect");
});

test("legacy client: server going away closes the transport", async () => {
  const { sse, handler } = await legacyOnly();
  const c = new LegacySseClientTransport({ url: sse });
  cleanup.push(() => c.close());
  let closed = 0;
  c.onclose = () => closed++;
  await within(c.start(), 3000, "connect");
  await handler.close();
  await waitFor(() => closed === 1, 2000, "client closed");
});

test("legacy client refuses an endpoint on another origin", async () => {
  const mock = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("event: endpoint\ndata: http://evil.example.com/messages\n\n");
  });
  await new Promise<void>((r) => mock.listen(0, "127.0.0.1", r));
  cleanup.push(() => new Promise<void>((r) => (mock.closeAllConnections(), mock.close(() => r()))));
  const c = new LegacySseClientTransport({ url: `http://127.0.0.1:${(mock.address() as AddressInfo).port}/sse` });
  cleanup.push(() => c.close());
  try {
    await within(c.start(), 3000, "connect");
    assert.unreachable("must refuse");
  } catch (e) {
    assert.match((e as Error).message, /origin/);
  }
});

test("probe: a Streamable HTTP server is used directly", async () => {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const server = createStreamableHttpServer({ onsession: echoSession(log), keepAliveMs: 0 });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const t = connectHttp(url, { openGetStream: false });
  cleanup.push(() => t.close());
  const { received } = collect(t);
  await t.start();
  await within(t.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }), 3000, "initialize");
  assert.is(t.mode, "streamable-http");
  assert.type(t.sessionId, "string");
  await within(t.send({ jsonrpc: "2.0", id: 2, method: "echo" }), 3000, "echo");
  assert.is(received.length, 2);
});

test("probe: falls back to HTTP+SSE when the POST gets 405; queued sends follow", async () => {
  const { sse, log } = await legacyOnly();
  const t = connectHttp(sse);
  cleanup.push(() => t.close());
  const { received, errors } = collect(t);
  let closed = 0;
  t.onclose = () => closed++;
  await t.start();
  const first = t.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
  const second = t.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await within(Promise.all([first, second]), 3000, "sends");
  assert.is(t.mode, "sse");
  await waitFor(() => received.length === 1 && log.received.length === 2, 2000, "reply and notification");
  assert.equal(
    log.received.map((m) => ("method" in m ? m.method : "")),
    ["initialize", "notifications/initialized"],
  );
  assert.equal(errors, []);
  assert.is(closed, 0, "the failed Streamable attempt does not close the probe");
  await t.close();
  assert.is(closed, 1);
});

test("probe: falls back on 404 too (legacy server on another path), not on 500", async () => {
  const { base } = await legacyOnly();
  const t = connectHttp(new URL("/mcp", base), { legacySseUrl: new URL("/sse", base) });
  cleanup.push(() => t.close());
  collect(t);
  await t.start();
  await within(t.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }), 3000, "initialize");
  assert.is(t.mode, "sse");

  const broken = http.createServer((_req, res) => res.writeHead(500).end("boom"));
  await new Promise<void>((r) => broken.listen(0, "127.0.0.1", r));
  cleanup.push(() => new Promise<void>((r) => (broken.closeAllConnections(), broken.close(() => r()))));
  const t2 = connectHttp(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/mcp`);
  cleanup.push(() => t2.close());
  collect(t2);
  await t2.start();
  try {
    await within(t2.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }), 3000, "initialize");
    assert.unreachable("500 is not a fallback status");
  } catch (e) {
    assert.match((e as Error).message, /500/);
  }
  assert.is(t2.mode, "unknown");
});

test("combined server: Streamable HTTP endpoint and legacy paths on one port", async () => {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const legacy = createLegacySseHandler({ onsession: echoSession(log), keepAliveMs: 0 });
  const server = createStreamableHttpServer({ onsession: echoSession(log), legacySse: legacy, keepAliveMs: 0 });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const c = new LegacySseClientTransport({ url: new URL("/sse", url) });
  cleanup.push(() => c.close());
  const { received } = collect(c);
  await within(c.start(), 3000, "connect");
  await c.send({ jsonrpc: "2.0", id: 1, method: "echo" });
  await waitFor(() => received.length === 1, 2000, "reply");
});

test.run();
