// A legacy session outlives its own instance: the instance holding the session (and its GET
// stream) is SIGKILLed mid-stream; the client resumes through the balancer with Last-Event-ID, gets
// every event the dead instance had stored after it, then live ones, and goes on in the same
// session (its log level and subscription hold). An answer to an elicitation the dead instance
// sent gets 409 (racing a ping on the same instance: one takeover); a new one is answered. A corrupted record in Redis: the session is gone
// (404), nothing crashes. Every wait is bounded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { waitExit } from "../examples/helpers/everything-process.js";
import { startCluster, type Cluster } from "./cluster.js";
import { Events, JSON_HEADERS, raise, seq } from "./sse-events.js";

let cluster!: Cluster;
const prefix = `k${randomBytes(4).toString("hex")}`;

test.before(async () => {
  cluster = await startCluster(4, [], "roundrobin", prefix);
});
test.after(async () => {
  await cluster?.close();
});

/** One Redis command through redis-cli (bounded). */
function redis(...args: string[]): string {
  return execFileSync("redis-cli", ["-p", String(cluster.redis.port), ...args], {
    timeout: 5000,
    encoding: "utf8",
  }).trim();
}

type Headers = Record<string, string>;

async function post(url: URL, headers: Headers, body: object): Promise<Response> {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
}

/** A legacy session opened through the balancer: its headers and the index of the instance holding it. */
async function openSession(alive: number[]): Promise<{ session: Headers; sid: string; home: number }> {
  const init = await post(cluster.url, JSON_HEADERS, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "takeover", version: "1" } },
  });
  assert.is(init.status, 200);
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  const session = { ...JSON_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
  await (await post(cluster.url, session, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
  return { session, sid, home: await holder(session, alive) };
}

/** The instance serving `session` itself (a request marked forwarded is never forwarded again). */
async function holder(session: Headers, alive: number[]): Promise<number> {
  const found: number[] = [];
  for (const i of alive) {
    const res = await post(
      cluster.instances[i]!.url,
      { ...session, "mcpgen-forwarded": "1" },
      { jsonrpc: "2.0", id: "where", method: "ping" },
    );
    await res.text();
    if (res.status === 200) found.push(i);
  }
  assert.is(found.length, 1, `one instance holds the session: ${found.join(",")}`);
  return found[0]!;
}

async function kill(i: number): Promise<void> {
  const p = cluster.instances[i]!;
  p.child.kill("SIGKILL");
  assert.equal(await waitExit(p.child, 5000), { code: null, signal: "SIGKILL" });
}

/** A request through the balancer, retried while the dead instance's heartbeat lapses (503, about 3 s; bounded). */
async function untilServed(send: () => Promise<Response>): Promise<Response> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await send();
    if (res.status !== 503 || Date.now() > deadline) return res;
    await res.text();
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("SIGKILL the instance holding a session: resumed elsewhere with Last-Event-ID, every stored event once, in order; the session goes on", async () => {
  const { session, home } = await openSession([0, 1, 2, 3]);
  const other = (home + 1) % 4;
  const ok = async (body: object) => {
    const res = await post(cluster.url, session, body);
    assert.is(res.status, 200, await res.clone().text());
    return res.text();
  };
  await ok({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "error" } });
  await ok({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "test://watched-resource" } });

  const ctrl = new AbortController();
  const stream = await fetch(cluster.instances[home]!.url, {
    method: "GET",
    headers: { ...session, accept: "text/event-stream" },
    signal: ctrl.signal,
  });
  assert.is(stream.status, 200);
  const first = new Events(stream);
  for (let i = 0; i < 3; i++) await raise(cluster, other);
  await first.until(3);

  await kill(home);
  first.cancel();
  ctrl.abort();

  // Resumed after the first event: the two the dead instance stored after it are replayed.
  const resumed = await untilServed(() =>
    fetch(cluster.url, {
      method: "GET",
      headers: { ...session, accept: "text/event-stream", "last-event-id": first.seen[0]!.id },
      signal: AbortSignal.timeout(20_000),
    }),
  );
  assert.is(resumed.status, 200, resumed.status === 200 ? "" : await resumed.text());
  const second = new Events(resumed);
  await second.until(2);
  assert.equal(
    second.seen.map((e) => e.id),
    first.seen.slice(1).map((e) => e.id),
    "the stored events, replayed",
  );
  // Then live ones, on the same stream.
  await raise(cluster, other);
  await second.until(3);
  const ids = [first.seen[0]!, ...second.seen].map((e) => e.id);
  assert.is(new Set(ids).size, ids.length, "no event twice");
  const seqs = ids.map(seq);
  for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! > seqs[i - 1]!, `in order: ${ids.join(",")}`);

  // The same session goes on: a call works, its log level ("error") still silences info logs.
  const call = await ok({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "test_tool_with_logging", arguments: {} },
  });
  assert.match(call, /executed successfully/);
  assert.not.match(call, /notifications\/message/, "the log level set before the takeover holds");
  // Its subscription holds: an update raised (published on the bus as any instance does) reaches it.
  redis(
    "PUBLISH",
    `{${prefix}}:bus`,
    JSON.stringify({ o: "test", c: { kind: "resourceUpdated", uri: "test://watched-resource" } }),
  );
  await second.until(4);
  assert.equal(
    [second.seen[3]!.method, second.seen[3]!.params],
    ["notifications/resources/updated", { uri: "test://watched-resource" }],
  );
  second.cancel();
});

