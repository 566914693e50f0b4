// The Redis stores against a redis-server of the test's own: the same contracts as the in-memory
// defaults (and, for tasks, the SQLite store), then what only a shared store must do.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import {
  openRedisStores,
  RedisConnection,
  RedisEventStore,
  RedisNonceClaims,
  RedisChangeBus,
  RedisTaskStore,
  RedisSessionDirectory,
} from "@mcpgen/runtime/redis";
import { freePort, startRedis, type RedisServer } from "./harness.js";
import { changeBusContract, eventStoreContract, nonceClaimsContract } from "../runtime/shared-state-contract.js";
import { storeContract } from "../runtime/tasks/store-contract.js";

let redis!: RedisServer;
const links: RedisConnection[] = [];
let n = 0;
/** A connection in a namespace of its own, so tests do not see each other's keys. */
async function link(prefix = `t${n++}`): Promise<RedisConnection> {
  const c = await RedisConnection.open({ url: redis.url, prefix });
  links.push(c);
  return c;
}

test.before(async () => {
  redis = await startRedis();
});
test.after(async () => {
  for (const c of links) await c.close();
  await redis?.close();
});

storeContract("redis", async (o) => new RedisTaskStore(await link(), o));
eventStoreContract("redis", async (o) => new RedisEventStore(await link(), o));
nonceClaimsContract("redis", async () => new RedisNonceClaims(await link()));
const busPrefix = "bus-contract";
changeBusContract("redis", async () => RedisChangeBus.attach(await link(busPrefix)));

test("redis: two instances share claims, events and tasks; another prefix shares nothing", async () => {
  const [a, b, other] = [await link("shared"), await link("shared"), await link("other")];
  const now = Date.now();
  assert.is(await new RedisNonceClaims(a).claim("n", now + 60_000, now), true);
  assert.is(
    await new RedisNonceClaims(b).claim("n", now + 60_000, now),
    false,
    "a replay on another instance is refused",
  );
  assert.is(
    await new RedisNonceClaims(other).claim("n", now + 60_000, now),
    true,
    "another deployment's namespace is its own",
  );
  const id = await new RedisEventStore(a).storeEvent("s", { jsonrpc: "2.0", method: "x" });
  assert.is(await new RedisEventStore(b).streamIdFor(id), "s");
  assert.is(await new RedisEventStore(other).streamIdFor(id), undefined);
  const [ta, tb] = [new RedisTaskStore(a), new RedisTaskStore(b)];
  const t = await ta.create({ owner: "alice" });
  assert.is((await tb.cancel(t.taskId, "alice"))?.status, "cancelled");
  assert.is(
    (await ta.update(t.taskId, { status: "completed", result: {} }))?.status,
    "cancelled",
    "the status machine holds across instances",
  );
  ta.close();
  tb.close();
});

test("redis: a task whose instance stops renewing its lease fails with a clear message; finished ones stay readable", async () => {
  const [a, b] = [await link("lease"), await link("lease")];
  const dying = new RedisTaskStore(a, { leaseMs: 90 });
  const survivor = new RedisTaskStore(b, { leaseMs: 90 });
  const reaped: string[] = [];
  survivor.onreaped = (ids) => void reaped.push(...ids);
  const running = await dying.create({});
  const waiting = await dying.create({});
  await dying.update(waiting.taskId, {
    status: "input_required",
    inputRequests: { k: { method: "elicitation/create" } },
  });
  const done = await dying.create({});
  await dying.update(done.taskId, { status: "completed", result: { content: [] } });
  const alive = await survivor.create({});
  // A live instance renews: its task outlives several lease periods.
  await new Promise((r) => setTimeout(r, 250));
  assert.is((await survivor.get(running.taskId))?.status, "working");
  dying.close(); // as if SIGKILLed: no more renewals
  for (let i = 0; i < 50 && reaped.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
  const failed = await survivor.get(running.taskId);
  assert.equal([failed?.status, failed?.error?.code], ["failed", -32603]);
  assert.match(failed!.statusMessage!, /stopped before it finished/);
  assert.is((await survivor.get(waiting.taskId))?.status, "failed", "input_required dies with its instance too");
  assert.equal(
    (await survivor.get(done.taskId))?.result,
    { content: [] },
    "a completed result survives (and keeps its empty array)",
  );
  assert.is((await survivor.get(alive.taskId))?.status, "working", "the survivor's own task is untouched");
  assert.equal(reaped.sort(), [running.taskId, waiting.taskId].sort());
  survivor.close();
});

test("redis: any Last-Event-ID a client sends is answered (unknown: nothing), never thrown on", async () => {
  const store = new RedisEventStore(await link());
  const real = await store.storeEvent("s", { jsonrpc: "2.0", method: "x" });
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 200 }), async (id) => {
      fc.pre(id !== real && !id.startsWith("s_"));
      assert.is(await store.streamIdFor(id), undefined);
      let sent = 0;
      await store.replayEventsAfter(id, () => void sent++);
      assert.is(sent, 0);
    }),
    { numRuns: 200 },
  );
});

