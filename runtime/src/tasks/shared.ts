/**
 * What both task flavours (2025-11-25 core tasks, legacy.ts; the 2026-07-28 extension, modern.ts)
 * share: reading `taskId`, binding tasks to the caller's authorization, the limit errors, and how a
 * handler's failure is recorded on its task.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext } from "../session/types.js";
import { TaskLimitError, grantTtl } from "./store.js";
import { ownerShare } from "./owner-counts.js";
import { TASK_DEFAULT_TTL_MS, TASK_MAX_TTL_MS } from "../limits.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";

/** Longest task id accepted from a peer (ids this runtime makes are 22 characters). */
export const MAX_TASK_ID_LENGTH = 256;

export function taskIdParam(params: Params | undefined): string {
  const id = params?.taskId;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_TASK_ID_LENGTH) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: taskId must be a non-empty string of at most ${MAX_TASK_ID_LENGTH} characters`,
      { pointer: "/params/taskId" },
    );
  }
  return id;
}

/** The authorization principal of a request (OAuth client and subject), when an auth guard admitted it. */
export function principalOf(rc: RequestContext): string | undefined {
  return principalKey(rc.transportContext?.auth as AuthInfo | undefined);
}

/**
 * Unknown, expired and someone else's tasks look the same to the caller
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-isolation-and-access-control,
 * and the extension's https://modelcontextprotocol.io/extensions/tasks/overview).
 */
export function unknownTask(id: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: unknown or expired task ${JSON.stringify(id)}`, {
    taskId: id,
  });
}

/**
 * Too many task runs at once, on the whole server or for one caller: -32603, because nothing in the
 * request is wrong
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#error-handling);
 * `data.limit` names the bound.
 */
export function tooManyRunning(max: number, limit: "maxRunning" | "maxRunningPerOwner" = "maxRunning"): McpError {
  const whose = limit === "maxRunning" ? "" : " for one caller";
  return new McpError(
    ErrorCode.InternalError,
    `Internal error: this server runs at most ${max} tasks at once${whose}; retry later`,
    { limit, max },
  );
}

/** A store refusing a creation (TaskLimitError) becomes the same -32603, naming the store's bound; anything else passes through. */
export function creationError(e: unknown): unknown {
  if (!(e instanceof TaskLimitError)) return e;
  return new McpError(
    ErrorCode.InternalError,
    `Internal error: ${e.message}`,
    e.max === undefined ? { limit: e.limit } : { limit: e.limit, max: e.max },
  );
}

/** The server operator's retention bounds, which hold whatever store is used. */
export interface Retention {
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
}

/**
 * The server's retention bounds from its task options: undefined when it sets neither (the
 * store's own apply alone), else both, the missing one from runtime/src/limits.ts.
 */
export function retentionBounds(
  who: string,
  o: { defaultTtlMs?: number | undefined; maxTtlMs?: number | undefined },
): Retention | undefined {
  if (o.defaultTtlMs === undefined && o.maxTtlMs === undefined) return undefined;
  const maxTtlMs = o.maxTtlMs ?? TASK_MAX_TTL_MS;
  const defaultTtlMs = o.defaultTtlMs ?? Math.min(TASK_DEFAULT_TTL_MS, maxTtlMs);
  if (!(defaultTtlMs >= 1 && maxTtlMs >= defaultTtlMs))
    throw new RangeError(`${who}: maxTtlMs >= defaultTtlMs >= 1 are required`);
  return { defaultTtlMs, maxTtlMs };
}

/** The retention to ask the store for: the caller's request clamped into the server's bounds (the store then applies its own). */
export function serverTtl(requested: number | undefined, bounds: Retention | undefined): number | undefined {
  return bounds === undefined ? requested : grantTtl(requested, bounds.defaultTtlMs, bounds.maxTtlMs);
}

/** A per-owner quota from the options, by default a share of the whole (runtime/src/limits.ts). */
export function ownerQuota(who: string, name: string, total: number, perOwner: number | undefined): number {
  const quota = perOwner ?? ownerShare(total);
  if (!(total >= 1) || !(quota >= 1 && quota <= total))
    throw new RangeError(`${who}: ${name.replace("PerOwner", "")} >= ${name} >= 1 is required`);
  return quota;
}

/** A handler's failure as the JSON-RPC error its task records: McpErrors as they are, anything else -32603 (and reported). */
export function failureOf(e: unknown, report: (e: Error) => void): { code: number; message: string; data?: unknown } {
  if (e instanceof McpError)
    return { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
  report(e instanceof Error ? e : new Error(String(e)));
  return { code: ErrorCode.InternalError, message: "Internal error" };
}

/** Longest delay setTimeout honours (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Run `f` once `ms` have passed, however long that is (chained timers), without keeping the
 * process alive; the returned function cancels it (a timer left for a day holds what `f` holds).
 */
export function afterRetention(ms: number, f: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = (left: number) => {
    timer = left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(f, left);
    (timer as { unref?: () => void }).unref?.(); // none on workerd, where timers keep nothing alive
  };
  arm(ms);
  return () => clearTimeout(timer);
}
