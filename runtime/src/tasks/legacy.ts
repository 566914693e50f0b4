/**
 * 2025-11-25 core tasks on the server
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks): a `tools/call`
 * carrying `params.task` answers `CreateTaskResult` at once and its handler runs on; the client
 * follows with `tasks/get`, `tasks/result` (blocks until the task is terminal, then answers exactly
 * what the call would have), `tasks/list` and `tasks/cancel`, and hears
 * `notifications/tasks/status`. A handler that asks the client for something (`ctx.client.elicit`,
 * `createMessage`, ...) parks its task in `input_required`; the request goes out, tagged with
 * `related-task`, on the next `tasks/result` the client sends for the task (over HTTP: on that
 * request's SSE stream), and the task goes back to `working` once it is answered.
 */
import { ErrorCode } from "../jsonrpc.js";
import { ConnectionClosedError, McpError } from "../errors.js";
import type { Params, ProgressOptions, RequestContext, RequestOptions, Result } from "../session/types.js";
import { TERMINAL, type TaskChange, type TaskRecord, type TaskStore } from "./store.js";
import {
  afterRetention,
  creationError,
  failureOf,
  ownerQuota,
  retentionBounds,
  serverTtl,
  taskIdParam,
  tooManyRunning,
  unknownTask,
  type Retention,
} from "./shared.js";
import { OwnerCounts } from "./owner-counts.js";
import { MAX_RUNNING_TASKS } from "../limits.js";
import { afterIo } from "../after-io.js";

export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** `capabilities.tasks` of a 2025-11-25 server whose tools may run as tasks. */
export function legacyTaskCapabilities(list: boolean): Record<string, unknown> {
  return { ...(list ? { list: {} } : {}), cancel: {}, requests: { tools: { call: {} } } };
}

export interface LegacyTasksOptions {
  store: TaskStore;
  /** Suggested polling interval sent with every task (ms; default 500). */
  pollIntervalMs?: number;
  /** Most tasks whose handlers run at once (default 1000); more are refused with -32603. */
  maxRunning?: number;
  /** Most of them one owner runs at once (default a tenth of maxRunning); more are refused with -32603. */
  maxRunningPerOwner?: number;
  /** Retention of a task whose caller asks for none, ms (default: the store's). */
  defaultTtlMs?: number;
  /** Longest retention granted, whatever the caller asks, ms (default: the store's); the store may shorten it further. */
  maxTtlMs?: number;
  /** Page size of `tasks/list` (default 50). */
  pageSize?: number;
  report: (e: Error) => void;
}

/** Where a task came from: who owns it and how to reach the connection that created it. */
export interface TaskOrigin {
  /** The authorization principal, else the connection's own id; undefined = the id is the only key. */
  readonly owner: string | undefined;
  /** Send a notification to the creating connection (status changes, progress, log messages). */
  notify(method: string, params: Params): Promise<void>;
}

/** What a task's handler runs with: the task's own request context and a status-message reporter. */
export type TaskBody = (rc: RequestContext, setStatusMessage: (message: string) => Promise<void>) => Promise<Result>;

/** A task whose handler runs in this process (never persisted: a restarted server has none). */
interface Run {
  readonly controller: AbortController;
  readonly origin: TaskOrigin;
  /** Resolves once the task's end is recorded, or the run was stopped. */
  readonly ended: Promise<void>;
  end(): void;
  /** Pending `tasks/result` requests for this task, newest last: the channel for input requests. */
  readonly channels: RequestContext[];
  /** Input requests waiting for a channel. */
  readonly waiting: (() => void)[];
  /** Input requests sent or waiting, not yet answered. */
  asking: number;
  /** Cancels the timer that stops the run when its task's retention ends. */
  expiry?: () => void;
}

/** The 2025-11-25 wire Task: `ttl` and `pollInterval` (the 2026 extension says `ttlMs`, `pollIntervalMs`). */
export function legacyTask(t: TaskRecord): Result {
  const out: Result = {
    taskId: t.taskId,
    status: t.status,
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttl: t.ttlMs,
  };
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
  if (t.pollIntervalMs !== undefined) out.pollInterval = t.pollIntervalMs;
  return out;
}

