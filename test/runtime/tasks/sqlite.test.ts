// The durable task store on a real SQLite file: the shared contract, then what only a file has
// (reopening, interrupted tasks, a second process, corrupt or foreign files, bounded values).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERRUPTED, openSqliteTaskStore, TaskStoreError } from "@mcpgen/runtime/tasks/sqlite";
import { storeContract } from "./store-contract.js";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-sqlite-store-"));
let n = 0;
const fresh = () => join(dir, `t${n++}.db`);

storeContract("sqlite", (o) => openSqliteTaskStore(fresh(), o));

test.after(() => rmSync(dir, { recursive: true, force: true }));

test("sqlite: finished tasks survive reopening; running ones come back failed as interrupted", async () => {
  const file = fresh();
  const a = await openSqliteTaskStore(file);
  assert.is(a.interrupted, 0);
  const done = await a.create({ pollIntervalMs: 50 });
  await a.update(done.taskId, { status: "completed", result: { content: [{ type: "text", text: "kept" }], structuredContent: { n: 1 } } });
  const running = await a.create({});
  const waiting = await a.create({});
  await a.update(waiting.taskId, { status: "input_required", inputRequests: { k: { method: "elicitation/create" } } });
  const cancelled = await a.cancel((await a.create({})).taskId);
  a.close();

  const b = await openSqliteTaskStore(file);
  assert.is(b.interrupted, 2);
  const kept = await b.get(done.taskId);
  assert.equal([kept?.status, kept?.result, kept?.pollIntervalMs], ["completed", { content: [{ type: "text", text: "kept" }], structuredContent: { n: 1 } }, 50]);
  for (const id of [running.taskId, waiting.taskId]) {
    const t = await b.get(id);
    assert.equal([t?.status, t?.error, t?.statusMessage, t?.inputRequests], ["failed", INTERRUPTED, INTERRUPTED.message, undefined]);
  }
  assert.is((await b.get(cancelled!.taskId))?.status, "cancelled");
  assert.is((await b.list(undefined, undefined, 10)).tasks.length, 4, "creation order and cursors survive too");
  b.close();
});

test("sqlite: a second opener of the same file gets a clear error until the first closes", async () => {
  const file = fresh();
  const a = await openSqliteTaskStore(file);
  await openSqliteTaskStore(file).then(
    () => assert.unreachable("the file is held"),
    (e: Error) => {
      assert.instance(e, TaskStoreError);
      assert.match(e.message, file);
      assert.match(e.message, /another process holds it/);
    },
  );
  a.close();
  (await openSqliteTaskStore(file)).close();
});

test("sqlite: corrupt and foreign files are refused with the file named and nothing written", async () => {
  const garbage = fresh();
  writeFileSync(garbage, "this is not a database, just text that is long enough to look like a header".repeat(20));
  await openSqliteTaskStore(garbage).then(
    () => assert.unreachable(),
    (e: Error) => {
      assert.instance(e, TaskStoreError);
      assert.match(e.message, garbage);
      assert.match(e.message, /not an intact SQLite database; move it away/);
    },
  );
  // Another application's database: a valid file whose header names another application id
  // (offset 68, big-endian; SQLite keeps no checksum over it).
  const foreign = fresh();
  (await openSqliteTaskStore(foreign)).close();
  const bytes = readFileSync(foreign);
  bytes.writeUInt32BE(0x12345678, 68);
  writeFileSync(foreign, bytes);
  await openSqliteTaskStore(foreign).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /is an SQLite database but not an mcpgen task store \(application_id 305419896\)/),
  );
});

test("sqlite: an oversized result fails the task with a message instead of growing the file", async () => {
  const store = await openSqliteTaskStore(fresh(), { maxValueBytes: 4096 });
  const t = await store.create({});
  const after = await store.update(t.taskId, { status: "completed", result: { content: [{ type: "text", text: "x".repeat(5000) }] } });
  assert.is(after?.status, "failed");
  assert.match(after?.error?.message ?? "", /result \(\d+ bytes\) exceeds the task store's limit of 4096 bytes/);
  assert.is(after?.result, undefined);
  store.close();
});

test("sqlite: expired rows are deleted from the file, so it stays bounded", async () => {
  let now = Date.UTC(2026, 0, 1);
  const store = await openSqliteTaskStore(fresh(), { now: () => now, maxTasks: 3, maxTasksPerOwner: 3, defaultTtlMs: 10, maxTtlMs: 10 });
  for (let i = 0; i < 3; i++) await store.create({});
  assert.is(store.size, 3);
  now += 10;
  await store.create({});
  assert.is(store.size, 1, "a full store sweeps expired rows before refusing");
  store.close();
});

test("sqlite: bad limits are refused up front", async () => {
  await openSqliteTaskStore(fresh(), { maxTasks: 0 }).then(() => assert.unreachable(), (e: Error) => assert.instance(e, RangeError));
});

test.run();
