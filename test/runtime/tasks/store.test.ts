import { test } from "uvu";
import * as assert from "uvu/assert";
import { MemoryTaskStore, TaskLimitError } from "@mcpgen/runtime";

function clock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

test("a new task is working, timestamped, with an unguessable id and the granted ttl", async () => {
  const c = clock();
  const store = new MemoryTaskStore({ now: c.now, defaultTtlMs: 1000, maxTtlMs: 5000 });
  const a = await store.create({});
  const b = await store.create({ ttlMs: 60_000, pollIntervalMs: 250 });
  assert.is(a.status, "working");
  assert.is(a.createdAt, "2026-01-01T00:00:00.000Z");
  assert.is(a.ttlMs, 1000);
  assert.is(b.ttlMs, 5000, "requested retention is capped at maxTtlMs");
  assert.is(b.pollIntervalMs, 250);
  assert.ok(/^[A-Za-z0-9_-]{22}$/.test(a.taskId));
  assert.is.not(a.taskId, b.taskId);
  assert.is((await store.create({ ttlMs: null })).ttlMs, 5000, "unlimited requests get the cap");
});

test("terminal tasks never change again; input requests vanish when the task leaves input_required", async () => {
  const store = new MemoryTaskStore();
  const t = await store.create({});
  const waiting = await store.update(t.taskId, { status: "input_required", inputRequests: { k: { method: "elicitation/create" } } });
  assert.equal(waiting?.inputRequests, { k: { method: "elicitation/create" } });
  const working = await store.update(t.taskId, { status: "working" });
  assert.is(working?.inputRequests, undefined);
  await store.update(t.taskId, { status: "cancelled" });
  const after = await store.update(t.taskId, { status: "completed", result: { content: [] } });
  assert.is(after?.status, "cancelled");
  assert.is(after?.result, undefined);
  assert.is(await store.update("nope", { status: "working" }), undefined);
});

test("tasks expire after their ttl and free their slot", async () => {
  const c = clock();
  const store = new MemoryTaskStore({ now: c.now, maxTasks: 2, defaultTtlMs: 100, maxTtlMs: 100 });
  const a = await store.create({});
  await store.create({});
  try {
    await store.create({});
    assert.unreachable("a full store must refuse");
  } catch (e) {
    assert.instance(e, TaskLimitError);
    assert.match((e as Error).message, /at most 2/);
  }
  c.advance(99);
  assert.ok(await store.get(a.taskId), "still there before the ttl elapsed");
  c.advance(1);
  assert.is(await store.get(a.taskId), undefined);
  await store.create({});
  assert.is(store.expire(), 1, "the other expired task is swept");
  assert.is(store.size, 1, "only the new task is held: memory returns to idle as tasks expire");
});

test("owners see only their tasks; list paginates by cursor and rejects unknown cursors", async () => {
  const store = new MemoryTaskStore();
  const mine = [];
  for (let i = 0; i < 5; i++) mine.push(await store.create({ owner: "alice" }));
  const theirs = await store.create({ owner: "bob" });
  assert.is(await store.get(theirs.taskId, "alice"), undefined);
  assert.is(await store.get(theirs.taskId), undefined);
  assert.ok(await store.get(theirs.taskId, "bob"));
  const p1 = await store.list("alice", undefined, 3);
  assert.equal(p1.tasks.map((t) => t.taskId), mine.slice(0, 3).map((t) => t.taskId));
  const p2 = await store.list("alice", p1.nextCursor, 3);
  assert.equal(p2.tasks.map((t) => t.taskId), mine.slice(3).map((t) => t.taskId));
  assert.is(p2.nextCursor, undefined);
  await store.list("alice", "bogus", 3).then(() => assert.unreachable(), (e: Error) => assert.instance(e, RangeError));
});

test("bad limits are refused up front", () => {
  assert.throws(() => new MemoryTaskStore({ maxTasks: 0 }), /maxTasks/);
  assert.throws(() => new MemoryTaskStore({ defaultTtlMs: 10, maxTtlMs: 5 }), /maxTtlMs/);
});

test.run();