test("redis: whatever arrives on the bus channel, a target hears only well-formed changes and nothing throws", async () => {
  const [pub, sub] = [await link("bus-fuzz"), await link("bus-fuzz")];
  const bus = await RedisChangeBus.attach(sub);
  const heard: unknown[] = [];
  bus.attach({
    listChanged: (list) => void heard.push(["list", list]),
    resourceUpdated: (uri) => void heard.push(["uri", typeof uri]),
    taskChanged: (task) => void heard.push(["task", typeof task]),
    taskCancelled: (id) => void heard.push(["cancel", typeof id]),
    taskInput: (id, r) => void heard.push(["input", typeof id, typeof r]),
  });
  const junk = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.json({ maxDepth: 4 }),
    fc
      .record({
        o: fc.string(),
        c: fc.record(
          {
            kind: fc.constantFrom("listChanged", "resourceUpdated", "task", "taskCancel", "taskInput", "other"),
            list: fc.anything(),
            uri: fc.anything(),
            task: fc.anything(),
            taskId: fc.anything(),
            responses: fc.anything(),
          },
          { requiredKeys: ["kind"] },
        ),
      })
      .map((m) => JSON.stringify(m)),
  );
  await fc.assert(
    fc.asyncProperty(junk, async (m) => void (await pub.publish(sub.key("bus"), m))),
    { numRuns: 300 },
  );
  await pub.publish(sub.key("bus"), JSON.stringify({ o: "elsewhere", c: { kind: "listChanged", list: "tools" } }));
  for (let i = 0; i < 100 && !heard.some((h) => JSON.stringify(h) === '["list","tools"]'); i++)
    await new Promise((r) => setTimeout(r, 10));
  for (const h of heard as unknown[][]) {
    if (h[0] === "list") assert.ok(["tools", "prompts", "resources"].includes(h[1] as string));
    else if (h[0] === "input") assert.equal(h.slice(1), ["string", "object"]);
    else assert.is(h[1], h[0] === "task" ? "object" : "string", String(h[0]));
  }
  assert.ok(heard.length >= 1);
  await bus.close();
});

test("redis: every key has a TTL or is an index bounded by maxTasks", async () => {
  const c = await link("ttl");
  const store = new RedisTaskStore(c, { maxTasks: 5 });
  await store.create({ owner: "o" });
  await new RedisEventStore(c).storeEvent("s", { jsonrpc: "2.0", method: "x" });
  const now = Date.now();
  await new RedisNonceClaims(c).claim("n", now + 1000, now);
  const keys = await c.command<string[]>(["KEYS", `${c.namespace}:*`]);
  const indexes = new Set(["tasks", "expiry", "owners", "leases", "seq"].map((k) => c.key(k)));
  for (const k of keys) {
    const ttl = await c.command<number>(["PTTL", k]);
    if (indexes.has(k) || k.startsWith(c.key("owner:"))) continue;
    assert.ok(ttl > 0, `${k} has a TTL`);
  }
  assert.ok(keys.length >= 6);
  store.close();
});

