/**
 * What both task flavours (2025-11-25 core tasks, legacy.ts; the 2026-07-28 extension, modern.ts)
 * share: reading `taskId`, binding tasks to the caller's authorization, the limit errors, and how a
 * handler's failure is recorded on its task.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext } from "../session/types.js";
import { TaskLimitError } from "./store.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";

/** Longest task id accepted from a peer (ids this runtime makes are 22 characters). */
export const MAX_TASK_ID_LENGTH = 256;

export function taskIdParam(params: Params | undefined): string {
  const id = params?.taskId;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_TASK_ID_LENGTH) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid params: taskId must be a non-empty string of at most ${MAX_TASK_ID_LENGTH} characters`, { pointer: "/params/taskId" });
  }
  return id;
}

/** The authorization principal of a request (OAuth client and subject), when an auth guard admitted it. */
export function principalOf(rc: RequestContext): string | undefined {
  return principalKey(rc.transportContext?.auth as AuthInfo | undefined);
}

/** Unknown, expired and someone else's tasks look the same to the caller (features.md §9-10). */
export function unknownTask(id: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: unknown or expired task ${JSON.stringify(id)}`, { taskId: id });
}

/** Too many task runs at once: -32603, because nothing in the request is wrong (features.md §9 Errors). */
export function tooManyRunning(max: number): McpError {
  return new McpError(ErrorCode.InternalError, `Internal error: this server runs at most ${max} tasks at once; retry later`, { limit: "maxRunning", max });
}

/** A store refusing a creation (TaskLimitError) becomes the same -32603; anything else passes through. */
export function creationError(e: unknown): unknown {
  return e instanceof TaskLimitError ? new McpError(ErrorCode.InternalError, `Internal error: ${e.message}`, { limit: "maxTasks" }) : e;
}

/** A handler's failure as the JSON-RPC error its task records: McpErrors as they are, anything else -32603 (and reported). */
export function failureOf(e: unknown, report: (e: Error) => void): { code: number; message: string; data?: unknown } {
  if (e instanceof McpError) return { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
  report(e instanceof Error ? e : new Error(String(e)));
  return { code: ErrorCode.InternalError, message: "Internal error" };
}

/** Longest delay setTimeout honours (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/** Run `f` once `ms` have passed, however long that is (chained timers), without keeping the process alive. */
export function afterRetention(ms: number, f: () => void): void {
  if (ms > MAX_TIMER_MS) setTimeout(() => afterRetention(ms - MAX_TIMER_MS, f), MAX_TIMER_MS).unref();
  else setTimeout(f, ms).unref();
}
