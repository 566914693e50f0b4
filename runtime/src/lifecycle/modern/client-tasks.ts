/**
 * The client side of the 2026-07-28 tasks extension: a client that declared
 * `io.modelcontextprotocol/tasks` and got a CreateTaskResult for `tools/call` waits for the task
 * transparently: it polls `tasks/get` at the server's `pollIntervalMs`, answers task-phase input
 * requests through its ordinary handlers and `tasks/update` (each key once), and returns the
 * inlined result, throws the inlined JSON-RPC error, or throws TaskCancelledError. Aborting the
 * caller's signal cancels the task on the server.
 */
import { ErrorCode } from "../../jsonrpc.js";
import { InvalidResultError, McpError } from "../../errors.js";
import type { Result } from "../../session/types.js";
import { readInputRequired, type InputRequired } from "./client-result.js";
import { describe } from "../../describe.js";

/** Polling never runs faster than this nor waits longer than MAX_POLL_MS between polls. */
export const MIN_POLL_MS = 20;
export const MAX_POLL_MS = 30_000;
/** A task without a finite ttlMs is polled at most this long. */
export const MAX_WAIT_MS = 24 * 3_600_000;

/** Polling bounds a caller may set (clamped to MIN_POLL_MS .. MAX_POLL_MS). */
export interface PollOptions {
  /** Never poll faster than this, whatever the server suggests (default MIN_POLL_MS). */
  minMs?: number;
  /** Never wait longer than this between polls (default MAX_POLL_MS). */
  maxMs?: number;
  /** Used when the server suggests nothing (default 500). */
  defaultMs?: number;
}

/** The server's suggestion clamped to the caller's bounds. */
export function pollDelay(suggested: number | undefined, poll: PollOptions | undefined, previous?: number): number {
  const min = Math.max(MIN_POLL_MS, poll?.minMs ?? MIN_POLL_MS);
  const max = Math.max(min, Math.min(MAX_POLL_MS, poll?.maxMs ?? MAX_POLL_MS));
  const want =
    typeof suggested === "number" && Number.isFinite(suggested) ? suggested : (previous ?? poll?.defaultMs ?? 500);
  return Math.min(max, Math.max(min, want));
}

export class TaskCancelledError extends Error {
  override name = "TaskCancelledError";
  constructor(readonly taskId: string) {
    super(`Task ${taskId} was cancelled`);
  }
}

export interface TaskIo {
  get(taskId: string): Promise<Result>;
  update(taskId: string, inputResponses: Record<string, Result>): Promise<unknown>;
  cancel(taskId: string): Promise<unknown>;
  /** Answers to input requests, from the client's handlers. */
  answer(input: InputRequired): Promise<Record<string, Result>>;
  signal?: AbortSignal | undefined;
  poll?: PollOptions | undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onabort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onabort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onabort, { once: true });
  });
}

/** Wait for the task a CreateTaskResult names; see the module comment. */
export async function awaitTask(created: Result, io: TaskIo): Promise<Result> {
  const taskId = created.taskId;
  if (typeof taskId !== "string" || taskId.length === 0) {
    throw new InvalidResultError(
      "tools/call",
      [
        {
          instancePath: "/taskId",
          schemaPath: "",
          keyword: "type",
          params: {},
          message: "a CreateTaskResult must carry a taskId string",
        },
      ],
      created,
    );
  }
  const ttl = typeof created.ttlMs === "number" && created.ttlMs > 0 ? created.ttlMs : MAX_WAIT_MS;
  const deadline = Date.now() + Math.min(ttl, MAX_WAIT_MS);
  let wait = pollDelay(created.pollIntervalMs as number | undefined, io.poll);
  const answered = new Set<string>();
  const signal = io.signal;
  try {
    for (;;) {
      const t = await io.get(taskId);
      wait = pollDelay(t.pollIntervalMs as number | undefined, io.poll, wait);
      switch (t.status) {
        case "completed":
          if (typeof t.result !== "object" || t.result === null)
            throw new InvalidResultError(
              "tasks/get",
              [
                {
                  instancePath: "/result",
                  schemaPath: "",
                  keyword: "required",
                  params: {},
                  message: "a completed task must inline its result",
                },
              ],
              t,
            );
          return t.result as Result;
        case "failed": {
          const e = (t.error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
          throw new McpError(
            typeof e.code === "number" ? e.code : ErrorCode.InternalError,
            typeof e.message === "string" ? e.message : `Task ${taskId} failed`,
            e.data,
          );
        }
        case "cancelled":
          throw new TaskCancelledError(taskId);
        case "input_required": {
          const input = readInputRequired("tasks/get", { inputRequests: t.inputRequests ?? {} });
          const fresh = new Map([...input.inputRequests].filter(([k]) => !answered.has(k)));
          if (fresh.size > 0) {
            for (const k of fresh.keys()) answered.add(k);
            await io.update(taskId, await io.answer({ inputRequests: fresh, requestState: undefined }));
            continue;
          }
          break;
        }
        case "working":
          break;
        default:
          throw new InvalidResultError(
            "tasks/get",
            [
              {
                instancePath: "/status",
                schemaPath: "",
                keyword: "enum",
                params: {},
                message: `unknown task status ${describe(t.status)}`,
              },
            ],
            t,
          );
      }
      if (Date.now() + wait > deadline)
        throw new McpError(ErrorCode.InternalError, `Task ${taskId} did not finish within its ttlMs`, { taskId });
      await sleep(wait, signal);
    }
  } catch (e) {
    // The caller gave up: the server may stop the work (cancellation is cooperative).
    if (signal?.aborted) await io.cancel(taskId).catch(() => undefined);
    throw e;
  }
}
