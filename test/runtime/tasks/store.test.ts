import { test } from "uvu";
import * as assert from "uvu/assert";
import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { limits, MemoryTaskStore, type TaskLimitError } from "@mcpgen/runtime";
import { clock, storeContract } from "./store-contract.js";

storeContract("memory", async (o) => new MemoryTaskStore(o));

/** A full collection without --expose-gc on the command line. */
function collect(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

test("memory: memory returns to idle once tasks expire (heap measured, no timing)", async () => {
  const c = clock();
  const store = new MemoryTaskStore({
    now: c.now,
    maxTasks: 2000,
    maxTasksPerOwner: 2000,
    defaultTtlMs: 1000,
    maxTtlMs: 1000,
  });
  collect();
  const idle = process.memoryUsage().heapUsed;
  for (let i = 0; i < 2000; i++) {
    const t = await store.create({});
    await store.update(t.taskId, {
      status: "completed",
      result: { content: [{ type: "text", text: randomBytes(5000).toString("hex") }] },
    });
  }
  collect();
  const full = process.memoryUsage().heapUsed;
  assert.ok(full - idle > 15_000_000, `2000 results of 10 kB should hold > 15 MB (held ${full - idle})`);
  c.advance(1000);
  assert.is(store.expire(), 2000);
  assert.is(store.size, 0);
  collect();
  const after = process.memoryUsage().heapUsed;
  assert.ok(after - idle < 2_000_000, `heap back to idle after expiry: ${idle} -> ${full} -> ${after}`);
});

test("memory: an idle store sweeps expired tasks by itself (bounded wait, no timing asserted)", async () => {
  const store = new MemoryTaskStore({ defaultTtlMs: 1, maxTtlMs: 1, sweepIntervalMs: 5 });
  for (let i = 0; i < 10; i++) await store.create({});
  for (let i = 0; i < 200 && store.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.is(store.size, 0, "no call touched the store, yet its expired tasks are gone");
});

test("memory: bad limits are refused up front", () => {
  assert.throws(() => new MemoryTaskStore({ maxTasks: 0 }), /maxTasks/);
  assert.throws(() => new MemoryTaskStore({ defaultTtlMs: 10, maxTtlMs: 5 }), /maxTtlMs/);
  assert.throws(() => new MemoryTaskStore({ maxTasks: 10, maxTasksPerOwner: 11 }), /maxTasks >= maxTasksPerOwner/);
  assert.throws(() => new MemoryTaskStore({ maxTasksPerOwner: 0 }), /maxTasksPerOwner >= 1/);
});

test("memory: by default one owner holds a tenth of the store (limits.TASK_OWNER_SHARE), at least one", async () => {
  assert.is(limits.TASK_OWNER_SHARE, 0.1);
  const store = new MemoryTaskStore({ maxTasks: 50 });
  for (let i = 0; i < 5; i++) await store.create({ owner: "a" });
  await store.create({ owner: "a" }).then(
    () => assert.unreachable(),
    (e: TaskLimitError) => assert.equal([e.limit, e.max], ["maxTasksPerOwner", 5]),
  );
  const tiny = new MemoryTaskStore({ maxTasks: 3 });
  await tiny.create({});
  await tiny.create({}).then(
    () => assert.unreachable(),
    (e: TaskLimitError) => assert.is(e.max, 1),
  );
  const full = new MemoryTaskStore({ maxTasks: limits.MAX_TASKS });
  for (let i = 0; i < limits.MAX_TASKS / 10; i++) await full.create({ owner: "flood" });
  await full.create({ owner: "flood" }).then(
    () => assert.unreachable(),
    (e: TaskLimitError) => assert.is(e.max, 100),
  );
  assert.ok(await full.create({ owner: "someone else" }));
});

test.run();
