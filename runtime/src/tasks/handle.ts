/**
 * A typed handle on a task the client started (or reattached to by id), in either era: for
 * callers who detach from a long-running tool call and resume later, maybe in another process.
 * The era-specific wire work sits behind TaskBackend; the handle adds the typed result mapping.
 */
import type { RequestOptions, Result } from "../session/types.js";
import { TaskCancelledError } from "../lifecycle/modern/client-tasks.js";
import { legacyTaskInfo, statusChanges, taskInfo, type StatusSource, type TaskInfo } from "./legacy-client.js";

export type TaskWaitOptions = Pick<RequestOptions, "signal" | "timeout">;

/** A task as the caller sees it; `R` is what the tool's ordinary call resolves to. */
export interface TaskHandle<R> extends AsyncIterable<TaskInfo> {
  /**
   * The server's task id (keep it to `resume` later). Undefined when a 2026-07-28 server answered
   * the call at once without creating a task: `result()` then resolves to that answer.
   */
  readonly taskId: string | undefined;
  /** The task now (`tasks/get`). */
  status(options?: TaskWaitOptions): Promise<TaskInfo>;
  /**
   * Waits until the task is terminal and resolves to the tool's result (isError results
   * included); a JSON-RPC error is thrown as McpError, a cancelled task as TaskCancelledError.
   * Input the task asks for is answered by the client's handlers meanwhile.
   */
  result(options?: TaskWaitOptions): Promise<R>;
  /** Asks the server to cancel (`tasks/cancel`); resolves to the task afterwards. */
  cancel(options?: TaskWaitOptions): Promise<TaskInfo>;
}

/** The era-specific half of a handle. */
export interface TaskBackend {
  readonly taskId: string | undefined;
  get(options?: TaskWaitOptions): Promise<TaskInfo>;
  /** The raw result of the original request. */
  result(options?: TaskWaitOptions): Promise<Result>;
  cancel(options?: TaskWaitOptions): Promise<TaskInfo>;
  /** Where the iterator polls from. */
  source(): StatusSource;
}

/** A 2026-07-28 DetailedTask (`ttlMs`, `pollIntervalMs`) as TaskInfo. */
export function modernTaskInfo(method: string, t: Result): TaskInfo {
  return taskInfo(method, t, "modern");
}

export { legacyTaskInfo };

class Handle<R> implements TaskHandle<R> {
  constructor(
    private readonly backend: TaskBackend,
    private readonly map: (raw: Result) => R | Promise<R>,
  ) {}
  get taskId(): string | undefined {
    return this.backend.taskId;
  }
  status(options?: TaskWaitOptions): Promise<TaskInfo> {
    return this.backend.get(options);
  }
  async result(options?: TaskWaitOptions): Promise<R> {
    return this.map(await this.backend.result(options));
  }
  cancel(options?: TaskWaitOptions): Promise<TaskInfo> {
    return this.backend.cancel(options);
  }
  /** Each status change (status or message) until the task is terminal; the first is the current one. */
  async *[Symbol.asyncIterator](): AsyncGenerator<TaskInfo> {
    yield* statusChanges(await this.backend.get(), this.backend.source());
  }
}

export function taskHandle<R>(backend: TaskBackend, map: (raw: Result) => R | Promise<R>): TaskHandle<R> {
  return new Handle(backend, map);
}

/** The backend of a call a 2026-07-28 server answered at once: nothing to poll, nothing to cancel. */
export function answeredBackend(result: Result): TaskBackend {
  const now = new Date().toISOString();
  // Reported as the completed state the answer stands for; there is no server-side task.
  const info: TaskInfo = { taskId: "", status: "completed", createdAt: now, lastUpdatedAt: now };
  return {
    taskId: undefined,
    get: async () => info,
    result: async () => result,
    cancel: async () => info,
    source: () => ({ get: async () => info }),
  };
}

export { TaskCancelledError };
