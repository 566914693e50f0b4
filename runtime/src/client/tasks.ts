/**
 * Task-augmented tool calls for the client facade, in both eras. Legacy (2025-11-25 core tasks):
 * the client sends `params.task` when it declared `tasks`, the server declared
 * `tasks.requests.tools.call`, and the tool's `execution.taskSupport` is `required` (or the caller
 * asked with `task`), then waits (tasks/legacy-client.ts). 2026-07-28: the server decides per
 * call; the modern session waits when the client declared the extension (lifecycle/modern/client-tasks.ts).
 * Both eras give explicit handles (`start`, `resume`) for callers who detach.
 */
import { CapabilityError, InvalidResultError, McpError } from "../errors.js";
import { loadValidator } from "../lazy-binding.js";
import type { Params, RequestOptions, Result } from "../session/types.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { ClientSession } from "../lifecycle/legacy/client.js";
import type { ModernClientSession } from "../lifecycle/modern/client-session.js";
import type { AnyClientSession } from "../lifecycle/modern/client-probe.js";
import { TASKS_EXTENSION, hasExtension } from "../lifecycle/modern/wire.js";
import { MAX_WAIT_MS, TaskCancelledError, type PollOptions } from "../lifecycle/modern/client-tasks.js";
import { TERMINAL } from "../tasks/store.js";
import {
  awaitLegacyTask,
  legacyTaskInfo,
  statusChanges,
  type LegacyTaskIo,
  type TaskInfo,
} from "../tasks/legacy-client.js";
import { answeredBackend, modernTaskInfo, type TaskBackend, type TaskWaitOptions } from "../tasks/handle.js";
import type { TaskSupport } from "../tasks/modern.js";

/** Per-call choice: `true` asks for a task where the tool allows one; `{ ttlMs }` also asks for a retention. */
export type TaskRequest = boolean | { ttlMs?: number };

const STATUS = "notifications/tasks/status";

function withoutTask(options: RequestOptions & { task?: TaskRequest }): RequestOptions {
  const { task: _, ...rest } = options;
  return rest;
}

export class ClientTasks {
  /** `execution.taskSupport` per tool name, from the definition and from every tools/list. */
  readonly support = new Map<string, TaskSupport>();
  private readonly listeners = new Set<(task: TaskInfo) => void>();

  constructor(
    private readonly session: AnyClientSession,
    readonly poll: PollOptions | undefined,
    /** Installs the status-notification fan-out (once) in the client's notification dispatch. */
    private readonly listen: (listener: (method: string, params: Params | undefined) => void) => void,
  ) {
    if (session.era === "modern") session.taskPoll = poll;
    else if (this.legacyDeclared) {
      listen((method, params) => {
        if (method !== STATUS || params === undefined) return;
        let t: TaskInfo;
        try {
          t = legacyTaskInfo(STATUS, params);
        } catch {
          return; // a malformed push is ignored: polling still finds the status
        }
        for (const l of this.listeners) l(t);
      });
    }
  }

  /** Legacy: both sides declared task-augmented tools/call. */
  private get legacyDeclared(): boolean {
    const s = this.session;
    return (
      s.era === "legacy" &&
      hasCapability(s.capabilities, "tasks") &&
      hasCapability(s.serverCapabilities, "tasks.requests.tools.call")
    );
  }

  /** Whether `tools/call` of `name` goes out task-augmented (legacy era). */
  private augment(name: string, task: TaskRequest | undefined): boolean {
    if (!this.legacyDeclared || task === false) return false;
    const support = this.support.get(name);
    if (support === "forbidden") return false;
    return support === "required" || task !== undefined;
  }

