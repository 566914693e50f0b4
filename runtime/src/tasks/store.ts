/**
 * Where tasks live (features.md §9-10): one small interface so a durable or shared store (SQLite,
 * Redis, PostgreSQL) is one file, and the in-memory default, bounded in count and lifetime. The
 * store enforces the status machine: a task that reached `completed`, `failed` or `cancelled`
 * never changes again, whatever a racing handler or a late cancel tries.
 */
import { nodeCrypto } from "../node-crypto.js";
import type * as Wire from "../wire/legacy.js";

/** The task status machine's states, as 2025-11-25 defines them (the 2026 tasks extension reuses them). */
export type TaskStatus = Wire.TaskStatus;

/** Every status a task can have; what a peer sends is checked against it. */
export const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(["working", "input_required", "completed", "failed", "cancelled"]);

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
  /** A new `working` task with an unguessable id; throws TaskLimitError when the store is full. */
  create(init: { ttlMs?: number | null; pollIntervalMs?: number; owner?: string }): Promise<TaskRecord>;
  /** The task, or undefined when unknown, expired, or owned by someone else. */
  get(taskId: string, owner?: string): Promise<TaskRecord | undefined>;
  /** Apply `change` unless the task is terminal (then it is returned unchanged); undefined when gone. */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** Tasks visible to `owner`, oldest first, after `cursor` (a task id); at most `limit`. */
  list(owner: string | undefined, cursor: string | undefined, limit: number): Promise<{ tasks: TaskRecord[]; nextCursor?: string }>;
  /**
   * Move a task visible to `owner` to `cancelled` in one step unless it is already terminal (then
   * it is returned unchanged); undefined when unknown, expired or someone else's.
   */
  cancel(taskId: string, owner?: string, statusMessage?: string): Promise<TaskRecord | undefined>;
  /** Drop every task past its retention now (stores also do it lazily); how many were dropped. */
  expire(): number | Promise<number>;
}

/**
 * The retention a store grants: the default when none is asked, the cap for an unlimited request,
 * never more than the cap, at least 1 ms (shared by every store so they answer alike).
 */
export function grantTtl(requested: number | null | undefined, defaultTtlMs: number, maxTtlMs: number): number {
  return Math.floor(Math.min(requested === undefined ? defaultTtlMs : requested === null ? maxTtlMs : Math.max(1, requested), maxTtlMs));
}

/** 128 random bits: ids act as bearer handles when there is no owner to check. */
export function newTaskId(): string {
  // 128 random bits: ids act as bearer handles when there is no owner to check.
  return nodeCrypto().randomBytes(16).toString("base64url");
}

export class TaskLimitError extends Error {
  override name = "TaskLimitError";
}

export interface MemoryTaskStoreOptions {
  /** Most tasks held at once (any status) before creation is refused; default 1000. */
  maxTasks?: number;
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
  private readonly maxTasks: number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly now: () => number;
  private readonly sweepIntervalMs: number;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 1000;
    this.defaultTtlMs = options.defaultTtlMs ?? 3_600_000;
    this.maxTtlMs = options.maxTtlMs ?? 86_400_000;
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    if (!(this.maxTasks >= 1) || !(this.defaultTtlMs >= 1) || !(this.maxTtlMs >= this.defaultTtlMs) || !(this.sweepIntervalMs >= 1)) {
      throw new RangeError("MemoryTaskStore: maxTasks >= 1 and maxTtlMs >= defaultTtlMs >= 1 are required");
    }
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
        this.tasks.delete(id);
        dropped++;
      }
    }
    return dropped;
  }

  async create(init: { ttlMs?: number | null; pollIntervalMs?: number; owner?: string }): Promise<TaskRecord> {
    if (this.tasks.size >= this.maxTasks) this.expire();
    if (this.tasks.size >= this.maxTasks) throw new TaskLimitError(`too many tasks: this server holds at most ${this.maxTasks} at once; retry after some finish and expire`);
    const ttlMs = grantTtl(init.ttlMs, this.defaultTtlMs, this.maxTtlMs);
    const now = this.now();
    const stamp = new Date(now).toISOString();
    const taskId = newTaskId();
    const record = {
      taskId, status: "working" as const, createdAt: stamp, lastUpdatedAt: stamp, ttlMs, expiresAt: now + ttlMs,
      ...(init.pollIntervalMs !== undefined ? { pollIntervalMs: init.pollIntervalMs } : {}),
      ...(init.owner !== undefined ? { owner: init.owner } : {}),
    };
    this.tasks.set(taskId, record);
    // Runs only while tasks are held and never keeps the process alive.
    this.sweeper ??= setInterval(() => {
      this.expire();
      if (this.tasks.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, this.sweepIntervalMs).unref();
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

  async list(owner: string | undefined, cursor: string | undefined, limit: number): Promise<{ tasks: TaskRecord[]; nextCursor?: string }> {
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
      this.tasks.delete(taskId);
      return undefined;
    }
    return t;
  }
}

function strip(t: TaskRecord & { expiresAt?: number }): TaskRecord {
  const { expiresAt: _, ...rest } = t;
  return rest;
}
