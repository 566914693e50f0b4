import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamableHttpServer, InMemoryEventStore } from "@mcpgen/runtime/http";
import type {
  EventStore,
  StreamableHttpServer,
  StreamableHttpServerOptions,
  StreamableHttpServerTransport,
} from "@mcpgen/runtime/http";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import { echoSession, OpenStream, raw, sseEvents, waitFor, type EchoLog } from "./helpers.js";

const servers: StreamableHttpServer[] = [];
const streams: OpenStream[] = [];
test.after.each(async () => {
  for (const s of streams.splice(0)) s.close();
  for (const s of servers.splice(0)) await s.close();
});

async function start(o: Partial<StreamableHttpServerOptions> = {}) {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const held = new Map<string | number, () => void>();
  const server = createStreamableHttpServer({ onsession: echoSession(log, held), keepAliveMs: 0, ...o });
  servers.push(server);
  const url = await server.listen();
  return { server, url, log, held };
}

const ACCEPT = "application/json, text/event-stream";
const init = (id: number | string = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });

function post(url: URL, body: string, headers: Record<string, string> = {}) {
  return raw(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
  });
}

async function session(url: URL): Promise<Record<string, string>> {
  const r = await post(url, init());
  assert.is(r.status, 200);
  const sid = r.headers["mcp-session-id"];
  assert.type(sid, "string");
  assert.match(sid as string, /^[\x21-\x7e]+$/);
  return { "mcp-session-id": sid as string, "mcp-protocol-version": "2025-11-25" };
}

test("initialize: JSON reply with a session id; later requests need it (400 missing, 404 unknown)", async () => {
  const { url, log } = await start();
  const h = await session(url);
  assert.is(log.transports.length, 1);
  assert.is(log.transports[0]!.hints?.sessionId, h["mcp-session-id"]);
  const ok = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo", params: { a: 1 } }), h);
  assert.is(ok.status, 200);
  assert.match(String(ok.headers["content-type"]), /application\/json/);
  assert.equal(JSON.parse(ok.body), { jsonrpc: "2.0", id: 2, result: { method: "echo", params: { a: 1 } } });
  const missing = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "echo" }));
  assert.is(missing.status, 400);
  const unknown = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "echo" }), {
    "mcp-session-id": "nope",
  });
  assert.is(unknown.status, 404);
  assert.is(JSON.parse(unknown.body).error.code, -32001);
});

test("notifications and responses get 202 with an empty body and reach the session", async () => {
  const { url, log } = await start();
  const h = await session(url);
  const n = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), h);
  assert.is(n.status, 202);
  assert.is(n.body, "");
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: "s1", result: {} }), h);
  assert.is(r.status, 202);
  assert.equal(
    log.received.slice(-2).map((m) => ("method" in m ? m.method : "response")),
    ["notifications/initialized", "response"],
  );
});

test("a related notification turns the reply into SSE (priming event, then messages, then end)", async () => {
  const { url } = await start();
  const h = await session(url);
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 5, method: "chatty" }), h);
  assert.is(r.status, 200);
  assert.match(String(r.headers["content-type"]), /text\/event-stream/);
  const evs = sseEvents(r.body);
  assert.is(evs[0]!.data, "", "priming event has empty data");
  assert.ok(evs[0]!.id, "priming event has an id");
  assert.is(evs[0]!.retry, 1000);
  const msgs = evs.slice(1).map((e) => JSON.parse(e.data));
  assert.is(msgs[0].method, "notifications/progress");
  assert.is(msgs[1].id, 5);
  const ids = evs.map((e) => e.id);
  assert.is(new Set(ids).size, ids.length, "event ids are unique");
});

test("a server→client request related to a tool call travels on that POST's stream", async () => {
  const { url } = await start({ eventStore: false });
  const h = await session(url);
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ask" }), h);
  const evs = sseEvents(r.body);
  assert.equal(
    evs.map((e) => JSON.parse(e.data).method ?? "result"),
    ["roots/list", "result"],
  );
  assert.is(evs[0]!.id, undefined, "no ids without an event store");
});