  private legacyIo(session: ClientSession, options: RequestOptions | undefined): LegacyTaskIo {
    const waitOptions = { signal: options?.signal, timeout: options?.timeout };
    return {
      get: async (taskId) => legacyTaskInfo("tasks/get", await session.request("tasks/get", { taskId }, waitOptions)),
      // tasks/result blocks until the task ends: the caller's timeout bounds it, else the longest wait for any task.
      result: (taskId) =>
        session.request(
          "tasks/result",
          { taskId },
          { signal: options?.signal, timeout: options?.timeout ?? MAX_WAIT_MS, skipValidation: true },
        ),
      cancel: (taskId) => session.request("tasks/cancel", { taskId }),
      watch: (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
      signal: options?.signal,
      poll: this.poll,
    };
  }

  /** The tool call's result, validated as the revision's CallToolResult. */
  private async checked(session: AnyClientSession, result: Result): Promise<Result> {
    const validate = await loadValidator(session.binding, "results", "tools/call");
    if (validate !== undefined && !validate(result))
      throw new InvalidResultError("tools/call", validate.errors ?? [], result);
    return result;
  }

  /**
   * `tools/call`, waiting for the task if it becomes one; otherwise exactly the plain call.
   * `map` turns the complete result into what the promise settles with (2026-07-28: in the same
   * step as reading the response).
   */
  call<T = Result>(
    name: string,
    params: Params,
    options: (RequestOptions & { task?: TaskRequest }) | undefined,
    trustPeer: boolean,
    map?: (result: Result) => T,
  ): Promise<T> {
    const task = options?.task;
    const s = this.session;
    const rest = task === undefined ? options : withoutTask(options!);
    // `params` is always the object callTool built for this call: completed in place.
    if (s.era === "modern") return s.requestAs("tools/call", params, rest, map, true);
    const plain = this.augment(name, task)
      ? this.legacyCall(s, params, rest ?? {}, task, trustPeer)
      : s.request("tools/call", params, rest);
    return map === undefined ? (plain as Promise<T>) : plain.then(map);
  }

  private async legacyCall(
    s: ClientSession,
    params: Params,
    rest: RequestOptions,
    task: TaskRequest | undefined,
    trustPeer: boolean,
  ): Promise<Result> {
    const { params: sent, options: plain, release } = followProgress(s, params, rest);
    try {
      const created = await s.request(
        "tools/call",
        { ...sent, task: taskParam(task) },
        { ...plain, skipValidation: true },
      );
      const result = created.task === undefined ? created : await awaitLegacyTask(created, this.legacyIo(s, plain));
      return trustPeer ? result : this.checked(s, result);
    } finally {
      release();
    }
  }

  /** Start `tools/call` as a task and return its backend (the call's raw result comes from `result()`). */
  async start(
    name: string,
    params: Params,
    options: (RequestOptions & { task?: TaskRequest }) | undefined,
    trustPeer: boolean,
  ): Promise<TaskBackend> {
    const { task, ...rest } = options ?? {};
    const s = this.session;
    if (s.era === "modern") {
      if (!hasExtension(s.capabilities, TASKS_EXTENSION))
        throw new CapabilityError(
          "tools/call",
          `extensions.${TASKS_EXTENSION}`,
          `Cannot start ${name} as a task: this client does not declare the ${TASKS_EXTENSION} extension (createClient option tasks: true)`,
        );
      const raw = await s.startToolTask(params, rest);
      if (raw.resultType !== "task") return answeredBackend(raw);
      return this.modernBackend(s, modernTaskInfo("tools/call", raw));
    }
    if (!this.legacyDeclared)
      throw new CapabilityError(
        "tools/call",
        "tasks.requests.tools.call",
        `Cannot start ${name} as a task: ${hasCapability(s.capabilities, "tasks") ? "the server does not declare tasks.requests.tools.call" : "this client does not declare tasks (createClient option tasks: true)"}`,
      );
    if (this.support.get(name) === "forbidden")
      throw new CapabilityError(
        "tools/call",
        "tasks.requests.tools.call",
        `Cannot start ${name} as a task: its execution.taskSupport is "forbidden"`,
      );
    const { params: sent, options: plain, release } = followProgress(s, params, rest);
    try {
      const created = await s.request(
        "tools/call",
        { ...sent, task: taskParam(task ?? true) },
        { ...plain, skipValidation: true },
      );
      if (created.task === undefined) {
        release();
        return answeredBackend(trustPeer ? created : await this.checked(s, created));
      }
      return this.legacyBackend(s, legacyTaskInfo("tools/call", created.task), trustPeer, release);
    } catch (e) {
      release();
      throw e;
    }
  }

  /** A backend for a task id from an earlier `start` (maybe another process). */
  async resume(taskId: string, trustPeer: boolean, options?: TaskWaitOptions): Promise<TaskBackend> {
    const s = this.session;
    if (s.era === "modern")
      return this.modernBackend(s, modernTaskInfo("tasks/get", await s.taskRequest("tasks/get", taskId, options)));
    return this.legacyBackend(
      s,
      legacyTaskInfo("tasks/get", await s.request("tasks/get", { taskId }, options)),
      trustPeer,
    );
  }

  /** `release` stops the start's progress delivery: once the task is seen terminal or its result fetched. */
  private legacyBackend(
    s: ClientSession,
    first: TaskInfo,
    trustPeer: boolean,
    release: () => void = () => {},
  ): TaskBackend {
    const taskId = first.taskId;
    const seen = (t: TaskInfo) => {
      if (TERMINAL.has(t.status)) release();
      return t;
    };
    const get = async (o?: TaskWaitOptions) =>
      seen(legacyTaskInfo("tasks/get", await s.request("tasks/get", { taskId }, o)));
    return {
      taskId,
      get,
      result: async (o) => {
        try {
          // The task as it is now, not as `start` saw it: one that ended meanwhile sends no further
          // status notification, so waiting from the stale status would sleep a whole poll interval.
          const now = await get(o);
          const raw = await awaitLegacyTask(
            { task: { ...now, ttl: now.ttlMs ?? null, pollInterval: now.pollIntervalMs } },
            this.legacyIo(s, o),
          );
          release();
          return trustPeer ? raw : this.checked(s, raw);
        } catch (e) {
          if (e instanceof TaskCancelledError || e instanceof McpError) release();
          throw e;
        }
      },
      cancel: async (o) => seen(legacyTaskInfo("tasks/cancel", await s.request("tasks/cancel", { taskId }, o))),
      source: () => this.legacyIo(s, undefined),
    };
  }

  private modernBackend(s: ModernClientSession, first: TaskInfo): TaskBackend {
    const taskId = first.taskId;
    const get = async (o?: TaskWaitOptions) => modernTaskInfo("tasks/get", await s.taskRequest("tasks/get", taskId, o));
    return {
      taskId,
      get,
      result: (o) =>
        s.waitForTask(
          {
            taskId,
            ...(first.pollIntervalMs !== undefined ? { pollIntervalMs: first.pollIntervalMs } : {}),
            ...(typeof first.ttlMs === "number" ? { ttlMs: first.ttlMs } : {}),
          },
          o,
        ),
      cancel: async (o) => {
        await s.taskRequest("tasks/cancel", taskId, o);
        return get(o);
      },
      source: () => ({
        get: (id) => (id === taskId ? get() : Promise.reject(new Error(`unexpected task ${id}`))),
        poll: this.poll,
      }),
    };
  }
}

let progressTokens = 0;

/**
 * A 2025-11-25 task-augmented call's progress token stays valid until the task ends, long after
 * the CreateTaskResult answered the request, so the caller's `onprogress` follows a token of its
 * own (a string: never one of the session's numeric request ids) instead of the request's.
 */
function followProgress(
  s: ClientSession,
  params: Params,
  options: RequestOptions,
): { params: Params; options: RequestOptions; release: () => void } {
  const { onprogress, ...plain } = options;
  if (onprogress === undefined) return { params, options, release: () => {} };
  const token = `task-progress-${++progressTokens}`;
  const release = s.followProgress(token, onprogress);
  return {
    params: { ...params, _meta: { ...(params._meta as Params | undefined), progressToken: token } },
    options: plain,
    release,
  };
}

function taskParam(task: TaskRequest | undefined): Params {
  return typeof task === "object" && task.ttlMs !== undefined ? { ttl: task.ttlMs } : {};
}

export { statusChanges };
