// What every TaskStore answers alike (the in-memory default and the SQLite file), so a Redis or
// PostgreSQL store can be held to the same behaviour.
import { test as uvuTest } from "uvu";
import * as assert from "uvu/assert";
import { TaskLimitError, type TaskStore } from "@mcpgen/runtime";

export interface Clock {
  now: () => number;
  advance: (ms: number) => void;
}

export function clock(start = Date.UTC(2026, 0, 1)): Clock {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

type Make = (o: {
  now: () => number;
  maxTasks?: number;
  maxTasksPerOwner?: number;
  defaultTtlMs?: number;
  maxTtlMs?: number;
}) => Promise<TaskStore & { close?(): void }>;

export function storeContract(name: string, make: Make): void {
  const test = (title: string, body: () => Promise<void>) => uvuTest(`${name}: ${title}`, body);

  test("a new task is working, timestamped, with an unguessable id and the granted ttl", async () => {
    const c = clock();
    const store = await make({ now: c.now, defaultTtlMs: 1000, maxTtlMs: 5000 });
    const a = await store.create({});
    const b = await store.create({ ttlMs: 60_000, pollIntervalMs: 250 });
    assert.equal([a.status, a.createdAt, a.ttlMs], ["working", "2026-01-01T00:00:00.000Z", 1000]);
    assert.is(b.ttlMs, 5000, "requested retention is capped at maxTtlMs");
    assert.is(b.pollIntervalMs, 250);
    assert.ok(/^[A-Za-z0-9_-]{22}$/.test(a.taskId));
    assert.is.not(a.taskId, b.taskId);
    assert.is((await store.create({ ttlMs: null })).ttlMs, 5000, "unlimited requests get the cap");
    assert.equal(await store.get(a.taskId), a);
    store.close?.();
  });

  test("terminal tasks never change again; cancel is one step and idempotent", async () => {
    const store = await make({ now: Date.now });
    const t = await store.create({});
    const waiting = await store.update(t.taskId, {
      status: "input_required",
      inputRequests: { k: { method: "elicitation/create" } },
    });
    assert.equal(waiting?.inputRequests, { k: { method: "elicitation/create" } });
    assert.is(
      (await store.update(t.taskId, { status: "working" }))?.inputRequests,
      undefined,
      "input requests vanish outside input_required",
    );
    const done = await store.update(t.taskId, {
      status: "completed",
      result: { content: [{ type: "text", text: "ok" }] },
    });
    assert.equal(done?.result, { content: [{ type: "text", text: "ok" }] });
    assert.equal((await store.cancel(t.taskId))?.status, "completed", "a completed task is not cancelled");
    assert.is((await store.update(t.taskId, { status: "failed" }))?.status, "completed");
    const u = await store.create({ owner: "alice" });
    assert.is(await store.cancel(u.taskId, "bob"), undefined, "someone else's task cannot be cancelled");
    const c = await store.cancel(u.taskId, "alice", "stop");
    assert.equal([c?.status, c?.statusMessage], ["cancelled", "stop"]);
    assert.is((await store.update(u.taskId, { status: "completed", result: {} }))?.status, "cancelled");
    assert.is(await store.update("nope", { status: "working" }), undefined);
    assert.is(await store.cancel("nope"), undefined);
    store.close?.();
  });

  test("tasks expire after their ttl, free their slot, and a full store refuses", async () => {
    const c = clock();
    const store = await make({ now: c.now, maxTasks: 2, maxTasksPerOwner: 2, defaultTtlMs: 100, maxTtlMs: 100 });
    const a = await store.create({});
    await store.create({});
    await store.create({}).then(
      () => assert.unreachable("a full store must refuse"),
      (e: Error) => {
        assert.instance(e, TaskLimitError);
        assert.match(e.message, /at most 2/);
      },
    );
    c.advance(99);
    assert.ok(await store.get(a.taskId), "still there before the ttl elapsed");
    c.advance(1);
    assert.is(await store.get(a.taskId), undefined);
    assert.is(await store.update(a.taskId, { status: "completed" }), undefined, "an expired task cannot be updated");
    await store.create({});
    await store.create({});
    c.advance(100);
    assert.is(await store.expire(), 2, "both new tasks are swept at once");
    assert.is(await store.expire(), 0);
    store.close?.();
  });

  test("each owner holds at most maxTasksPerOwner, owner-less tasks share one quota, and release drops one owner's tasks", async () => {
    const c = clock();
    const store = await make({ now: c.now, maxTasks: 10, maxTasksPerOwner: 3, defaultTtlMs: 100, maxTtlMs: 100 });
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => assert.unreachable("the create must be refused"),
        (e: TaskLimitError) => (assert.instance(e, TaskLimitError), [e.limit, e.max]),
      );
    const alice = [];
    for (let i = 0; i < 3; i++) alice.push(await store.create({ owner: "alice" }));
    // Finished and cancelled tasks are still held, so they still count.
    await store.update(alice[0]!.taskId, { status: "completed", result: {} });
    await store.cancel(alice[1]!.taskId, "alice");
    assert.equal(await refusal(store.create({ owner: "alice" })), ["maxTasksPerOwner", 3]);
    await store
      .create({ owner: "alice" })
      .catch((e: Error) => assert.match(e.message, /at most 3 of one caller's tasks/));
    await store.create({ owner: "bob" });
    for (let i = 0; i < 3; i++) await store.create({});
    assert.equal(await refusal(store.create({})), ["maxTasksPerOwner", 3], "owner-less tasks are one owner");
    await store.create({ owner: "carol" });
    await store.create({ owner: "carol" });
    await store.create({ owner: "dave" });
    assert.equal(await refusal(store.create({ owner: "erin" })), ["maxTasks", 10], "the whole store is still bounded");
    assert.is(await store.release!("alice"), 3);
    assert.is(await store.release!("nobody"), 0);
    assert.is(await store.get(alice[2]!.taskId, "alice"), undefined, "a released task is gone");
    assert.ok(await store.create({ owner: "erin" }), "released tasks free the store");
    for (let i = 0; i < 2; i++) await store.create({ owner: "alice" });
    c.advance(100);
    for (let i = 0; i < 3; i++) await store.create({ owner: "bob" });
    assert.equal(
      await refusal(store.create({ owner: "bob" })),
      ["maxTasksPerOwner", 3],
      "expired tasks free their owner's quota",
    );
    store.close?.();
  });

  test("owners see only their tasks; list paginates by cursor and rejects unknown cursors", async () => {
    const store = await make({ now: Date.now });
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await store.create({ owner: "alice" }));
    const theirs = await store.create({ owner: "bob" });
    const anyone = await store.create({});
    assert.is(await store.get(theirs.taskId, "alice"), undefined);
    assert.is(await store.get(theirs.taskId), undefined);
    assert.ok(await store.get(theirs.taskId, "bob"));
    const p1 = await store.list("alice", undefined, 3);
    assert.equal(
      p1.tasks.map((t) => t.taskId),
      mine.slice(0, 3).map((t) => t.taskId),
    );
    const p2 = await store.list("alice", p1.nextCursor, 3);
    assert.equal(
      p2.tasks.map((t) => t.taskId),
      [...mine.slice(3), anyone].map((t) => t.taskId),
    );
    assert.is(p2.nextCursor, undefined);
    assert.equal(
      (await store.list(undefined, undefined, 10)).tasks.map((t) => t.taskId),
      [anyone.taskId],
    );
    await store.list("alice", "bogus", 3).then(
      () => assert.unreachable(),
      (e: Error) => assert.instance(e, RangeError),
    );
    store.close?.();
  });
}