test("an SSE reply says Connection as node keeps the connection: keep-alive, or close when the request asked to close", async () => {
  const { url } = await start({ responseMode: "sse" });
  const h = await session(url);
  const call = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params: { a: id } });
  const kept = await post(url, call(2), { ...h, connection: "keep-alive" });
  assert.match(String(kept.headers["content-type"]), /text\/event-stream/);
  assert.is(kept.headers["connection"], "keep-alive");
  const closing = await post(url, call(3), { ...h, connection: "close" });
  assert.match(String(closing.headers["content-type"]), /text\/event-stream/);
  assert.is(closing.headers["connection"], "close");
  assert.equal(JSON.parse(sseEvents(closing.body).find((e) => e.data !== "")!.data).result, {
    method: "echo",
    params: { a: 3 },
  });
});

test("responseMode sse always streams; Accept with only one type is honoured; neither is 406", async () => {
  const { url } = await start({ responseMode: "sse" });
  const h = await session(url).catch(() => ({}) as Record<string, string>);
  const r = await post(url, init(1));
  assert.match(String(r.headers["content-type"]), /text\/event-stream/);
  assert.ok(h);
  const { url: url2 } = await start();
  const jsonOnly = await raw(url2, {
    method: "POST",
    body: init(),
    headers: { "content-type": "application/json", accept: "application/json" },
  });
  assert.match(String(jsonOnly.headers["content-type"]), /application\/json/);
  const sseOnly = await raw(url2, {
    method: "POST",
    body: init(),
    headers: { "content-type": "application/json", accept: "text/event-stream" },
  });
  assert.match(String(sseOnly.headers["content-type"]), /text\/event-stream/);
  const none = await raw(url2, {
    method: "POST",
    body: init(),
    headers: { "content-type": "application/json", accept: "text/html" },
  });
  assert.is(none.status, 406);
  const ctype = await raw(url2, {
    method: "POST",
    body: init(),
    headers: { "content-type": "text/plain", accept: ACCEPT },
  });
  assert.is(ctype.status, 415);
});

test("bad bodies: invalid JSON is 400/-32700, a scalar is 400/-32600, the server keeps serving", async () => {
  const { url } = await start();
  const h = await session(url);
  const bad = await post(url, "{nope", h);
  assert.is(bad.status, 400);
  assert.is(JSON.parse(bad.body).error.code, -32700);
  const scalar = await post(url, "42", h);
  assert.is(scalar.status, 400);
  assert.is(JSON.parse(scalar.body).error.code, -32600);
  const ok = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "echo" }), h);
  assert.is(ok.status, 200);
});

test("body size limit: 413 by Content-Length and when streamed past the cap", async () => {
  const { url } = await start({ maxBodyBytes: 1000 });
  const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(2000) } });
  const r = await post(url, big);
  assert.is(r.status, 413);
  // Chunked upload (no Content-Length).
  const chunked = await new Promise<number>((resolve, reject) => {
    import("node:http").then(({ request }) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: ACCEPT, "transfer-encoding": "chunked" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 10; i++) req.write("x".repeat(200));
      req.end();
    }, reject);
  });
  assert.is(chunked, 413);
  const h = await session(url);
  assert.ok(h["mcp-session-id"]);
});

test("MCP-Protocol-Version: unsupported value is 400, absent is accepted", async () => {
  const { url } = await start({ supportedProtocolVersions: ["2025-06-18", "2025-11-25"] });
  const h = await session(url);
  const bad = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo" }), {
    ...h,
    "mcp-protocol-version": "1999-01-01",
  });
  assert.is(bad.status, 400);
  assert.match(bad.body, /1999-01-01/);
  const { "mcp-protocol-version": _, ...noVersion } = h;
  const ok = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "echo" }), noVersion);
  assert.is(ok.status, 200);
});

test("DELETE ends the session: transport closed, later requests 404", async () => {
  const { url, log } = await start();
  const h = await session(url);
  const d = await raw(url, { method: "DELETE", headers: h });
  assert.is(d.status, 200);
  assert.is(log.closed, 1);
  const after = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo" }), h);
  assert.is(after.status, 404);
  const d2 = await raw(url, { method: "DELETE", headers: h });
  assert.is(d2.status, 404);
});

