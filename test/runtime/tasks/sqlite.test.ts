// The durable task store on a real SQLite file: the shared contract, then what only a file has
// (reopening, interrupted tasks, a second process, corrupt or foreign files, bounded values).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERRUPTED, openSqliteTaskStore, TaskStoreError } from "@mcpgen/runtime/tasks/sqlite";
import { storeContract } from "./store-contract.js";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-sqlite-store-"));
let n = 0;
const fresh = () => join(dir, `t${n++}.db`);

storeContract("sqlite", (o) => openSqliteTaskStore(fresh(), o));

test.after(() => rmSync(dir, { recursive: true, force: true }));

interface Sql {
  exec(sql: string): void;
  close(): void;
}

/** Another application's connection: node:sqlite where this Node has it, else better-sqlite3 (as the store picks). */
async function foreignConnection(file: string): Promise<Sql> {
  try {
    const specifier = "node:sqlite";
    const { DatabaseSync } = (await import(specifier)) as { DatabaseSync: new (f: string) => Sql };
    return new DatabaseSync(file);
  } catch {
    const specifier = "better-sqlite3";
    const { default: Database } = (await import(specifier)) as { default: new (f: string) => Sql };
    return new Database(file);
  }
}

/** Everything a store could have changed: the directory's names, then each file's bytes and mtime. */
function snapshot(): Map<string, { bytes: Buffer; mtimeMs: number }> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((n) => [n, { bytes: readFileSync(join(dir, n)), mtimeMs: statSync(join(dir, n)).mtimeMs }]),
  );
}

function assertUntouched(
  before: ReturnType<typeof snapshot>,
  what: string,
  except: (name: string) => boolean = () => false,
): void {
  const after = snapshot();
  assert.equal(
    [...after.keys()],
    [...before.keys()],
    `${what}: no file appeared or vanished (no -wal, -shm or -journal)`,
  );
  for (const [name, b] of before) {
    if (except(name)) continue;
    assert.ok(after.get(name)!.bytes.equals(b.bytes), `${what}: ${name} is byte-identical`);
    assert.is(after.get(name)!.mtimeMs, b.mtimeMs, `${what}: ${name} was not written`);
  }
}

async function refusedWith(file: string, why: RegExp): Promise<void> {
  await openSqliteTaskStore(file).then(
    (s) => {
      s.close();
      assert.unreachable(`${file} must be refused`);
    },
    (e: Error) => {
      assert.instance(e, TaskStoreError);
      assert.match(e.message, file);
      assert.match(e.message, why);
    },
  );
}

