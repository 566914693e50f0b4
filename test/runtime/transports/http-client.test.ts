import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { createStreamableHttpServer, StreamableHttpClientTransport, HttpStatusError } from "@mcpgen/runtime/http";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import type {
  StreamableHttpClientOptions,
  StreamableHttpServer,
  StreamableHttpServerOptions,
  StreamableHttpServerTransport,
} from "@mcpgen/runtime/http";
import { echoSession, waitFor, within, type EchoLog } from "./helpers.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(o: Partial<StreamableHttpServerOptions> = {}) {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const held = new Map<string | number, () => void>();
  const headersSeen: Record<string, string | string[] | undefined>[] = [];
  const echo = echoSession(log, held);
  const server: StreamableHttpServer = createStreamableHttpServer({
    keepAliveMs: 0,
    ...o,
    onsession: (t) => {
      echo(t);
      const inner = t.onmessage!;
      t.onmessage = (m, c) => {
        headersSeen.push({ ...c?.headers });
        inner(m, c);
      };
    },
  });
  const connections = { n: 0 };
  server.server.on("connection", () => connections.n++);
  cleanup.push(() => server.close());
  const url = await server.listen();
  return { server, url, log, held, headersSeen, connections };
}

function client(url: URL, o: Partial<ConstructorParameters<typeof StreamableHttpClientTransport>[0]> = {}) {
  const c = new StreamableHttpClientTransport({ url, reconnect: { initialDelayMs: 20, maxRetries: 2 }, ...o });
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  c.onmessage = (m) => received.push(...(Array.isArray(m) ? m : [m]));
  c.onerror = (e) => errors.push(e);
  cleanup.push(() => c.close());
  return { c, received, errors };
}

const initialize: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25" },
};

test("JSON replies, session id captured, protocol version header after setProtocolVersion", async () => {
  const { url, headersSeen } = await start();
  const { c, received } = client(url, { openGetStream: false, headers: { authorization: "Bearer x" } });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  assert.is(received.length, 1);
  assert.type(c.sessionId, "string");
  assert.is(headersSeen[0]!["mcp-protocol-version"], undefined, "no version header on initialize");
  c.setProtocolVersion("2025-11-25");
  await within(c.send({ jsonrpc: "2.0", id: 1, method: "echo", params: { x: 1 } }), 3000, "send");
  assert.equal(received[1], { jsonrpc: "2.0", id: 1, result: { method: "echo", params: { x: 1 } } });
  assert.is(headersSeen[1]!["mcp-protocol-version"], "2025-11-25");
  assert.is(headersSeen[1]!["mcp-session-id"], c.sessionId);
  assert.is(headersSeen[1]!["authorization"], "Bearer x");
});

test("SSE replies deliver related messages before the result", async () => {
  const { url } = await start();
  const { c, received } = client(url, { openGetStream: false });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  await within(c.send({ jsonrpc: "2.0", id: 2, method: "ask" }), 3000, "send");
  await waitFor(() => received.length === 3, 2000, "request + result");
  assert.equal(
    received.slice(1).map((m) => ("method" in m ? m.method : "result")),
    ["roots/list", "result"],
  );
});

test("GET stream opens after initialized, carries server messages; close() DELETEs the session", async () => {
  const { url, log, server } = await start();
  const { c, received } = client(url);
  await c.start();
  await within(c.send(initialize), 3000, "send");
  await within(c.send({ jsonrpc: "2.0", method: "notifications/initialized" }), 3000, "send");
  const t = log.transports[0] as StreamableHttpServerTransport;
  await waitFor(() => t.hasStandaloneStream, 2000, "GET stream");
  await t.send({ jsonrpc: "2.0", method: "notifications/resources/list_changed" });
  await waitFor(() => received.length === 2, 2000, "server notification");
  assert.is((received[1] as { method: string }).method, "notifications/resources/list_changed");
  let closed = 0;
  c.onclose = () => closed++;
  await within(c.close(), 3000, "client close");
  assert.is(closed, 1);
  await waitFor(() => log.closed === 1, 2000, "server session ended by DELETE");
  assert.is(server.sessions.size, 0);
});

test("polling: server closes the reply stream; client waits retry and resumes with GET + Last-Event-ID", async () => {
  const { url, log, held } = await start({ retryMs: 30 });
  const { c, received, errors } = client(url, { openGetStream: false });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  // A POST's send() settles once the reply starts, which here is only when the stream is closed.
  const sent = c.send({ jsonrpc: "2.0", id: 9, method: "hold" });
  await waitFor(() => held.has(9), 2000, "held");
  const t = log.transports[0] as StreamableHttpServerTransport;
  assert.ok(t.closeStream(9));
  await within(sent, 2000, "send settles");
  held.get(9)!();
  await waitFor(() => received.length === 2, 3000, "result after resume");
  assert.equal(received[1], { jsonrpc: "2.0", id: 9, result: { method: "hold", params: {} } });
  assert.equal(errors, []);
});