test("GET stream carries unrelated server messages; a second GET is 409; Accept is required", async () => {
  const { url, log } = await start();
  const h = await session(url);
  const s = await OpenStream.open(url, { headers: { accept: "text/event-stream", ...h } });
  streams.push(s);
  assert.is(s.status, 200);
  const second = await raw(url, { headers: { accept: "text/event-stream", ...h } });
  assert.is(second.status, 409);
  const wrong = await raw(url, { headers: { accept: "application/json", ...h } });
  assert.is(wrong.status, 406);
  await log.transports[0]!.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  await waitFor(() => s.messages().length === 1, 2000, "notification on GET stream");
  assert.is((s.messages()[0] as { method: string }).method, "notifications/tools/list_changed");
  assert.is(s.events()[0]!.data, "", "GET stream starts with a priming event");
});

test("resumability: a dropped GET stream resumes with Last-Event-ID, only that stream's events replayed", async () => {
  const { url, log } = await start();
  const h = await session(url);
  const t = log.transports[0] as StreamableHttpServerTransport;
  const s = await OpenStream.open(url, { headers: { accept: "text/event-stream", ...h } });
  streams.push(s);
  await t.send({ jsonrpc: "2.0", method: "n/one" });
  await waitFor(() => s.messages().length === 1, 2000, "first");
  const lastId = s.events().at(-1)!.id!;
  s.close();
  await waitFor(() => !t.hasStandaloneStream, 2000, "server noticed the drop");
  await t.send({ jsonrpc: "2.0", method: "n/two" });
  await t.send({ jsonrpc: "2.0", method: "n/three" });
  const r = await OpenStream.open(url, { headers: { accept: "text/event-stream", "last-event-id": lastId, ...h } });
  streams.push(r);
  await waitFor(() => r.messages().length === 2, 2000, "replay");
  assert.equal(
    r.messages().map((m) => (m as { method: string }).method),
    ["n/two", "n/three"],
  );
  await t.send({ jsonrpc: "2.0", method: "n/four" });
  await waitFor(() => r.messages().length === 3, 2000, "live after replay");
  // Another session cannot resume this stream.
  const h2 = await session(url);
  const foreign = await raw(url, { headers: { accept: "text/event-stream", "last-event-id": lastId, ...h2 } });
  assert.is(foreign.status, 404);
});

test("polling: closeStream ends the POST connection after priming+retry; GET with Last-Event-ID gets the result", async () => {
  const { url, log, held } = await start({ retryMs: 50 });
  const h = await session(url);
  const t = log.transports[0] as StreamableHttpServerTransport;
  const p = await OpenStream.open(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...h },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hold" }),
    waitHeaders: false,
  });
  streams.push(p);
  await waitFor(() => held.has(1), 2000, "request reached the session");
  assert.ok(t.closeStream(1));
  await waitFor(() => p.ended, 2000, "POST stream closed by server");
  const evs = p.events();
  assert.is(evs.length, 1);
  assert.is(evs[0]!.data, "");
  assert.is(evs[0]!.retry, 50);
  held.get(1)!();
  const g = await raw(url, { headers: { accept: "text/event-stream", "last-event-id": evs[0]!.id!, ...h } });
  assert.is(g.status, 200);
  const msgs = sseEvents(g.body)
    .filter((e) => e.data !== "")
    .map((e) => JSON.parse(e.data));
  assert.equal(msgs, [{ jsonrpc: "2.0", id: 1, result: { method: "hold", params: {} } }]);
});

test("an event store of the application's own is held to one-line event ids: a line break in one fails the reply, never reaches the wire", async () => {
  // The endpoint's own store's ids (its stream ids and a number) go out unscanned; another's are checked.
  class Injecting extends InMemoryEventStore {
    override storeEvent(streamId: string, message: JSONRPCMessage | null, json?: string): string {
      return `${super.storeEvent(streamId, message, json)}\ndata: injected`;
    }
  }
  const errors: string[] = [];
  const { url } = await start({
    responseMode: "sse",
    eventStore: new Injecting(),
    onerror: (e) => errors.push(e.message),
  });
  const r = await post(url, init());
  assert.is(r.status, 200);
  assert.not.ok(r.body.includes("injected"), r.body);
  assert.ok(
    errors.some((m) => /newline/.test(m)),
    errors.join("; "),
  );
});