test("sqlite: finished tasks survive reopening; running ones come back failed as interrupted", async () => {
  const file = fresh();
  const a = await openSqliteTaskStore(file);
  assert.is(a.interrupted, 0);
  const done = await a.create({ pollIntervalMs: 50 });
  await a.update(done.taskId, {
    status: "completed",
    result: { content: [{ type: "text", text: "kept" }], structuredContent: { n: 1 } },
  });
  const running = await a.create({});
  const waiting = await a.create({});
  await a.update(waiting.taskId, { status: "input_required", inputRequests: { k: { method: "elicitation/create" } } });
  const cancelled = await a.cancel((await a.create({})).taskId);
  a.close();

  const b = await openSqliteTaskStore(file);
  assert.is(b.interrupted, 2);
  const kept = await b.get(done.taskId);
  assert.equal(
    [kept?.status, kept?.result, kept?.pollIntervalMs],
    ["completed", { content: [{ type: "text", text: "kept" }], structuredContent: { n: 1 } }, 50],
  );
  for (const id of [running.taskId, waiting.taskId]) {
    const t = await b.get(id);
    assert.equal(
      [t?.status, t?.error, t?.statusMessage, t?.inputRequests],
      ["failed", INTERRUPTED, INTERRUPTED.message, undefined],
    );
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
  let before = snapshot();
  await refusedWith(garbage, /not an intact SQLite database; move it away/);
  assertUntouched(before, "a text file");
  // Another application's database: a valid file whose header names another application id
  // (offset 68, big-endian; SQLite keeps no checksum over it).
  const foreign = fresh();
  (await openSqliteTaskStore(foreign)).close();
  const bytes = readFileSync(foreign);
  bytes.writeUInt32BE(0x12345678, 68);
  writeFileSync(foreign, bytes);
  before = snapshot();
  await refusedWith(foreign, /is an SQLite database but not an mcpgen task store \(application_id 305419896\)/);
  assertUntouched(before, "another application id");
  // Our own file of a schema this runtime does not read (user_version, offset 60).
  const future = fresh();
  (await openSqliteTaskStore(future)).close();
  const newer = readFileSync(future);
  newer.writeUInt32BE(2, 60);
  writeFileSync(future, newer);
  before = snapshot();
  await refusedWith(future, /has task store schema 2; this runtime reads 1/);
  assertUntouched(before, "another schema version");
});

test("sqlite: another application's database is refused untouched: no switch to WAL, no journal, same bytes and mtime", async () => {
  // An ordinary rollback-journal database with a table of its own and no application_id, as most are.
  const app = fresh();
  const db = await foreignConnection(app);
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')");
  db.close();
  const before = snapshot();
  assert.is(
    before.get(app.slice(dir.length + 1))!.bytes[18],
    1,
    "the file starts in rollback-journal mode (header byte 18)",
  );
  await refusedWith(app, /is an SQLite database but not an mcpgen task store \(application_id 0\)/);
  assertUntouched(before, "a rollback-journal database");

  // One already in WAL mode, cleanly closed: reading its header creates no -wal or -shm beside it.
  const wal = fresh();
  const w = await foreignConnection(wal);
  w.exec("PRAGMA journal_mode = WAL; CREATE TABLE events (at INTEGER)");
  w.close();
  const walBefore = snapshot();
  await refusedWith(wal, /not an mcpgen task store \(application_id 0\)/);
  assertUntouched(walBefore, "a WAL database");
});

test("sqlite: a foreign database whose newest pages are still in its write-ahead log is read through it, read-only", async () => {
  const app = fresh();
  const db = await foreignConnection(app);
  // The table is created after the switch to WAL: the main file alone does not show it yet.
  db.exec(
    "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE later (x); INSERT INTO later VALUES (1)",
  );
  try {
    assert.ok(statSync(`${app}-wal`).size > 0, "the application's log holds its pages");
    const before = snapshot();
    await refusedWith(app, /not an mcpgen task store \(application_id 0\)/);
    // Every reader, read-only ones included, marks what it reads in the shared-memory index (-shm).
    assertUntouched(before, "a database with a live write-ahead log", (name) => name.endsWith("-shm"));
  } finally {
    db.close();
  }
});

test("sqlite: an empty file becomes a store; a missing one is created", async () => {
  const empty = fresh();
  writeFileSync(empty, "");
  const a = await openSqliteTaskStore(empty);
  await a.create({});
  a.close();
  assert.is((await openSqliteTaskStore(empty)).close(), undefined);
  const missing = fresh();
  assert.not.ok(existsSync(missing));
  (await openSqliteTaskStore(missing)).close();
  assert.ok(existsSync(missing));
});

test("sqlite: an oversized result fails the task with a message instead of growing the file", async () => {
  const store = await openSqliteTaskStore(fresh(), { maxValueBytes: 4096 });
  const t = await store.create({});
  const after = await store.update(t.taskId, {
    status: "completed",
    result: { content: [{ type: "text", text: "x".repeat(5000) }] },
  });
  assert.is(after?.status, "failed");
  assert.match(after?.error?.message ?? "", /result \(\d+ bytes\) exceeds the task store's limit of 4096 bytes/);
  assert.is(after?.result, undefined);
  store.close();
});

test("sqlite: expired rows are deleted from the file, so it stays bounded", async () => {
  let now = Date.UTC(2026, 0, 1);
  const store = await openSqliteTaskStore(fresh(), {
    now: () => now,
    maxTasks: 3,
    maxTasksPerOwner: 3,
    defaultTtlMs: 10,
    maxTtlMs: 10,
  });
  for (let i = 0; i < 3; i++) await store.create({});
  assert.is(store.size, 3);
  now += 10;
  await store.create({});
  assert.is(store.size, 1, "a full store sweeps expired rows before refusing");
  store.close();
});

test("sqlite: bad limits are refused up front", async () => {
  await openSqliteTaskStore(fresh(), { maxTasks: 0 }).then(
    () => assert.unreachable(),
    (e: Error) => assert.instance(e, RangeError),
  );
});

test.run();