test("sse-retry shape: GET (not re-POST), Last-Event-ID sent, not before retry", async () => {
  const seen: { method: string; lastEventId?: string; at: number }[] = [];
  let closedAt = 0;
  const mock = http.createServer((req, res) => {
    seen.push({ method: req.method!, lastEventId: req.headers["last-event-id"] as string | undefined, at: Date.now() });
    if (req.method === "POST") {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s-1" });
        res.write("id: event-1\nretry: 120\ndata: \n\n");
        setTimeout(() => {
          closedAt = Date.now();
          res.end();
        }, 20);
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      'id: event-2\ndata: \n\nevent: message\nid: event-3\ndata: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n',
    );
  });
  await new Promise<void>((r) => mock.listen(0, "127.0.0.1", r));
  cleanup.push(() => new Promise<void>((r) => (mock.closeAllConnections(), mock.close(() => r()))));
  const { c, received } = client(new URL(`http://127.0.0.1:${(mock.address() as AddressInfo).port}/`), {
    openGetStream: false,
  });
  await c.start();
  await within(
    c.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_reconnection" } }),
    3000,
    "send",
  );
  await waitFor(() => received.length === 1, 3000, "result via GET");
  assert.equal(
    seen.map((s) => s.method),
    ["POST", "GET"],
  );
  assert.is(seen[1]!.lastEventId, "event-1");
  assert.ok(seen[1]!.at - closedAt >= 110, "waited for the retry interval");
});

test("404 on a request with a session id: send rejects with status 404 and the session is forgotten", async () => {
  const { url, server } = await start();
  const { c } = client(url, { openGetStream: false });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  // The server ends the session on its own.
  await server.sessions.get(c.sessionId!)!.close();
  try {
    await within(c.send({ jsonrpc: "2.0", id: 1, method: "echo" }), 3000, "send");
    assert.unreachable("must reject");
  } catch (e) {
    assert.instance(e, HttpStatusError);
    assert.is((e as HttpStatusError).status, 404);
  }
  assert.is(c.sessionId, undefined);
});

test("stateless server: GET 405 is tolerated, no errors", async () => {
  const { url } = await start({ stateless: true });
  const { c, received, errors } = client(url);
  await c.start();
  await within(c.send(initialize), 3000, "send");
  await within(c.send({ jsonrpc: "2.0", method: "notifications/initialized" }), 3000, "send");
  await within(c.send({ jsonrpc: "2.0", id: 1, method: "echo" }), 3000, "send");
  assert.is(received.length, 2);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(errors, []);
});

test("keep-alive: sequential POSTs reuse one connection; concurrent requests get their own", async () => {
  const { url, connections } = await start();
  const { c, received } = client(url, { openGetStream: false });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  for (let i = 1; i <= 20; i++) await within(c.send({ jsonrpc: "2.0", id: i, method: "echo" }), 3000, "send");
  assert.is(connections.n, 1);
  await Promise.all(Array.from({ length: 8 }, (_, i) => c.send({ jsonrpc: "2.0", id: 100 + i, method: "echo" })));
  assert.is(received.length, 29);
});

test("a caller's own node:http Agent carries the transport's requests", async () => {
  // The option is typed by the members every Agent has (no @types/node in its declaration): a
  // node:https Agent fits it too.
  const tls: StreamableHttpClientOptions["agent"] = new https.Agent();
  tls!.destroy();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  cleanup.push(() => agent.destroy());
  const { url } = await start();
  const { c, received } = client(url, { openGetStream: false, agent });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  assert.is(received.length, 1);
  const free = () => Object.values(agent.freeSockets).flat().length;
  await waitFor(() => free() === 1, 3000, "the caller's agent keeps the connection");
});

test("close() tears down every request still in flight, whichever completed before it", async () => {
  const { url, held } = await start();
  const { c, received } = client(url, { openGetStream: false });
  await c.start();
  await within(c.send(initialize), 3000, "send");
  const outcomes = new Map<number, string>();
  const sends = [1, 2, 3, 4, 5].map((id) =>
    c.send({ jsonrpc: "2.0", id, method: "hold" }).then(
      () => void outcomes.set(id, "answered"),
      // Torn down by the client, not answered 404 when the DELETE ends the session on the server.
      (e: unknown) => void outcomes.set(id, e instanceof HttpStatusError ? `HTTP ${e.status}` : "aborted"),
    ),
  );
  await waitFor(() => held.size === 5, 3000, "five held requests");
  // Requests completing in the middle and at both ends of what is in flight, and new ones after.
  held.get(2)!();
  held.get(4)!();
  await within(c.send({ jsonrpc: "2.0", id: 6, method: "echo" }), 3000, "send");
  held.get(1)!();
  await waitFor(() => outcomes.size === 3, 3000, "three answers");
  await within(c.close(), 3000, "close");
  await within(Promise.all(sends), 3000, "every send settled");
  assert.equal(
    [...outcomes].sort(([a], [b]) => a - b),
    [
      [1, "answered"],
      [2, "answered"],
      [3, "aborted"],
      [4, "answered"],
      [5, "aborted"],
    ],
  );
  assert.equal(received.map((m) => (m as { id?: number }).id).sort(), [0, 1, 2, 4, 6]);
});

test("send after close rejects; close is idempotent", async () => {
  const { url } = await start();
  const { c } = client(url, { openGetStream: false });
  await c.start();
  await c.close();
  await c.close();
  try {
    await within(c.send({ jsonrpc: "2.0", id: 1, method: "echo" }), 3000, "send");
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, /closed/);
  }
});

test.run();