function related(params: Params | undefined, taskId: string): Params {
  const meta = (params?._meta ?? {}) as Params;
  return { ...params, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
}

/** A summary of an `isError` result for the task's statusMessage (its first text block, bounded). */
function errorSummary(result: Result): string {
  const content = result.content as { type?: string; text?: string }[] | undefined;
  const text = Array.isArray(content)
    ? content.find((c) => c?.type === "text" && typeof c.text === "string")?.text
    : undefined;
  return text === undefined ? "the tool reported an error" : text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export class LegacyTasks {
  private readonly running = new Map<string, Run>();
  /** Runs per owner, those being created included. */
  private readonly owners = new OwnerCounts();
  private readonly pollIntervalMs: number;
  private readonly maxRunning: number;
  private readonly maxRunningPerOwner: number;
  private readonly retention: Retention | undefined;
  private readonly pageSize: number;

  constructor(private readonly options: LegacyTasksOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.maxRunning = options.maxRunning ?? MAX_RUNNING_TASKS;
    this.maxRunningPerOwner = ownerQuota(
      "LegacyTasks",
      "maxRunningPerOwner",
      this.maxRunning,
      options.maxRunningPerOwner,
    );
    this.retention = retentionBounds("LegacyTasks", options);
    this.pageSize = options.pageSize ?? 50;
  }

  /** Task handlers running in this process (for tests and metrics). */
  get size(): number {
    return this.running.size;
  }

  /**
   * A task-augmented call: stores the task, answers `CreateTaskResult`, and runs `body` after the
   * answer is on its way. `params.task.ttl` is the requested retention; the store may shorten it.
   */
  async call(params: Params, rc: RequestContext, origin: TaskOrigin, body: TaskBody): Promise<Result> {
    const ttl = (params.task as { ttl?: unknown }).ttl;
    if (ttl !== undefined && !(Number.isSafeInteger(ttl) && (ttl as number) >= 0)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: task.ttl must be a non-negative integer (milliseconds)",
        { pointer: "/params/task/ttl" },
      );
    }
    if (this.running.size >= this.maxRunning) throw tooManyRunning(this.maxRunning);
    const owner = origin.owner;
    if (this.owners.get(owner) >= this.maxRunningPerOwner)
      throw tooManyRunning(this.maxRunningPerOwner, "maxRunningPerOwner");
    const ttlMs = serverTtl(ttl as number | undefined, this.retention);
    // Counted before the store answers, so concurrent calls of one owner cannot all pass the check.
    this.owners.add(owner);
    let t: TaskRecord;
    try {
      t = await this.options.store.create({
        pollIntervalMs: this.pollIntervalMs,
        ...(ttlMs !== undefined ? { ttlMs } : {}),
        ...(owner !== undefined ? { owner } : {}),
      });
    } catch (e) {
      this.owners.remove(owner);
      throw creationError(e);
    }
    let end!: () => void;
    const ended = new Promise<void>((r) => (end = r));
    const run: Run = { controller: new AbortController(), origin, ended, end, channels: [], waiting: [], asking: 0 };
    const id = t.taskId;
    this.running.set(id, run);
    if (t.ttlMs !== null) {
      // Past its retention the task is gone: stop its handler, and let the store drop the record
      // (a get on an expired task deletes it in the memory store). A run that ends first cancels
      // the timer, which holds its connection: a day-long retention must not keep a closed
      // session in memory, and the store's own expiry drops a finished task's record.
      run.expiry = afterRetention(t.ttlMs + 1, () => {
        this.stop(id, new Error("task expired"));
        void this.options.store.get(id, origin.owner).catch((e: Error) => this.options.report(e));
      });
    }
    // The handler starts after CreateTaskResult is sent: its first status change follows it.
    afterIo(() => void this.execute(id, run, rc, body), undefined);
    return { task: legacyTask(t) };
  }

  async get(params: Params | undefined, owner: string | undefined): Promise<Result> {
    return legacyTask(await this.find(taskIdParam(params), owner));
  }

  /** Blocks until the task is terminal, serving its input requests meanwhile; then its outcome. */
  async result(params: Params | undefined, rc: RequestContext, owner: string | undefined): Promise<Result> {
    const id = taskIdParam(params);
    let t = await this.find(id, owner);
    if (!TERMINAL.has(t.status)) {
      const run = this.running.get(id);
      if (run !== undefined) await this.serve(run, rc);
      else await this.poll(id, owner, rc.signal);
      t = await this.find(id, owner);
    }
    if (t.result !== undefined) {
      const meta = (t.result._meta ?? {}) as Params;
      return { ...t.result, _meta: { ...meta, [RELATED_TASK]: { taskId: id } } };
    }
    if (t.error !== undefined) throw new McpError(t.error.code, t.error.message, t.error.data);
    // Cancelled (or stopped without an outcome): the original request has no result to give.
    throw new McpError(
      ErrorCode.InternalError,
      `Internal error: task ${JSON.stringify(id)} was ${t.status} before it produced a result`,
      { taskId: id, status: t.status },
    );
  }

  async list(params: Params | undefined, owner: string | undefined): Promise<Result> {
    const cursor = params?.cursor;
    if (cursor !== undefined && (typeof cursor !== "string" || cursor.length > 256)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: cursor must be a string from an earlier tasks/list",
        { pointer: "/params/cursor" },
      );
    }
    const tasks: Result[] = [];
    let next = cursor as string | undefined;
    // Only the caller's own tasks: tasks without an owner (2026 ones, or stateless ones) are reachable by id only.
    // A page is filled from at most a few store pages, so one request does bounded work.
    for (let round = 0; round < 4 && tasks.length < this.pageSize; round++) {
      let page: { tasks: TaskRecord[]; nextCursor?: string };
      try {
        page = await this.options.store.list(owner, next, this.pageSize - tasks.length);
      } catch (e) {
        if (e instanceof RangeError)
          throw new McpError(
            ErrorCode.InvalidParams,
            `Invalid params: unknown tasks/list cursor ${JSON.stringify(cursor)}`,
            { pointer: "/params/cursor" },
          );
        throw e;
      }
      for (const t of page.tasks) if (owner !== undefined && t.owner === owner) tasks.push(legacyTask(t));
      next = page.nextCursor;
      if (next === undefined) break;
    }
    return next === undefined ? { tasks } : { tasks, nextCursor: next };
  }

  async cancel(params: Params | undefined, owner: string | undefined): Promise<Result> {
    const id = taskIdParam(params);
    const t = await this.find(id, owner);
    const terminal = () =>
      new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: task ${JSON.stringify(id)} is already ${t.status} and cannot be cancelled`,
        { taskId: id, status: t.status },
      );
    if (TERMINAL.has(t.status)) throw terminal();
    const after = await this.options.store.update(id, {
      status: "cancelled",
      statusMessage: "cancelled by the client",
    });
    if (after === undefined) throw unknownTask(id);
    // The handler finished first: the store kept its outcome.
    if (after.status !== "cancelled")
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: task ${JSON.stringify(id)} is already ${after.status} and cannot be cancelled`,
        { taskId: id, status: after.status },
      );
    const run = this.running.get(id);
    this.stop(id, new Error("task cancelled"));
    if (run !== undefined) this.announce(run.origin, after);
    return legacyTask(after);
  }

  /** Stop every handler (the server is closing); their tasks stay in the store as they are. */
  close(): void {
    // oxlint-disable-next-line unicorn/no-useless-spread -- the body removes entries: iterate a snapshot
    for (const id of [...this.running.keys()]) this.stop(id, new Error("server closing"));
  }

  /**
   * `owner` is gone for good (the connection it names closed): stop its handlers and drop its
   * tasks from the store, so nothing keeps counting them against anyone.
   */
  async release(owner: string): Promise<void> {
    for (const [id, run] of this.running)
      if (run.origin.owner === owner) this.stop(id, new Error("the task's connection closed"));
    await this.options.store.release?.(owner);
  }

  /**
   * The caller's task. A requestor that has an owner sees only its own tasks: an owner-less task
   * (a 2026-07-28 one without authorization) is not listed for it, so tasks/get must not find it either.
   */
  private async find(id: string, owner: string | undefined): Promise<TaskRecord> {
    const t = await this.options.store.get(id, owner);
    if (t === undefined || (owner !== undefined && t.owner !== owner)) throw unknownTask(id);
    return t;
  }

  private stop(id: string, reason: Error): void {
    const run = this.running.get(id);
    if (run === undefined) return;
    this.forget(id, run);
    run.controller.abort(reason);
    for (const w of run.waiting.splice(0)) w();
    run.end();
  }

  private forget(id: string, run: Run): void {
    this.running.delete(id);
    this.owners.remove(run.origin.owner);
    run.expiry?.();
  }

  /** A tasks/result waits here, lending its request to the task's input requests meanwhile. */
  private async serve(run: Run, rc: RequestContext): Promise<void> {
    run.channels.push(rc);
    for (const w of run.waiting.splice(0)) w();
    let onabort!: () => void;
    const aborted = new Promise<void>((r) => {
      onabort = () => r();
      if (rc.signal.aborted) r();
      else rc.signal.addEventListener("abort", onabort, { once: true });
    });
    try {
      await Promise.race([run.ended, aborted]);
    } finally {
      rc.signal.removeEventListener("abort", onabort);
      const i = run.channels.indexOf(rc);
      if (i >= 0) run.channels.splice(i, 1);
    }
  }

  /** No handler here (a restarted server, or another instance on a shared store runs it): watch the store. */
  private async poll(id: string, owner: string | undefined, signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) return;
      const t = await this.options.store.get(id, owner);
      if (t === undefined || TERMINAL.has(t.status)) return;
      await new Promise<void>((r) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          r();
        }
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }

  private async change(id: string, run: Run, change: TaskChange): Promise<void> {
    const t = await this.options.store.update(id, change);
    if (t !== undefined) this.announce(run.origin, t);
  }

  /** `notifications/tasks/status` to the creating connection (optional in the spec; clients still poll). */
  private announce(origin: TaskOrigin, t: TaskRecord): void {
    origin.notify("notifications/tasks/status", legacyTask(t)).catch((e: unknown) => {
      if (!(e instanceof ConnectionClosedError)) this.options.report(e instanceof Error ? e : new Error(String(e)));
    });
  }

  private async execute(id: string, run: Run, rc: RequestContext, body: TaskBody): Promise<void> {
    if (run.controller.signal.aborted) return;
    let outcome: { result: Result } | { error: unknown };
    try {
      outcome = { result: await body(this.taskContext(id, run, rc), (m) => this.statusMessage(id, run, m)) };
    } catch (e) {
      outcome = { error: e };
    }
    // Cancelled, expired or shut down: the task already says so, or is gone.
    if (run.controller.signal.aborted) return;
    this.forget(id, run);
    try {
      if ("result" in outcome) {
        const failed = outcome.result.isError === true;
        await this.change(
          id,
          run,
          failed
            ? { status: "failed", result: outcome.result, statusMessage: errorSummary(outcome.result) }
            : { status: "completed", result: outcome.result },
        );
      } else {
        const error = failureOf(outcome.error, this.options.report);
        await this.change(id, run, { status: "failed", error, statusMessage: error.message });
      }
    } catch (e) {
      this.options.report(e instanceof Error ? e : new Error(String(e)));
    } finally {
      run.end();
    }
  }

  private async statusMessage(id: string, run: Run, message: string): Promise<void> {
    if (typeof message !== "string") throw new TypeError("setStatusMessage: the message must be a string");
    if (run.controller.signal.aborted || !this.running.has(id)) return;
    await this.change(id, run, { statusMessage: message.length > 1000 ? `${message.slice(0, 1000)}…` : message });
  }

  /**
   * The task's stand-in for its `tools/call`: the task's signal; progress on the call's token for
   * as long as the task runs
   * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-progress-notifications);
   * log messages to the creating connection; requests to the client through `tasks/result`
   * (input_required).
   */
  private taskContext(id: string, run: Run, rc: RequestContext): RequestContext {
    const signal = run.controller.signal;
    const token = rc.meta?.progressToken;
    let last = -Infinity;
    return {
      requestId: rc.requestId,
      method: rc.method,
      meta: rc.meta,
      signal,
      transportContext: rc.transportContext,
      get cancelled() {
        return signal.aborted;
      },
      sendProgress: async (progress: number, options?: ProgressOptions) => {
        if (signal.aborted || (typeof token !== "string" && typeof token !== "number")) return;
        if (!(progress > last)) throw new RangeError(`Progress must increase: ${progress} after ${last} (task ${id})`);
        last = progress;
        const params: Params = { progressToken: token, progress };
        if (options?.total !== undefined) params.total = options.total;
        if (options?.message !== undefined) params.message = options.message;
        await run.origin.notify("notifications/progress", params).catch(() => {});
      },
      sendNotification: async (method: string, params?: Params) => {
        if (signal.aborted) return;
        await run.origin.notify(method, related(params, id));
      },
      sendRequest: <R extends Result = Result>(method: string, params?: Params, options?: RequestOptions) =>
        this.ask<R>(id, run, method, related(params, id), options),
    };
  }

  private async ask<R extends Result>(
    id: string,
    run: Run,
    method: string,
    params: Params,
    options: RequestOptions | undefined,
  ): Promise<R> {
    const signal = run.controller.signal;
    run.asking++;
    try {
      if (run.asking === 1) await this.change(id, run, { status: "input_required" });
      for (;;) {
        if (signal.aborted) throw signal.reason;
        const channel = run.channels[run.channels.length - 1];
        if (channel !== undefined && !channel.signal.aborted) {
          // Waits as long as the person answering takes, up to the task's retention.
          return await channel.sendRequest<R>(method, params, { timeout: 0, ...options });
        }
        await new Promise<void>((r) => run.waiting.push(r));
      }
    } finally {
      run.asking--;
      if (run.asking === 0 && !signal.aborted)
        await this.change(id, run, { status: "working" }).catch((e: Error) => this.options.report(e));
    }
  }
}