test("an SSE reply that waits: its priming event goes out at once, the reply after it on the same stream", async () => {
  const { url, log, held } = await start({ responseMode: "sse" });
  const h = await session(url);
  const p = await OpenStream.open(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...h },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hold" }),
  });
  streams.push(p);
  await waitFor(() => held.has(1), 2000, "request reached the session");
  await waitFor(() => p.events().length === 1, 2000, "priming event before the reply");
  const [priming] = p.events();
  assert.is(priming!.data, "");
  assert.ok(priming!.id);
  held.get(1)!();
  await waitFor(() => p.ended, 2000, "POST stream ended after the reply");
  assert.equal(p.messages(), [{ jsonrpc: "2.0", id: 1, result: { method: "hold", params: {} } }]);
  assert.is(log.transports.length, 1);
});

test("a POST stream resumed while its connection is open: the newer connection wins, the reply goes there", async () => {
  // POST streams are found by id only when a client resumes one (not kept in a map by id).
  const { url, held } = await start({ responseMode: "sse" });
  const h = await session(url);
  const others = [2, 3].map((id) =>
    OpenStream.open(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT, ...h },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "hold" }),
    }),
  );
  const p = await OpenStream.open(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...h },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hold" }),
  });
  streams.push(p, ...(await Promise.all(others)));
  await waitFor(() => held.has(1) && held.has(2) && held.has(3), 2000, "requests reached the session");
  await waitFor(() => p.events().length === 1, 2000, "priming event");
  const primed = p.events()[0]!.id!;
  // The endpoint's own store's event ids: this session's short key, the stream, a number.
  assert.match(primed, /^[0-9a-z]+-[0-9a-z]+_\d+$/);
  const g = await OpenStream.open(url, { headers: { accept: "text/event-stream", "last-event-id": primed, ...h } });
  streams.push(g);
  await waitFor(() => p.ended, 2000, "the older connection ended");
  held.get(1)!();
  await waitFor(() => g.ended, 2000, "the resumed stream ended after its reply");
  assert.equal(g.messages(), [{ jsonrpc: "2.0", id: 1, result: { method: "hold", params: {} } }]);
  // The other streams of the session are untouched.
  held.get(2)!();
  held.get(3)!();
  for (const o of streams.slice(-3, -1)) await waitFor(() => o.ended, 2000, "other POST streams answered");
  assert.equal(
    streams
      .slice(-3, -1)
      .flatMap((o) => o.messages())
      .map((m) => (m as { id: number }).id)
      .sort(),
    [2, 3],
  );
});

test("server messages sent before any GET stream are held and delivered when it opens", async () => {
  const { url, log } = await start({ eventStore: false });
  const h = await session(url);
  await log.transports[0]!.send({ jsonrpc: "2.0", method: "n/early" });
  const s = await OpenStream.open(url, { headers: { accept: "text/event-stream", ...h } });
  streams.push(s);
  await waitFor(() => s.messages().length === 1, 2000, "held message");
  assert.is((s.messages()[0] as { method: string }).method, "n/early");
});

test("three concurrent POST streams on one session all succeed (server-sse-multiple-streams)", async () => {
  const { url } = await start();
  const h = await session(url);
  const rs = await Promise.all(
    [1000, 1001, 1002].map((id) =>
      post(url, JSON.stringify({ jsonrpc: "2.0", id, method: "chatty" }), {
        ...h,
        accept: "text/event-stream, application/json",
      }),
    ),
  );
  assert.equal(
    rs.map((r) => r.status),
    [200, 200, 200],
  );
  for (const [i, r] of rs.entries()) {
    const last = sseEvents(r.body).at(-1)!;
    assert.is(JSON.parse(last.data).id, 1000 + i, "each response on its own stream");
  }
});

test("a client dropping a POST SSE stream mid-way breaks nothing; the session keeps serving", async () => {
  const { url, log, held } = await start({ eventStore: false, responseMode: "sse" });
  const h = await session(url);
  const p = await OpenStream.open(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...h },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hold" }),
  });
  await waitFor(() => held.has(1), 2000, "held");
  p.close();
  await new Promise((r) => setTimeout(r, 20));
  held.get(1)!();
  await log.transports[0]!.send({ jsonrpc: "2.0", method: "n/x" }, { relatedRequestId: 1 });
  const ok = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo" }), h);
  assert.is(ok.status, 200);
  assert.is(log.closed, 0, "a disconnect is not the end of the session");
});

