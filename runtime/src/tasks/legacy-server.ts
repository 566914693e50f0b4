/**
 * How the legacy server serves 2025-11-25 tasks: which revisions advertise them, what a
 * `tools/call` does with `params.task` against the tool's `execution.taskSupport`, and the
 * `tasks/*` handlers, each bound to the caller (its authorization principal, else its connection).
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext, RequestHandler, Result } from "../session/types.js";
import type { Capabilities, RequestHandlers } from "../lifecycle/common/types.js";
import { legacyTaskCapabilities, type LegacyTasks, type TaskBody } from "./legacy.js";
import type { TaskSupport } from "./modern.js";
import { principalOf } from "./shared.js";

/** What serving tasks needs of the connection a request came on. */
export interface TaskConnection {
  readonly session: { notify(method: string, params?: Params): Promise<void> };
  /** Who owns the tasks this connection creates when no authorization says. */
  readonly taskOwner?: string;
}

/** `capabilities` plus `tasks`; a stateless connection cannot tell requestors apart, so it offers no `tasks.list`. */
export function withTaskCapabilities(caps: Capabilities, stateless: boolean): Capabilities {
  return { ...caps, tasks: legacyTaskCapabilities(!stateless) };
}

/**
 * Who owns a task: the OAuth principal when the request carries one (so the same user reaches it
 * from any session), else the connection it was created on (stdio, a Streamable HTTP session).
 * Stateless HTTP without authorization has neither: the unguessable id is then the only key.
 */
export function taskOwner(conn: TaskConnection, rc: RequestContext): string | undefined {
  return principalOf(rc) ?? conn.taskOwner;
}

/**
 * A `tools/call` in a revision with core tasks: `params.task` against the tool's support
 * (-32601 both ways, as the 2025-11-25 tools page says), a task when asked for, else `direct`.
 */
export function callMaybeTask(
  tasks: LegacyTasks,
  support: TaskSupport,
  tool: string,
  params: Params,
  rc: RequestContext,
  conn: TaskConnection,
  direct: () => Promise<Result>,
  body: TaskBody,
): Promise<Result> {
  const asked = params.task !== undefined && params.task !== null;
  if (asked && support === "forbidden") {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: tool ${JSON.stringify(tool)} cannot run as a task (execution.taskSupport "forbidden"); call it without params.task`,
      { tool, taskSupport: support },
    );
  }
  if (!asked && support === "required") {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: tool ${JSON.stringify(tool)} runs only as a task (execution.taskSupport "required"); call it with params.task`,
      { tool, taskSupport: support },
    );
  }
  if (!asked) return direct();
  if (typeof params.task !== "object" || Array.isArray(params.task)) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: task must be an object ({ ttl? })", {
      pointer: "/params/task",
    });
  }
  const owner = taskOwner(conn, rc);
  const session = conn.session;
  return tasks.call(params, rc, { owner, notify: (method, p) => session.notify(method, p) }, body);
}

/** The `tasks/*` request handlers (no `tasks/list` on a stateless connection). */
export function taskHandlers(tasks: LegacyTasks, conn: () => TaskConnection, stateless: boolean): RequestHandlers {
  const owner = (rc: RequestContext) => taskOwner(conn(), rc);
  const h: Record<string, RequestHandler<any, Result>> = {
    "tasks/get": (p: Params, rc: RequestContext) => tasks.get(p, owner(rc)),
    "tasks/result": (p: Params, rc: RequestContext) => tasks.result(p, rc, owner(rc)),
    "tasks/cancel": (p: Params, rc: RequestContext) => tasks.cancel(p, owner(rc)),
  };
  if (!stateless) h["tasks/list"] = (p: Params | undefined, rc: RequestContext) => tasks.list(p, owner(rc));
  return h;
}