test("an elicitation pending on the dead instance: its late answer gets a clear error (409); a new one after the takeover is answered", async () => {
  const alive = cluster.instances
    .map((p, i) => (p.child.exitCode === null && p.child.signalCode === null ? i : -1))
    .filter((i) => i >= 0);
  const init = await post(cluster.url, JSON_HEADERS, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "takeover-elicit", version: "1" },
    },
  });
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  const session = { ...JSON_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
  await (await post(cluster.url, session, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
  const home = await holder(session, alive);
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "test_elicitation", arguments: { message: "who?" } },
  };
  const answer = (id: unknown) => ({
    jsonrpc: "2.0",
    id,
    result: { action: "accept", content: { username: "ann", email: "ann@example.com" } },
  });

  const ctrl = new AbortController();
  const pending = new Events(
    await fetch(cluster.instances[home]!.url, {
      method: "POST",
      headers: session,
      body: JSON.stringify(call),
      signal: ctrl.signal,
    }),
  );
  await pending.until(1);
  assert.is(pending.seen[0]!.method, "elicitation/create");
  await kill(home);
  ctrl.abort();
  // Two requests at once on one survivor: one takes the session over, the other waits for it.
  const survivor = cluster.instances[alive.find((i) => i !== home)!]!.url;
  let late!: Response;
  let ping!: Response;
  for (let i = 0; i < 50; i++) {
    [late, ping] = await Promise.all([
      post(survivor, session, answer(pending.seen[0]!.message.id)),
      post(survivor, session, { jsonrpc: "2.0", id: 5, method: "ping" }),
    ]);
    if (late.status !== 503 && ping.status !== 503) break;
    await Promise.all([late.text(), ping.text()]);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.is(ping.status, 200, await ping.clone().text());
  assert.equal(JSON.parse(await ping.text()), { jsonrpc: "2.0", id: 5, result: {} });
  assert.is(late.status, 409);
  assert.match(await late.text(), /ended with the server instance that sent them/);

  // The session goes on: a new elicitation (sent by the instance that took it over) is answered.
  const again = new Events(await post(cluster.url, { ...session }, { ...call, id: 2 }));
  await again.until(1);
  assert.is(again.seen[0]!.method, "elicitation/create");
  const ack = await post(cluster.url, session, answer(again.seen[0]!.message.id));
  assert.is(ack.status, 202, await ack.text());
  await again.until(2);
  assert.match(JSON.stringify(again.seen[1]!.message), /ann/);
  again.cancel();
});

test("a corrupted session record in Redis: the session is gone (404) once its instance died, nothing crashes", async () => {
  const alive = cluster.instances
    .map((p, i) => (p.child.exitCode === null && p.child.signalCode === null ? i : -1))
    .filter((i) => i >= 0);
  assert.is(alive.length, 2, "two instances left");
  const { session, sid, home } = await openSession(alive);
  redis("HSET", `{${prefix}}:srec:${sid}`, "data", '{"initialize":[1],"streams":"../x","subscriptions":7}');
  await kill(home);
  const res = await untilServed(() => post(cluster.url, session, { jsonrpc: "2.0", id: 9, method: "ping" }));
  assert.is(res.status, 404, await res.text());
  // The survivor still serves: a new session works.
  const next = await openSession(alive.filter((i) => i !== home));
  assert.is(
    next.home,
    alive.find((i) => i !== home),
  );
});

test.run();
