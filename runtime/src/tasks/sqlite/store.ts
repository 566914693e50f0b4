/**
 * A TaskStore in one SQLite file that survives a server restart. One server process owns the file
 * (an exclusive SQLite lock, which the kernel drops when the process dies, even by SIGKILL), so
 * every task still `working` or `input_required` when the file is opened was interrupted: its
 * handler ran in the dead process and cannot finish, and it is failed at once with an error that
 * says so. Finished tasks keep their results until their retention ends.
 */
import {
  TERMINAL,
  grantTtl,
  newTaskId,
  ownerFull,
  storeBounds,
  storeFull,
  type TaskChange,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from "../store.js";
import { loadDriver, type SqlDatabase, type SqlStatement, type SqlValue, type SqliteDriver } from "./driver.js";
import { APPLICATION_ID, SCHEMA_VERSION, headerIdentity, refusal, sqlIdentity } from "./inspect.js";

export interface SqliteTaskStoreOptions {
  /** Most tasks held at once (any status) before creation is refused; default 1000. */
  maxTasks?: number;
  /** Most tasks one owner holds at once (owner-less tasks together); default a tenth of maxTasks. */
  maxTasksPerOwner?: number;
  /** Retention when the creator asks for none; default 1 hour. */
  defaultTtlMs?: number;
  /** Upper bound on any requested retention; default 24 hours. */
  maxTtlMs?: number;
  /**
   * Largest JSON of a result, error or set of input requests, bytes (default 1 MiB): a task whose
   * result is larger fails with an error saying so instead of growing the file without bound.
   */
  maxValueBytes?: number;
  /** Which SQLite: default node:sqlite when this Node has it, else better-sqlite3. */
  driver?: SqliteDriver;
  /** Clock, for tests. */
  now?: () => number;
}

/** The error an interrupted task carries (JSON-RPC internal error). */
export const INTERRUPTED = {
  code: -32603,
  message: "Internal error: the server restarted while this task ran; its work was lost",
} as const;

/** Opening the file failed: the message names the file and what to do. */
export class TaskStoreError extends Error {
  override name = "TaskStoreError";
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS mcpgen_tasks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id TEXT NOT NULL UNIQUE,
  owner TEXT,
  status TEXT NOT NULL,
  status_message TEXT,
  created_at TEXT NOT NULL,
  last_updated_at TEXT NOT NULL,
  ttl_ms INTEGER,
  expires_at INTEGER NOT NULL,
  poll_interval_ms INTEGER,
  result TEXT,
  error TEXT,
  input_requests TEXT
);
CREATE INDEX IF NOT EXISTS mcpgen_tasks_expiry ON mcpgen_tasks (expires_at);
CREATE INDEX IF NOT EXISTS mcpgen_tasks_owner ON mcpgen_tasks (owner, expires_at);
`;
const LIVE = "task_id = ? AND expires_at > ?";
const NOT_TERMINAL = `status NOT IN (${[...TERMINAL].map((s) => `'${s}'`).join(", ")})`;

type Row = Record<string, unknown>;

/**
 * Open (creating if needed) the task database at `file`. An existing file is read before anything
 * writes to it: another application's database, a corrupt file or another schema is refused as
 * it was found.
 */
export async function openSqliteTaskStore(
  file: string,
  options: SqliteTaskStoreOptions = {},
): Promise<SqliteTaskStore> {
  let driver: Awaited<ReturnType<typeof loadDriver>>;
  try {
    driver = await loadDriver(options.driver);
  } catch (e) {
    throw new TaskStoreError(`cannot open task database ${file}: ${(e as Error).message}`);
  }
  storeBounds("SqliteTaskStore", options);
  let db: SqlDatabase | undefined;
  try {
    inspect(file, driver.open);
    db = driver.open(file);
    return new SqliteTaskStore(db, file, driver.driver, options);
  } catch (e) {
    try {
      db?.close();
    } catch {
      // The open error is the one to report.
    }
    throw e instanceof TaskStoreError || e instanceof RangeError
      ? e
      : new TaskStoreError(`cannot open task database ${file}: ${explain(e as Error)}`);
  }
}

/** Refuses `file` unless it is absent, empty or the store's own, without writing to it. */
function inspect(file: string, open: (file: string, readonly: boolean) => SqlDatabase): void {
  let id = headerIdentity(file);
  if (id === "absent") return;
  if (id === "not sqlite")
    throw new TaskStoreError(
      `cannot open task database ${file}: it has no SQLite header: the file is not an intact SQLite database; move it away to start with an empty store (it was left untouched)`,
    );
  if (id === "ask sqlite") {
    const reader = open(file, true);
    try {
      id = sqlIdentity(reader);
    } finally {
      reader.close();
    }
  }
  const why = refusal(file, id);
  if (why !== undefined) throw new TaskStoreError(why);
}

function explain(e: Error): string {
  const m = e.message;
  if (/database is locked|SQLITE_BUSY/i.test(m))
    return `${m}: another process holds it (one server process per file; several instances need a shared store such as Redis or PostgreSQL)`;
  if (/not a database|malformed|corrupt|SQLITE_NOTADB|SQLITE_CORRUPT/i.test(m))
    return `${m}: the file is not an intact SQLite database; move it away to start with an empty store`;
  return m;
}

export class SqliteTaskStore implements TaskStore {
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly maxValueBytes: number;
  private readonly now: () => number;
  private readonly statements = new Map<string, SqlStatement>();
  /** Tasks failed on open because the previous process died while they ran. */
  readonly interrupted: number;
  /** Rows in the table: this process is the only writer (the lock), so counting once is enough. */
  private rows = 0;

  constructor(
    private readonly db: SqlDatabase,
    readonly file: string,
    readonly driver: SqliteDriver,
    options: SqliteTaskStoreOptions = {},
  ) {
    ({
      maxTasks: this.maxTasks,
      maxTasksPerOwner: this.maxTasksPerOwner,
      defaultTtlMs: this.defaultTtlMs,
      maxTtlMs: this.maxTtlMs,
    } = storeBounds("SqliteTaskStore", options));
    this.maxValueBytes = options.maxValueBytes ?? 1 << 20;
    this.now = options.now ?? Date.now;
    if (!(this.maxValueBytes >= 1024)) throw new RangeError("SqliteTaskStore: maxValueBytes >= 1024 is required");
    // Held until close: a second server on the same file fails here instead of corrupting the
    // first one's view of which tasks are running.
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0");
    // Read before anything is written (the switch to WAL rewrites the header): a database that
    // is not ours is refused as it was found, also when the constructor is given it directly.
    const why = refusal(file, sqlIdentity(db));
    if (why !== undefined) throw new TaskStoreError(why);
    const check = this.one("PRAGMA quick_check").quick_check;
    if (check !== "ok")
      throw new TaskStoreError(`${file} is corrupt (${String(check)}); move it away to start with an empty store`);
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(`${SCHEMA} PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`);
      const stamp = new Date(this.now()).toISOString();
      this.interrupted = Number(
        this.sql(
          `UPDATE mcpgen_tasks SET status = 'failed', status_message = ?, error = ?, input_requests = NULL, last_updated_at = ? WHERE ${NOT_TERMINAL}`,
        ).run(INTERRUPTED.message, JSON.stringify(INTERRUPTED), stamp).changes,
      );
      this.sql("DELETE FROM mcpgen_tasks WHERE expires_at <= ?").run(this.now());
      this.rows = this.one("SELECT count(*) AS n FROM mcpgen_tasks").n as number;
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Tasks held (any status, expired ones not yet swept included). */
  get size(): number {
    return this.rows;
  }

  async expire(): Promise<number> {
    const dropped = Number(this.sql("DELETE FROM mcpgen_tasks WHERE expires_at <= ?").run(this.now()).changes);
    this.rows -= dropped;
    return dropped;
  }

  async release(owner: string): Promise<number> {
    const dropped = Number(this.sql("DELETE FROM mcpgen_tasks WHERE owner = ?").run(owner).changes);
    this.rows -= dropped;
    return dropped;
  }

  async create(init: { ttlMs?: number | null; pollIntervalMs?: number; owner?: string }): Promise<TaskRecord> {
    // Live tasks only (the owner index makes it a range count), so no sweep is needed first.
    const owned = this.sql("SELECT count(*) AS n FROM mcpgen_tasks WHERE owner IS ? AND expires_at > ?").get(
      init.owner ?? null,
      this.now(),
    )!.n as number;
    if (owned >= this.maxTasksPerOwner) throw ownerFull(this.maxTasksPerOwner);
    if (this.size >= this.maxTasks) await this.expire();
    if (this.size >= this.maxTasks) throw storeFull(this.maxTasks);
    const now = this.now();
    const ttlMs = grantTtl(init.ttlMs, this.defaultTtlMs, this.maxTtlMs);
    const stamp = new Date(now).toISOString();
    const taskId = newTaskId();
    this.sql(
      "INSERT INTO mcpgen_tasks (task_id, owner, status, created_at, last_updated_at, ttl_ms, expires_at, poll_interval_ms) VALUES (?, ?, 'working', ?, ?, ?, ?, ?)",
    ).run(taskId, init.owner ?? null, stamp, stamp, ttlMs, now + ttlMs, init.pollIntervalMs ?? null);
    this.rows++;
    return this.read(taskId)!;
  }

  async get(taskId: string, owner?: string): Promise<TaskRecord | undefined> {
    const t = this.read(taskId);
    return t === undefined || (t.owner !== undefined && t.owner !== owner) ? undefined : t;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const t = this.read(taskId);
    if (t === undefined || TERMINAL.has(t.status)) return t;
    const next = { ...t, ...this.bounded(change) };
    const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
    // Guarded again in SQL: a terminal state written meanwhile is never overwritten.
    this.sql(
      `UPDATE mcpgen_tasks SET status = ?, status_message = ?, result = ?, error = ?, input_requests = ?, last_updated_at = ? WHERE ${LIVE} AND ${NOT_TERMINAL}`,
    ).run(
      next.status,
      next.statusMessage ?? null,
      json(next.result),
      json(next.error),
      next.status === "input_required" ? json(next.inputRequests) : null,
      new Date(this.now()).toISOString(),
      taskId,
      this.now(),
    );
    return this.read(taskId);
  }

  async cancel(taskId: string, owner?: string, statusMessage = "cancelled"): Promise<TaskRecord | undefined> {
    const t = await this.get(taskId, owner);
    if (t === undefined || TERMINAL.has(t.status)) return t;
    return this.update(taskId, { status: "cancelled", statusMessage });
  }

  async list(
    owner: string | undefined,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ tasks: TaskRecord[]; nextCursor?: string }> {
    await this.expire();
    let after = 0;
    if (cursor !== undefined) {
      const row = this.sql("SELECT seq FROM mcpgen_tasks WHERE task_id = ?").get(cursor);
      if (row === undefined) throw new RangeError(`unknown cursor ${JSON.stringify(cursor)}`);
      after = row.seq as number;
    }
    const rows = this.sql(
      "SELECT * FROM mcpgen_tasks WHERE seq > ? AND expires_at > ? AND (owner IS NULL OR owner = ?) ORDER BY seq LIMIT ?",
    ).all(after, this.now(), owner ?? null, limit + 1);
    const tasks = rows.slice(0, limit).map(record);
    return rows.length > limit ? { tasks, nextCursor: tasks[tasks.length - 1]!.taskId } : { tasks };
  }

  /** Release the file (and its lock). */
  close(): void {
    this.statements.clear();
    this.db.close();
  }

  /** A change whose JSON values fit the bound; an oversized one becomes a failure that says why. */
  private bounded(change: TaskChange): TaskChange {
    for (const key of ["result", "error", "inputRequests"] as const) {
      const v = change[key];
      if (v === undefined) continue;
      const bytes = Buffer.byteLength(JSON.stringify(v));
      if (bytes > this.maxValueBytes) {
        const message = `Internal error: the task's ${key} (${bytes} bytes) exceeds the task store's limit of ${this.maxValueBytes} bytes`;
        return { status: "failed", statusMessage: message, error: { code: -32603, message } };
      }
    }
    return change;
  }

  private read(taskId: string): TaskRecord | undefined {
    const row = this.sql(`SELECT * FROM mcpgen_tasks WHERE ${LIVE}`).get(taskId, this.now());
    return row === undefined ? undefined : record(row);
  }

  private one(sql: string): Row {
    return this.db.prepare(sql).get() ?? {};
  }

  private sql(text: string): {
    run(...p: SqlValue[]): { changes: number | bigint };
    get(...p: SqlValue[]): Row | undefined;
    all(...p: SqlValue[]): Row[];
  } {
    let s = this.statements.get(text);
    if (s === undefined) this.statements.set(text, (s = this.db.prepare(text)));
    return s;
  }
}

function record(row: Row): TaskRecord {
  const parse = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : undefined);
  const out: { -readonly [K in keyof TaskRecord]: TaskRecord[K] } = {
    taskId: row.task_id as string,
    status: row.status as TaskStatus,
    createdAt: row.created_at as string,
    lastUpdatedAt: row.last_updated_at as string,
    ttlMs: row.ttl_ms as number | null,
  };
  if (row.status_message !== null) out.statusMessage = row.status_message as string;
  if (row.poll_interval_ms !== null) out.pollIntervalMs = row.poll_interval_ms as number;
  if (row.owner !== null) out.owner = row.owner as string;
  if (row.result !== null) out.result = parse(row.result);
  if (row.error !== null) out.error = parse(row.error);
  if (row.input_requests !== null) out.inputRequests = parse(row.input_requests);
  return out;
}
