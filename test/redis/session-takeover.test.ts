// Taking a legacy session over from a dead instance, at the directory against a real Redis: one
// claimant wins a race, another principal claims nothing, a live instance's session is not taken;
// and a stored record read back as untrusted input (any text: a record or nothing, never a throw).
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { RedisConnection, RedisSessionDirectory } from "@mcpgen/runtime/redis";
import {
  parseRecord,
  recordMessage,
  restoreMessages,
  serializeRecord,
  type SessionRecord,
} from "@mcpgen/runtime/internal";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import { startRedis, type RedisServer } from "./harness.js";

let redis!: RedisServer;
const links: RedisConnection[] = [];
const dirs: RedisSessionDirectory[] = [];
let n = 0;

async function directory(prefix: string): Promise<RedisSessionDirectory> {
  const c = await RedisConnection.open({ url: redis.url, prefix });
  links.push(c);
  const d = new RedisSessionDirectory(c);
  dirs.push(d);
  return d;
}

const record: SessionRecord = {
  initialize: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  subscriptions: ["test://a"],
  streams: "abc12",
  standalone: "abc12-1",
};

test.before(async () => {
  redis = await startRedis();
});
test.after(async () => {
  for (const d of dirs) await d.close().catch(() => {});
  for (const c of links) await c.close();
  await redis?.close();
});

/** Until `sid`'s record is in Redis (save() does not wait for it), bounded. */
async function written(link: RedisConnection, sid: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await link.command<number>(["EXISTS", link.key("srec", sid)])) === 1) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the record of ${sid} was not written`);
}

/** A session opened on a directory whose instance then died (stopped announcing); the survivors. */
async function orphan(
  owner: string | undefined,
  survivors = 2,
): Promise<{ sid: string; live: RedisSessionDirectory[] }> {
  const prefix = `s${n++}`;
  const dead = await directory(prefix);
  await dead.announce(new URL("http://127.0.0.1:1/mcp"));
  const sid = `sid-${n}`;
  await dead.opened(sid);
  dead.save(sid, owner, serializeRecord(record));
  await written(links[links.length - 1]!, sid);
  await dead.close();
  const live: RedisSessionDirectory[] = [];
  for (let i = 0; i < survivors; i++) {
    const d = await directory(prefix);
    await d.announce(new URL(`http://127.0.0.1:${2 + i}/mcp`));
    live.push(d);
  }
  return { sid, live };
}

test("two instances race to take over one session: exactly one wins, the other is sent to it", async () => {
  for (let round = 0; round < 5; round++) {
    const { sid, live } = await orphan("client\u0000alice");
    const got = await Promise.all(live.map((d) => d.takeOver(sid, "client\u0000alice")));
    const won = got.filter((g) => g !== "elsewhere" && g !== undefined);
    assert.is(won.length, 1, JSON.stringify(got));
    assert.ok(got.includes("elsewhere"));
    assert.equal(parseRecord(won[0]), record);
    // The winner holds it from now on; asked again, it still does.
    const winner = live[got.indexOf(won[0]!)]!;
    assert.type(await winner.takeOver(sid, "client\u0000alice"), "string");
  }
});

test("another principal claims nothing (404), and the session stays the owner's to take over", async () => {
  const { sid, live } = await orphan("client\u0000alice", 1);
  assert.is(await live[0]!.takeOver(sid, "client\u0000mallory"), undefined);
  assert.is(await live[0]!.takeOver(sid, undefined), undefined);
  assert.type(await live[0]!.takeOver(sid, "client\u0000alice"), "string");
});

test("a session whose instance lives is not taken over; an unknown or unsaved one is nothing", async () => {
  const prefix = `s${n++}`;
  const [home, other] = [await directory(prefix), await directory(prefix)];
  await home.announce(new URL("http://127.0.0.1:1/mcp"));
  await other.announce(new URL("http://127.0.0.1:2/mcp"));
  await home.opened("held");
  home.save("held", undefined, serializeRecord(record));
  await written(links[links.length - 2]!, "held");
  assert.is(await other.takeOver("held", undefined), "elsewhere");
  assert.is(await other.takeOver("nobody", undefined), undefined);
  await home.opened("too-big");
  home.save("too-big", undefined, undefined);
  await home.close();
  assert.is(await other.takeOver("too-big", undefined), undefined);
});

