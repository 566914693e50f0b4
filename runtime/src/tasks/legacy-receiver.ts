/**
 * The client as task receiver in the 2025-11-25 core tasks
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks): a server may send
 * `sampling/createMessage` or `elicitation/create` with `params.task` when the client declared
 * `tasks.requests.sampling.createMessage` / `tasks.requests.elicitation.create`. The client then
 * answers a CreateTaskResult at once, runs its ordinary handler in the background, and serves
 * `tasks/get`, `tasks/result` (blocking until terminal), `tasks/list` and `tasks/cancel` from a
 * small TaskStore, sending `notifications/tasks/status` on every change.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { describe } from "../describe.js";
import type { Params, RequestContext, RequestHandler, Result } from "../session/types.js";
import { MemoryTaskStore, TaskLimitError, TERMINAL, type TaskRecord, type TaskStore } from "./store.js";
import { RELATED_TASK } from "./legacy-client.js";

/** Page size of `tasks/list`. */
const PAGE = 50;
/** Suggested to the server in every Task. */
const POLL_INTERVAL_MS = 500;

export interface TaskReceiverOptions {
  /** Where the client keeps its tasks (default: a MemoryTaskStore of 100 tasks, 1 h each). */
  store?: TaskStore;
}

function wireTask(t: TaskRecord): Result {
  return {
    taskId: t.taskId,
    status: t.status,
    ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttl: t.ttlMs,
    ...(t.pollIntervalMs !== undefined ? { pollInterval: t.pollIntervalMs } : {}),
  };
}

const unknownTask = (id: unknown) =>
  new McpError(ErrorCode.InvalidParams, `Invalid params: unknown or expired task ${describe(id)}`);

export class LegacyTaskReceiver {
  private readonly store: TaskStore;
  /** Runs of this connection: their abort switches and whoever waits in `tasks/result`. */
  private readonly runs = new Map<string, { abort: AbortController; waiters: Array<() => void> }>();

  constructor(
    private readonly notify: (method: string, params: Params) => Promise<void>,
    options: TaskReceiverOptions = {},
  ) {
    this.store = options.store ?? new MemoryTaskStore({ maxTasks: 100 });
  }

  /** `handler` as a task-capable one: with `params.task` it becomes a task, without it runs as before. */
  wrap(handler: RequestHandler<any, any>): RequestHandler<any, any> {
    return (params: Params, ctx: RequestContext) => {
      const task = params?.task;
      if (typeof task !== "object" || task === null) return handler(params, ctx);
      return this.start(params, ctx, handler, (task as { ttl?: unknown }).ttl);
    };
  }

  private async start(
    params: Params,
    ctx: RequestContext,
    handler: RequestHandler<any, any>,
    ttl: unknown,
  ): Promise<Result> {
    let record: TaskRecord;
    try {
      record = await this.store.create({
        ttlMs: typeof ttl === "number" && ttl > 0 ? ttl : undefined,
        pollIntervalMs: POLL_INTERVAL_MS,
      });
    } catch (e) {
      if (e instanceof TaskLimitError) throw new McpError(ErrorCode.InternalError, e.message);
      throw e;
    }
    const taskId = record.taskId;
    const abort = new AbortController();
    const run = { abort, waiters: [] as Array<() => void> };
    this.runs.set(taskId, run);
    const { task: _, ...rest } = params;
    const meta = { ...(rest._meta as Params | undefined), [RELATED_TASK]: { taskId } };
    // The handler sees a context whose signal is the task's (cancelled by tasks/cancel, not by the
    // original request's end) and whose requests to the server carry related-task.
    const taskCtx: RequestContext = Object.create(ctx, {
      signal: { get: () => abort.signal },
      cancelled: { get: () => abort.signal.aborted },
      meta: { value: meta },
    });
    void (async () => {
      let change: Parameters<TaskStore["update"]>[1];
      try {
        const result = (await handler({ ...rest, _meta: meta }, taskCtx)) as Result;
        change = { status: "completed", result };
      } catch (e) {
        const err =
          e instanceof McpError ? e : new McpError(ErrorCode.InternalError, e instanceof Error ? e.message : String(e));
        change = {
          status: "failed",
          statusMessage: err.message,
          error: { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) },
        };
      }
      await this.changed(taskId, await this.store.update(taskId, change));
    })();
    return { task: wireTask(record) };
  }

  private async changed(taskId: string, t: TaskRecord | undefined): Promise<void> {
    const run = this.runs.get(taskId);
    if (t === undefined || TERMINAL.has(t.status)) {
      this.runs.delete(taskId);
      for (const w of run?.waiters ?? []) w();
    }
    if (t !== undefined) await this.notify("notifications/tasks/status", wireTask(t) as Params).catch(() => undefined);
  }

  private async find(params: Params | undefined): Promise<TaskRecord> {
    const id = params?.taskId;
    const t = typeof id === "string" ? await this.store.get(id) : undefined;
    if (t === undefined) throw unknownTask(id);
    return t;
  }

  /** The `tasks/*` request handlers this receiver serves. */
  handlers(): { [method: string]: RequestHandler<any, any> } {
    return {
      "tasks/get": async (p: Params) => wireTask(await this.find(p)),
      "tasks/result": async (p: Params, ctx: RequestContext) => {
        let t = await this.find(p);
        while (!TERMINAL.has(t.status)) {
          const run = this.runs.get(t.taskId);
          if (run === undefined) break;
          await new Promise<void>((resolve, reject) => {
            const onabort = () => reject(ctx.signal.reason);
            run.waiters.push(() => {
              ctx.signal.removeEventListener("abort", onabort);
              resolve();
            });
            ctx.signal.addEventListener("abort", onabort, { once: true });
          });
          t = await this.find(p);
        }
        const related = { [RELATED_TASK]: { taskId: t.taskId } };
        if (t.status === "completed" && t.result !== undefined)
          return { ...t.result, _meta: { ...(t.result._meta as Params | undefined), ...related } };
        if (t.status === "failed" && t.error !== undefined)
          throw new McpError(t.error.code, t.error.message, t.error.data);
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: task ${describe(t.taskId)} was ${t.status} and has no result`,
        );
      },
      "tasks/list": async (p: Params | undefined) => {
        const cursor = p?.cursor;
        if (cursor !== undefined && typeof cursor !== "string")
          throw new McpError(ErrorCode.InvalidParams, "Invalid params: cursor must be a string");
        let page: Awaited<ReturnType<TaskStore["list"]>>;
        try {
          page = await this.store.list(undefined, cursor, PAGE);
        } catch (e) {
          if (e instanceof RangeError)
            throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown cursor ${describe(cursor)}`);
          throw e;
        }
        return {
          tasks: page.tasks.map(wireTask),
          ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
        };
      },
      "tasks/cancel": async (p: Params) => {
        const t = await this.find(p);
        if (TERMINAL.has(t.status))
          throw new McpError(
            ErrorCode.InvalidParams,
            `Invalid params: task ${describe(t.taskId)} is already ${t.status}`,
          );
        const run = this.runs.get(t.taskId);
        const after = await this.store.update(t.taskId, {
          status: "cancelled",
          statusMessage: "cancelled by the server",
        });
        run?.abort.abort(new McpError(ErrorCode.InternalError, "task cancelled"));
        await this.changed(t.taskId, after);
        return wireTask(after ?? t);
      },
    };
  }
}