test("redis: the stores' timers start where a timer has no unref (workerd's are numbers)", async () => {
  const c = await link();
  const real = globalThis.setInterval;
  const made: number[] = [];
  globalThis.setInterval = ((fn: () => void, ms: number) => {
    const id = +real(fn, ms);
    made.push(id);
    return id;
  }) as unknown as typeof setInterval;
  let store: RedisTaskStore | undefined;
  let directory: RedisSessionDirectory | undefined;
  try {
    store = new RedisTaskStore(c);
    directory = new RedisSessionDirectory(c);
  } finally {
    globalThis.setInterval = real;
    store?.close();
    await directory?.close();
    // A constructor that threw left its timer running: stopped here, or it keeps the test alive.
    for (const id of made) clearInterval(id);
  }
  assert.is(made.length, 2, "both stores made their timer through the stand-in");
});

test("redis: an unreachable Redis fails opening with the URL named and its password redacted", async () => {
  const t = Date.now();
  await openRedisStores({ url: "redis://:hunter2@127.0.0.1:1", connectTimeoutMs: 1000 }).then(
    () => assert.unreachable("must not open"),
    (e: Error) => {
      assert.is(e.name, "RedisUnavailableError");
      assert.match(e.message, /redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
      assert.not.match(e.message, /hunter2/);
    },
  );
  assert.ok(Date.now() - t < 5000, "within a bounded time");
});

test("redis: a password-protected Redis is reached with the password in the URL and refused without it", async () => {
  const locked = await startRedis({ password: "s3cret pass" });
  try {
    const stores = await openRedisStores({ url: locked.url, prefix: "pw" });
    assert.is(await stores.nonceClaims.claim("x", Date.now() + 1000, Date.now()), true);
    await stores.close();
    await openRedisStores({ url: `redis://127.0.0.1:${locked.port}`, connectTimeoutMs: 1000 }).then(
      () => assert.unreachable("no password: refused"),
      (e: Error) => assert.match(e.message, /127\.0\.0\.1/),
    );
  } finally {
    await locked.close();
  }
});

test("redis: rediss:// reaches a TLS Redis with the CA given, and refuses a certificate it cannot verify", async () => {
  // A CA and a server certificate for 127.0.0.1, made here with openssl.
  const dir = redis.dir;
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  ssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
    "-days",
    "1",
    "-subj",
    "/CN=mcpgen-test-ca",
  );
  ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1");
  writeFileSync(join(dir, "ext"), "subjectAltName=IP:127.0.0.1");
  ssl(
    "x509",
    "-req",
    "-in",
    "srv.csr",
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "srv.crt",
    "-days",
    "1",
    "-extfile",
    "ext",
  );
  const tlsPort = await freePort();
  const tls = await startRedis({
    args: [
      "--tls-port",
      String(tlsPort),
      "--tls-cert-file",
      join(dir, "srv.crt"),
      "--tls-key-file",
      join(dir, "srv.key"),
      "--tls-ca-cert-file",
      join(dir, "ca.crt"),
      "--tls-auth-clients",
      "no",
    ],
  });
  try {
    const url = `rediss://127.0.0.1:${tlsPort}`;
    const stores = await openRedisStores({ url, prefix: "tls", tls: { ca: readFileSync(join(dir, "ca.crt")) } });
    assert.is(await stores.nonceClaims.claim("x", Date.now() + 1000, Date.now()), true);
    await stores.close();
    await openRedisStores({ url, connectTimeoutMs: 1000 }).then(
      () => assert.unreachable("an unknown CA must be refused"),
      (e: Error) => assert.match(e.message, /certificate/),
    );
  } finally {
    await tls.close();
  }
});

test("redis: lost while serving, commands fail fast with RedisUnavailableError; service resumes when it returns", async () => {
  const own = await startRedis();
  try {
    const stores = await openRedisStores({ url: own.url, prefix: "fault", commandTimeoutMs: 500 });
    const t = await stores.taskStore.create({});
    await own.stop();
    const started = Date.now();
    await stores.taskStore.get(t.taskId).then(
      () => assert.unreachable("Redis is down"),
      (e: Error) => assert.is(e.name, "RedisUnavailableError"),
    );
    assert.ok(Date.now() - started < 1500, "no hang");
    await own.start();
    let back = false;
    for (let i = 0; i < 100 && !back; i++) {
      back = await stores.nonceClaims.claim(`n${i}`, Date.now() + 1000, Date.now()).then(
        () => true,
        () => false,
      );
      if (!back) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(back, "commands succeed again after Redis returns");
    await stores.close();
  } finally {
    await own.close();
  }
});

test.run();