test("a session's entry and record go together when it closes (DELETE, idle timeout), and expire together", async () => {
  const prefix = `s${n++}`;
  const home = await directory(prefix);
  await home.announce(new URL("http://127.0.0.1:1/mcp"));
  await home.opened("ends");
  home.save("ends", undefined, serializeRecord(record));
  const link = links[links.length - 1]!;
  // save() does not wait for Redis either.
  let ttl = -2;
  for (let i = 0; i < 50 && ttl < 0; i++) {
    ttl = await link.command<number>(["PTTL", link.key("srec", "ends")]);
    if (ttl < 0) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(ttl > 0 && ttl <= 35 * 60_000, `record ttl ${ttl}`);
  home.closed("ends");
  // closed() does not wait for Redis: polled, bounded.
  let left = -1;
  for (let i = 0; i < 50 && left !== 0; i++) {
    left = await link.command<number>(["EXISTS", link.key("sess", "ends"), link.key("srec", "ends")]);
    if (left !== 0) await new Promise((r) => setTimeout(r, 20));
  }
  assert.is(left, 0);
});

test("a session in use has its entry and record renewed together, one script per beat (no PEXPIRE round trips)", async () => {
  const link = await RedisConnection.open({ url: redis.url, prefix: `s${n++}` });
  links.push(link);
  const command = link.command.bind(link);
  const run = link.run.bind(link);
  const sent: string[] = [];
  link.command = (args) => {
    sent.push(args[0]!);
    return command(args);
  };
  link.run = (script, keys, args) => {
    sent.push(`script ${keys.length} keys`);
    return run(script, keys, args);
  };
  // ttlMs 4 s: renewed on every beat (1 s).
  const home = new RedisSessionDirectory(link, { ttlMs: 4000 });
  dirs.push(home);
  await home.announce(new URL("http://127.0.0.1:1/mcp"));
  await home.opened("kept");
  home.save("kept", undefined, serializeRecord(record));
  await written(link, "kept");
  const keys = [link.key("sess", "kept"), link.key("srec", "kept")];
  for (const k of keys) await command(["PEXPIRE", k, "2500"]);
  sent.length = 0;
  let ttls: number[] = [];
  for (let i = 0; i < 60; i++) {
    ttls = await Promise.all(keys.map((k) => command<number>(["PTTL", k])));
    if (ttls.every((t) => t > 2600)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(
    ttls.every((t) => t > 2600 && t <= 4000),
    `both renewed to the ttl: ${ttls.join(", ")}`,
  );
  assert.not.ok(sent.includes("PEXPIRE"), `sent: ${sent.join(", ")}`);
  assert.ok(sent.includes("script 2 keys"), `sent: ${sent.join(", ")}`);
});

test("a record past its bounds is not kept; restoring gives initialize first, then initialized, level and subscriptions", () => {
  assert.is(serializeRecord({ ...record, subscriptions: Array.from({ length: 1001 }, (_, i) => `u${i}`) }), undefined);
  assert.is(serializeRecord({ ...record, initialize: { pad: "x".repeat(70_000) } }), undefined);
  const methods = restoreMessages({ ...record, logLevel: "error" }).map((m) => (m as { method: string }).method);
  assert.equal(methods, ["initialize", "notifications/initialized", "logging/setLevel", "resources/subscribe"]);
});

test("a record follows what shapes the session: level, subscribe, unsubscribe (batches too); other messages change nothing", () => {
  const r: SessionRecord = { initialize: {}, subscriptions: [], streams: "k1" };
  const req = (id: number, method: string, params: object) =>
    ({ jsonrpc: "2.0", id, method, params }) as JSONRPCMessage;
  assert.ok(recordMessage(r, req(1, "logging/setLevel", { level: "error" })));
  assert.not.ok(recordMessage(r, req(2, "logging/setLevel", { level: "error" })), "unchanged: nothing to save");
  assert.ok(
    recordMessage(r, [req(3, "resources/subscribe", { uri: "a" }), req(4, "resources/subscribe", { uri: "b" })]),
  );
  assert.not.ok(recordMessage(r, req(5, "resources/subscribe", { uri: "a" })));
  assert.ok(recordMessage(r, req(6, "resources/unsubscribe", { uri: "a" })));
  assert.not.ok(recordMessage(r, req(7, "tools/call", { name: "x" })));
  assert.not.ok(
    recordMessage(r, { jsonrpc: "2.0", method: "resources/subscribe", params: { uri: "c" } } as JSONRPCMessage),
    "a notification is no subscription",
  );
  assert.not.ok(recordMessage(r, req(8, "resources/subscribe", { uri: 7 })));
  assert.equal(r, { initialize: {}, subscriptions: ["b"], streams: "k1", logLevel: "error" });
});

test("a record's standalone stream id is one of the session's stream ids, one line (its event ids go out unscanned)", () => {
  const record = (standalone: string) =>
    JSON.stringify({ initialize: {}, subscriptions: [], streams: "k1", standalone });
  assert.is(parseRecord(record("k1-2a"))?.standalone, "k1-2a");
  for (const bad of ["k1-2a\nid: 9", "k1-\r", "k1-", "k2-1", "k1-2-3", "k1-A"])
    assert.is(parseRecord(record(bad)), undefined, bad);
});

test("any stored text reads as a well-formed record or as nothing, never a throw", () => {
  const shaped = fc.record({
    initialize: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
    streams: fc.oneof(fc.stringMatching(/^[0-9a-z]{1,8}$/), fc.string()),
    standalone: fc.option(fc.string(), { nil: undefined }),
    logLevel: fc.option(fc.oneof(fc.string(), fc.integer()), { nil: undefined }),
    subscriptions: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
  });
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.jsonValue().map((v) => JSON.stringify(v)),
        shaped.map((v) => JSON.stringify(v)),
      ),
      (text) => {
        const r = parseRecord(text);
        if (r === undefined) return;
        assert.type(r.initialize, "object");
        assert.ok(Array.isArray(r.subscriptions) && r.subscriptions.every((s) => typeof s === "string"));
        assert.ok(r.standalone === undefined || /^[0-9a-z]+-[0-9a-z]+$/.test(r.standalone));
        assert.ok(r.standalone === undefined || r.standalone.startsWith(`${r.streams}-`));
        assert.ok(serializeRecord(r) !== undefined);
      },
    ),
    { numRuns: 500 },
  );
});

test.run();
