/**
 * The requestor side of the 2025-11-25 core tasks
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks) in the client: a
 * `tools/call` sent with `params.task` gets a CreateTaskResult, and the client waits for it. A
 * status notification ends a wait early, but is never relied on (the spec says requestors keep
 * polling): `tasks/get` runs at the server's `pollInterval`, bounded. Once the task is terminal or
 * asks for input, `tasks/result` (which blocks until terminal) fetches the payload; the server
 * sends the requests the task needs (tagged `related-task`) while that call is open, and the
 * client's ordinary handlers answer them. Aborting the caller's signal sends `tasks/cancel`.
 */
import { ErrorCode } from "../jsonrpc.js";
import { InvalidResultError, McpError } from "../errors.js";
import type { Result } from "../session/types.js";
import { MAX_WAIT_MS, TaskCancelledError, pollDelay, type PollOptions } from "../lifecycle/modern/client-tasks.js";
import { STATUSES, TERMINAL, type TaskStatus } from "./store.js";
import { describe } from "../describe.js";

export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** A task as this client reports it in either era (durations in ms; `ttlMs` null = unlimited). */
export interface TaskInfo {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
}

function bad(method: string, path: string, message: string, value: unknown): InvalidResultError {
  return new InvalidResultError(
    method,
    [{ instancePath: path, schemaPath: "", keyword: "type", params: {}, message }],
    value,
  );
}

/** Where each era keeps a Task's retention and poll interval. */
const FIELDS = {
  legacy: { ttl: "ttl", poll: "pollInterval" },
  modern: { ttl: "ttlMs", poll: "pollIntervalMs" },
} as const;

/**
 * A wire Task as TaskInfo: flat in both eras, `ttl` / `pollInterval` in 2025-11-25 and `ttlMs` /
 * `pollIntervalMs` in 2026-07-28 (DetailedTask); throws InvalidResultError when malformed.
 */
export function taskInfo(method: string, t: unknown, era: keyof typeof FIELDS): TaskInfo {
  if (typeof t !== "object" || t === null) throw bad(method, "", "a Task must be an object", t);
  const o = t as { [key: string]: unknown };
  if (typeof o.taskId !== "string" || o.taskId === "")
    throw bad(method, "/taskId", "a Task must carry a taskId string", t);
  if (typeof o.status !== "string" || !STATUSES.has(o.status))
    throw bad(method, "/status", `unknown task status ${describe(o.status)}`, t);
  const ttl = o[FIELDS[era].ttl];
  const poll = o[FIELDS[era].poll];
  return {
    taskId: o.taskId,
    status: o.status as TaskStatus,
    ...(typeof o.statusMessage === "string" ? { statusMessage: o.statusMessage } : {}),
    ...(typeof o.createdAt === "string" ? { createdAt: o.createdAt } : {}),
    ...(typeof o.lastUpdatedAt === "string" ? { lastUpdatedAt: o.lastUpdatedAt } : {}),
    ...(ttl === null || typeof ttl === "number" ? { ttlMs: ttl } : {}),
    ...(typeof poll === "number" ? { pollIntervalMs: poll } : {}),
  };
}

/** A 2025-11-25 wire Task as TaskInfo. */
export function legacyTaskInfo(method: string, t: unknown): TaskInfo {
  return taskInfo(method, t, "legacy");
}

/** Where status changes come from: a poll, and (legacy) status notifications that end a wait early. */
export interface StatusSource {
  get(taskId: string): Promise<TaskInfo>;
  /** Subscribe to pushed task statuses; returns the unsubscribe function. */
  watch?(listener: (task: TaskInfo) => void): () => void;
  signal?: AbortSignal | undefined;
  poll?: PollOptions | undefined;
}

/** What the legacy waiter needs from the connection. */
export interface LegacyTaskIo extends StatusSource {
  /** `tasks/result`: blocks on the server until the task is terminal. */
  result(taskId: string): Promise<Result>;
  cancel(taskId: string): Promise<unknown>;
}

/**
 * Sleep until `ms` passed, a pushed status for `taskId` arrived, or the signal aborted (rejects
 * with its reason).
 */
function pause(ms: number, taskId: string, src: StatusSource): Promise<TaskInfo | undefined> {
  const signal = src.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = (v: TaskInfo | undefined) => {
      clearTimeout(timer);
      unwatch?.();
      signal?.removeEventListener("abort", onabort);
      resolve(v);
    };
    const onabort = () => {
      clearTimeout(timer);
      unwatch?.();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => done(undefined), ms);
    const unwatch = src.watch?.((t) => {
      if (t.taskId === taskId) done(t);
    });
    signal?.addEventListener("abort", onabort, { once: true });
  });
}

/**
 * Yields the task each time its status or message changes, until `until` holds (or the task is
 * terminal). Polls; pushed statuses shorten waits. Bounded by the task's ttl (or MAX_WAIT_MS).
 */
export async function* statusChanges(
  first: TaskInfo,
  src: StatusSource,
  until: (t: TaskInfo) => boolean = () => false,
): AsyncGenerator<TaskInfo> {
  let t = first;
  let last = "";
  let wait = pollDelay(t.pollIntervalMs, src.poll);
  const deadline =
    Date.now() + Math.min(typeof t.ttlMs === "number" && t.ttlMs > 0 ? t.ttlMs : MAX_WAIT_MS, MAX_WAIT_MS);
  for (;;) {
    const key = `${t.status}\u0000${t.statusMessage ?? ""}`;
    if (key !== last) {
      last = key;
      yield t;
    }
    if (TERMINAL.has(t.status) || until(t)) return;
    if (Date.now() + wait > deadline)
      throw new McpError(ErrorCode.InternalError, `Task ${t.taskId} did not finish within its ttl`, {
        taskId: t.taskId,
      });
    t = (await pause(wait, t.taskId, src)) ?? (await src.get(t.taskId));
    wait = pollDelay(t.pollIntervalMs, src.poll, wait);
  }
}

const settled = (t: TaskInfo) => t.status !== "working";

/**
 * Wait for the task a CreateTaskResult names and return what `tasks/result` gives (the original
 * request's result; a JSON-RPC error is thrown as McpError). A cancelled task throws TaskCancelledError.
 */
export async function awaitLegacyTask(created: Result, io: LegacyTaskIo): Promise<Result> {
  const first = legacyTaskInfo("tools/call", created.task);
  try {
    let t = first;
    for await (const change of statusChanges(first, io, settled)) t = change;
    if (t.status === "cancelled") throw new TaskCancelledError(t.taskId);
    return await io.result(t.taskId);
  } catch (e) {
    if (io.signal?.aborted) await io.cancel(first.taskId).catch(() => undefined);
    throw e;
  }
}