test("idle sessions are closed after sessionIdleTimeoutMs, busy ones are kept", async () => {
  const { url, log, server, held } = await start({ sessionIdleTimeoutMs: 40 });
  await session(url);
  const busy = await session(url);
  const p = await OpenStream.open(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...busy },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hold" }),
    waitHeaders: false,
  });
  streams.push(p);
  await waitFor(() => held.has(1), 2000, "held");
  await waitFor(() => log.closed === 1, 3000, "idle session closed");
  await new Promise((r) => setTimeout(r, 100));
  assert.is(server.sessions.size, 1, "the session with a request in flight stays");
  assert.ok(server.sessions.has(busy["mcp-session-id"]!));
});

test("an abandoned reply (its request was cancelled) is not awaited: an unstarted JSON reply ends 202, an SSE stream ends, the session idles out", async () => {
  // Long enough that the session cannot idle out before its two requests arrive on a loaded machine.
  const { url, log, server, held } = await start({ sessionIdleTimeoutMs: 500 });
  const h = await session(url);
  const hold = (id: number, accept: string) =>
    OpenStream.open(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept, ...h },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "hold" }),
      waitHeaders: false,
    });
  const json = await hold(1, ACCEPT);
  const sse = await hold(2, "text/event-stream");
  streams.push(json, sse);
  await waitFor(() => held.has(1) && held.has(2), 2000, "held");
  const t = log.transports[0] as StreamableHttpServerTransport;
  assert.ok(t.busy);
  t.abandonReply(1);
  t.abandonReply(2);
  await waitFor(() => json.ended && sse.ended, 2000, "both replies to end");
  assert.equal([json.status, json.text], [202, ""]);
  assert.equal([sse.status, sse.messages()], [200, []]);
  assert.not.ok(t.busy);
  await waitFor(() => server.sessions.size === 0, 5000, "the idle session to close");
});

test("custom event store is used", async () => {
  const store = new InMemoryEventStore({ maxEvents: 3 });
  const { url } = await start({ eventStore: store });
  const h = await session(url);
  await post(url, JSON.stringify({ jsonrpc: "2.0", id: 5, method: "chatty" }), h);
  assert.ok(store.size > 0 && store.size <= 3);
});

test("an event store answering with promises: priming event, notification and reply in order, each with its id; Last-Event-ID replays them", async () => {
  // A shared store's shape (Redis): every call answers a moment later.
  const inner = new InMemoryEventStore();
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
  const store: EventStore = {
    storeEvent: (streamId, message, json) => later(inner.storeEvent(streamId, message, json)),
    streamIdFor: (eventId) => later(inner.streamIdFor(eventId)),
    replayEventsAfter: async (lastEventId, send) => {
      await later(undefined);
      inner.replayEventsAfter(lastEventId, send);
    },
  };
  const { url } = await start({ eventStore: store, responseMode: "sse" });
  const h = await session(url);
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 5, method: "chatty" }), h);
  assert.is(r.status, 200);
  const evs = sseEvents(r.body);
  assert.is(evs.length, 3);
  assert.is(evs[0]!.data, "", "the priming event first");
  const sent = evs.slice(1).map((e) => JSON.parse(e.data));
  assert.is(sent[0].method, "notifications/progress");
  assert.is(sent[1].id, 5);
  const ids = evs.map((e) => e.id);
  assert.ok(
    ids.every((id) => typeof id === "string" && id.length > 0),
    "every event has an id",
  );
  assert.is(new Set(ids).size, 3);
  const g = await raw(url, { headers: { accept: "text/event-stream", "last-event-id": ids[0]!, ...h } });
  assert.is(g.status, 200);
  const replayed = sseEvents(g.body);
  assert.equal(
    replayed.map((e) => e.id),
    ids.slice(1),
  );
  assert.equal(
    replayed.map((e) => JSON.parse(e.data)),
    sent,
  );
});

