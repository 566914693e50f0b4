/**
 * Where tasks live (2025-11-25 core tasks,
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks, and the
 * 2026-07-28 tasks extension, https://modelcontextprotocol.io/extensions/tasks/overview): one small
 * interface so a durable or shared store (SQLite, Redis, PostgreSQL) is one file, and the in-memory
 * default, bounded in count and lifetime. The store enforces the status machine: a task that
 * reached `completed`, `failed` or `cancelled` never changes again, whatever a racing handler or a
 * late cancel tries.
 */
import { randomBytes, toBase64Url } from "../bytes.js";
import { MAX_TASKS, TASK_DEFAULT_TTL_MS, TASK_MAX_TTL_MS } from "../limits.js";
import type * as Wire from "../wire/legacy.js";
import { OwnerCounts, ownerShare } from "./owner-counts.js";

/** The task status machine's states, as 2025-11-25 defines them (the 2026 tasks extension reuses them). */
export type TaskStatus = Wire.TaskStatus;

/** Every status a task can have; what a peer sends is checked against it. */
export const STATUSES: ReadonlySet<string> = new Set<TaskStatus>([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Retention from creation, ms; null = until deleted. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** Who may see the task (an authorization subject, a session id); undefined = anyone with the id. */
  readonly owner?: string;
  /** The original request's result (`completed`). */
  readonly result?: { readonly [key: string]: unknown };
  /** The original request's JSON-RPC error (`failed`). */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Outstanding input requests (`input_required`), by key. */
  readonly inputRequests?: { readonly [key: string]: unknown };
}

export type TaskChange = Partial<Pick<TaskRecord, "status" | "statusMessage" | "result" | "error" | "inputRequests">>;

export interface TaskStore {
  /**
   * A new `working` task with an unguessable id; throws TaskLimitError when the store, or the
   * owner's share of it, is full (owner-less tasks share one such share).
   */
  create(init: { ttlMs?: number | null; pollIntervalMs?: number; owner?: string }): Promise<TaskRecord>;
  /** The task, or undefined when unknown, expired, or owned by someone else. */
  get(taskId: string, owner?: string): Promise<TaskRecord | undefined>;
  /** Apply `change` unless the task is terminal (then it is returned unchanged); undefined when gone. */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** Tasks visible to `owner`, oldest first, after `cursor` (a task id); at most `limit`. */
  list(
    owner: string | undefined,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ tasks: TaskRecord[]; nextCursor?: string }>;
  /**
   * Move a task visible to `owner` to `cancelled` in one step unless it is already terminal (then
   * it is returned unchanged); undefined when unknown, expired or someone else's.
   */
  cancel(taskId: string, owner?: string, statusMessage?: string): Promise<TaskRecord | undefined>;
  /** Drop every task past its retention now (stores also do it lazily); how many were dropped. */
  expire(): number | Promise<number>;
  /**
   * Drop every task of `owner` at once, whatever its status; how many were dropped. The server
   * calls it when a connection whose tasks nobody else can reach closes (a Streamable HTTP
   * session without authorization), so they stop counting against the store. Optional: a store
   * without it keeps such tasks until their retention ends.
   */
  release?(owner: string): number | Promise<number>;
}

/**
 * The retention a store grants: the default when none is asked, the cap for an unlimited request,
 * never more than the cap, at least 1 ms (shared by every store so they answer alike).
 */
export function grantTtl(requested: number | null | undefined, defaultTtlMs: number, maxTtlMs: number): number {
  return Math.floor(
    Math.min(requested === undefined ? defaultTtlMs : requested === null ? maxTtlMs : Math.max(1, requested), maxTtlMs),
  );
}

/** 128 random bits: ids act as bearer handles when there is no owner to check. */
export function newTaskId(): string {
  // 128 random bits: ids act as bearer handles when there is no owner to check.
  return toBase64Url(randomBytes(16));
}

/** Which bound refused a creation: the whole store's, or one owner's share of it. */
export type TaskLimit = "maxTasks" | "maxTasksPerOwner";

export class TaskLimitError extends Error {
  override name = "TaskLimitError";

  constructor(
    message: string,
    /** The bound that tripped (the client sees it as `data.limit` of the -32603). */
    readonly limit: TaskLimit = "maxTasks",
    /** Its value, when the store says. */
    readonly max?: number,
  ) {
    super(message);
  }
}

/** The refusals both built-in stores give, worded alike. */
export function storeFull(max: number): TaskLimitError {
  return new TaskLimitError(
    `too many tasks: this server holds at most ${max} at once; retry after some finish and expire`,
    "maxTasks",
    max,
  );
}

export function ownerFull(max: number): TaskLimitError {
  return new TaskLimitError(
    `too many tasks for one caller: this server holds at most ${max} of one caller's tasks at once; retry after some of them expire`,
    "maxTasksPerOwner",
    max,
  );
}

/** The store bounds both built-in stores take, checked alike; `who` names the store in the error. */
export function storeBounds(
  who: string,
  o: Pick<MemoryTaskStoreOptions, "maxTasks" | "maxTasksPerOwner" | "defaultTtlMs" | "maxTtlMs">,
) {
  const maxTasks = o.maxTasks ?? MAX_TASKS;
  const bounds = {
    maxTasks,
    maxTasksPerOwner: o.maxTasksPerOwner ?? ownerShare(maxTasks),
    defaultTtlMs: o.defaultTtlMs ?? TASK_DEFAULT_TTL_MS,
    maxTtlMs: o.maxTtlMs ?? TASK_MAX_TTL_MS,
  };
  if (
    !(bounds.maxTasks >= 1) ||
    !(bounds.maxTasksPerOwner >= 1 && bounds.maxTasksPerOwner <= bounds.maxTasks) ||
    !(bounds.defaultTtlMs >= 1) ||
    !(bounds.maxTtlMs >= bounds.defaultTtlMs)
  ) {
    throw new RangeError(`${who}: maxTasks >= maxTasksPerOwner >= 1 and maxTtlMs >= defaultTtlMs >= 1 are required`);
  }
  return bounds;
}

export interface MemoryTaskStoreOptions {
  /** Most tasks held at once (any status) before creation is refused; default 1000. */
  maxTasks?: number;
  /**
   * Most tasks one owner (an authorization principal, a session; owner-less tasks together)
   * holds at once; default a tenth of maxTasks, so one caller's flood leaves the rest to others.
   */
  maxTasksPerOwner?: number;
  /** Retention when the creator asks for none; default 1 hour. */
  defaultTtlMs?: number;
  /** Upper bound on any requested retention (null/unlimited requests get this too); default 24 hours. */
  maxTtlMs?: number;
  /** How often expired tasks are swept while any are held, ms (default 60 000), so an idle server's memory returns to idle. */
  sweepIntervalMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Lists order by creation; a Map keeps insertion order, so pagination is a walk from the cursor. */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord & { readonly expiresAt: number }>();
  /** Tasks held per owner, expired ones not yet dropped included (like `tasks`). */
  private readonly owners = new OwnerCounts();
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly now: () => number;
  private readonly sweepIntervalMs: number;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: MemoryTaskStoreOptions = {}) {
    ({
      maxTasks: this.maxTasks,
      maxTasksPerOwner: this.maxTasksPerOwner,
      defaultTtlMs: this.defaultTtlMs,
      maxTtlMs: this.maxTtlMs,
    } = storeBounds("MemoryTaskStore", options));
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    if (!(this.sweepIntervalMs >= 1)) throw new RangeError("MemoryTaskStore: sweepIntervalMs >= 1 is required");
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Drop every task past its retention (also done lazily on every call). */
  expire(): number {
    const now = this.now();
    let dropped = 0;
    for (const [id, t] of this.tasks) {
      if (t.expiresAt <= now) {
        this.drop(id, t);
        dropped++;
      }
    }
    return dropped;
  }

  release(owner: string): number {
    let dropped = 0;
    for (const [id, t] of this.tasks) {
      if (t.owner === owner) {
        this.drop(id, t);
        dropped++;
      }
    }
    return dropped;
  }

  async create(init: { ttlMs?: number | null; pollIntervalMs?: number; owner?: string }): Promise<TaskRecord> {
    if (this.owners.get(init.owner) >= this.maxTasksPerOwner || this.tasks.size >= this.maxTasks) this.expire();
    // The owner's own quota first: a caller that filled it is told so, whatever the pool holds.
    if (this.owners.get(init.owner) >= this.maxTasksPerOwner) throw ownerFull(this.maxTasksPerOwner);
    if (this.tasks.size >= this.maxTasks) throw storeFull(this.maxTasks);
    const ttlMs = grantTtl(init.ttlMs, this.defaultTtlMs, this.maxTtlMs);
    const now = this.now();
    const stamp = new Date(now).toISOString();
    const taskId = newTaskId();
    const record = {
      taskId,
      status: "working" as const,
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttlMs,
      expiresAt: now + ttlMs,
      ...(init.pollIntervalMs !== undefined ? { pollIntervalMs: init.pollIntervalMs } : {}),
      ...(init.owner !== undefined ? { owner: init.owner } : {}),
    };
    this.tasks.set(taskId, record);
    this.owners.add(init.owner);
    // Runs only while tasks are held and never keeps the process alive (unref: Node, Bun, Deno;
    // workerd's timers have none and keep nothing alive).
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => {
        this.expire();
        if (this.tasks.size === 0) {
          clearInterval(this.sweeper);
          this.sweeper = undefined;
        }
      }, this.sweepIntervalMs);
      (this.sweeper as { unref?: () => void }).unref?.();
    }
    return strip(record);
  }

  async get(taskId: string, owner?: string): Promise<TaskRecord | undefined> {
    const t = this.live(taskId);
    if (t === undefined || (t.owner !== undefined && t.owner !== owner)) return undefined;
    return strip(t);
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const t = this.live(taskId);
    if (t === undefined) return undefined;
    if (TERMINAL.has(t.status)) return strip(t);
    const next = { ...t, ...change, lastUpdatedAt: new Date(this.now()).toISOString() };
    if (next.status !== "input_required") delete (next as { inputRequests?: unknown }).inputRequests;
    this.tasks.set(taskId, next);
    return strip(next);
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
    this.expire();
    const tasks: TaskRecord[] = [];
    let started = cursor === undefined;
    let more = false;
    for (const [id, t] of this.tasks) {
      if (!started) {
        started = id === cursor;
        continue;
      }
      if (t.owner !== undefined && t.owner !== owner) continue;
      if (tasks.length === limit) {
        more = true;
        break;
      }
      tasks.push(strip(t));
    }
    if (!started) throw new RangeError(`unknown cursor ${JSON.stringify(cursor)}`);
    return more ? { tasks, nextCursor: tasks[tasks.length - 1]!.taskId } : { tasks };
  }

  private live(taskId: string): (TaskRecord & { readonly expiresAt: number }) | undefined {
    const t = this.tasks.get(taskId);
    if (t !== undefined && t.expiresAt <= this.now()) {
      this.drop(taskId, t);
      return undefined;
    }
    return t;
  }

  private drop(taskId: string, t: TaskRecord): void {
    this.tasks.delete(taskId);
    this.owners.remove(t.owner);
  }
}

function strip(t: TaskRecord & { expiresAt?: number }): TaskRecord {
  const { expiresAt: _, ...rest } = t;
  return rest;
}