test("DNS rebinding: bad Host is 421, bad Origin is 403, loopback names pass", async () => {
  const { url, log } = await start();
  const port = url.port;
  const evil = await post(url, init(), { host: "evil.example.com", origin: "http://evil.example.com" });
  assert.is(evil.status, 421);
  const evilOrigin = await post(url, init(), { origin: "http://evil.example.com" });
  assert.is(evilOrigin.status, 403);
  assert.is(log.transports.length, 0, "no session was created for refused requests");
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
    const ok = await post(url, init(), { host, origin: `http://${host}` });
    assert.is(ok.status, 200, host);
  }
  const { url: open } = await start({ dnsRebindingProtection: false });
  const off = await post(open, init(), { host: "evil.example.com" });
  assert.is(off.status, 200);
  const { url: custom } = await start({ allowedHosts: ["mcp.example"], allowedOrigins: ["https://app.example"] });
  assert.is((await post(custom, init(), { host: "mcp.example" })).status, 200);
  assert.is((await post(custom, init(), { host: "mcp.example", origin: "https://evil.example" })).status, 403);
  assert.is((await post(custom, init(), { host: `127.0.0.1:${custom.port}` })).status, 421);
});

test("DNS rebinding: a Host allowed once is judged again under other options and after another Host", async () => {
  const { url: a } = await start({ allowedHosts: ["one.example"] });
  const { url: b } = await start({ allowedHosts: ["two.example"] });
  for (let round = 0; round < 2; round++) {
    assert.is((await post(a, init(), { host: "one.example" })).status, 200);
    assert.is((await post(b, init(), { host: "one.example" })).status, 421, "allowed on a, not on b");
    assert.is((await post(a, init(), { host: "two.example" })).status, 421, "allowed on b, not on a");
    assert.is((await post(b, init(), { host: "two.example" })).status, 200);
    assert.is(
      (await post(a, init(), { host: "one.example:80@evil.example" })).status,
      400,
      "malformed after an allowed one",
    );
  }
});

test("DNS rebinding: allowedHosts is read on first use; an edit in place is not seen, a new array is", async () => {
  const hosts = ["One.Example"];
  const { url: a } = await start({ allowedHosts: hosts });
  assert.is((await post(a, init(), { host: "one.example:8080" })).status, 200, "matched lowercased, any port");
  hosts.push("two.example");
  hosts[0] = "three.example";
  assert.is((await post(a, init(), { host: "two.example" })).status, 421, "pushed after first use: not seen");
  assert.is((await post(a, init(), { host: "one.example" })).status, 200, "replaced after first use: still allowed");
  assert.is((await post(a, init(), { host: "three.example" })).status, 421);
  const { url: b } = await start({ allowedHosts: [...hosts] });
  assert.is((await post(b, init(), { host: "two.example" })).status, 200, "a new array is read afresh");
  assert.is((await post(b, init(), { host: "one.example" })).status, 421);
});

test("stateless mode: no session id, a transport per POST closed after the reply, GET/DELETE 405", async () => {
  const { url, log } = await start({ stateless: true });
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" }));
  assert.is(r.status, 200);
  assert.is(r.headers["mcp-session-id"], undefined);
  const r2 = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "chatty" }));
  assert.match(String(r2.headers["content-type"]), /text\/event-stream/);
  assert.is(sseEvents(r2.body)[0]!.data.length > 0, true, "no priming without resumability");
  const n = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  assert.is(n.status, 202);
  await waitFor(() => log.closed === 3, 2000, "every per-request transport closed");
  assert.is(log.transports.length, 3);
  assert.is((await raw(url, { headers: { accept: "text/event-stream" } })).status, 405);
  assert.is((await raw(url, { method: "DELETE" })).status, 405);
});

test("2025-03-26 batch: requests answered as one JSON array; initialize must be alone", async () => {
  const { url } = await start();
  const h = await session(url);
  const batch = [
    { jsonrpc: "2.0", id: 10, method: "echo" },
    { jsonrpc: "2.0", method: "notifications/x" },
    { jsonrpc: "2.0", id: 11, method: "echo" },
  ];
  const r = await post(url, JSON.stringify(batch), { ...h, "mcp-protocol-version": "2025-03-26" });
  assert.is(r.status, 200);
  const body = JSON.parse(r.body);
  assert.ok(Array.isArray(body));
  assert.equal(body.map((m: { id: number }) => m.id).sort(), [10, 11]);
  const bad = await post(url, JSON.stringify([JSON.parse(init(1)), { jsonrpc: "2.0", id: 2, method: "echo" }]));
  assert.is(bad.status, 400);
});

test("other paths are 404, other methods 405", async () => {
  const { url } = await start();
  assert.is((await raw(new URL("/elsewhere", url), {})).status, 404);
  assert.is((await raw(url, { method: "PUT" })).status, 405);
});

test.run();
