/**
 * The 2026-07-28 `io.modelcontextprotocol/tasks` extension on the server
 * (https://modelcontextprotocol.io/extensions/tasks/overview): a
 * tool call the server lets run as a task answers `CreateTaskResult` (`resultType: "task"`), and
 * the client follows it with `tasks/get` (DetailedTask), `tasks/update` (answers to task-phase
 * input requests) and `tasks/cancel`. Input the handler asks for before the task exists is
 * ordinary MRTR; input asked for after parks the task in `input_required`, and once every
 * outstanding request is answered the handler runs again with all answers (the same re-run model
 * as MRTR, so handlers stay plain async functions).
 */
import type { ProtocolBinding } from "../abi.js";
import { deriveBinding } from "../lazy-binding.js";
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext, Result } from "../session/types.js";
import type { RequestHandlers } from "../lifecycle/common/types.js";
import { identityOf, type RequestIdentity } from "../lifecycle/modern/meta.js";
import { InputRound, inputRequired, retryInput, type RetryInput } from "../lifecycle/modern/mrtr.js";
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import { TASKS_EXTENSION } from "../lifecycle/modern/wire.js";
import { declaresTasks, missingExtension } from "./extension.js";
import { TERMINAL, type TaskRecord, type TaskStore } from "./store.js";
import type * as Wire from "../wire/legacy.js";
import {
  afterRetention,
  creationError,
  failureOf,
  ownerQuota,
  principalOf as ownerOf,
  retentionBounds,
  serverTtl,
  taskIdParam as taskId,
  tooManyRunning,
  unknownTask,
  type Retention,
} from "./shared.js";
import { OwnerCounts } from "./owner-counts.js";
import { MAX_RUNNING_TASKS } from "../limits.js";

export { TASKS_EXTENSION, declaresTasks, missingExtension };

/** A tool's `execution.taskSupport`, as 2025-11-25 defines it (the 2026 tasks extension reuses it). */
export type TaskSupport = NonNullable<NonNullable<Wire.Tool["execution"]>["taskSupport"]>;

export interface ModernTasksOptions {
  store: TaskStore;
  /** A task-eligible call still running after this long becomes a task (ms; default 100). */
  graceMs?: number;
  /** Suggested polling interval sent with every task (ms; default 500). */
  pollIntervalMs?: number;
  /** Most task-phase runs in progress at once (default 1000); more are refused with -32603. */
  maxRunning?: number;
  /**
   * Most of them one owner has at once (default a tenth of maxRunning; calls without
   * authorization share one owner); more are refused with -32603.
   */
  maxRunningPerOwner?: number;
  /** Retention of a new task, ms (default: the store's). */
  defaultTtlMs?: number;
  /** Longest retention granted, ms (default: the store's). */
  maxTtlMs?: number;
  /** A task changed (for `notifications/tasks` on listens). */
  onchange?: (task: Result) => void;
  /**
   * Reaches the instance running a task this one does not (instances sharing a store behind a
   * load balancer); that instance calls remoteCancel / remoteInput. Without it a task's run is
   * reachable only from the instance that started it.
   */
  relay?: TaskRelay;
  report: (e: Error) => void;
}

/** How a `tasks/cancel` or `tasks/update` answered here reaches the run held elsewhere. */
export interface TaskRelay {
  cancel(taskId: string): Promise<void>;
  input(taskId: string, responses: Readonly<Record<string, unknown>>): Promise<void>;
}

/**
 * The handler context a task-eligible call runs with: the server makes it (its 2026-07-28 context,
 * see TaskContextFactory) and the extension drives it. `round` is the run's input bookkeeping.
 */
export interface TaskRunContext {
  round: InputRound;
  /** Set here when the call may become a task (the handler's `runAsTask`). */
  onRunAsTask: (() => Promise<void>) | undefined;
  /** Set here once the call is a task (the handler's `setStatusMessage`). */
  onStatus: ((message: string) => Promise<void>) | undefined;
  /** The call became a task: the run answers to `task` (its signal) and asks for input through `round`. */
  detach(task: RequestContext, round: InputRound): void;
  /** The run was abandoned for input: stop what the handler still has in flight. */
  abandon(): void;
}

/** Makes the context of one run of a handler; with `round` undefined the caller sets it right after. */
export type TaskContextFactory<C extends TaskRunContext> = (
  rc: RequestContext,
  identity: RequestIdentity,
  round: InputRound | undefined,
) => C;

/** What the server keeps of a task whose handler may still run (never persisted). */
interface Running<C> {
  readonly controller: AbortController;
  /** Whose task it is: the principal, or undefined for a call without authorization. */
  readonly owner: string | undefined;
  readonly identity: RequestIdentity;
  readonly rc: RequestContext;
  readonly body: (ctx: C) => Promise<Result>;
  /** Every answer given so far, request phase and task phase. */
  readonly answers: Record<string, unknown>;
  /** Input requests of the current round still unanswered. */
  outstanding: Map<string, unknown>;
  /** Cancels the timer that stops the run when its task's retention ends. */
  expiry?: () => void;
}

function wire(t: TaskRecord): Result {
  const out: Result = {
    taskId: t.taskId,
    status: t.status,
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttlMs: t.ttlMs,
  };
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
  if (t.pollIntervalMs !== undefined) out.pollIntervalMs = t.pollIntervalMs;
  return out;
}

/** DetailedTask: the task plus what its status carries. */
export function detailed(t: TaskRecord): Result {
  const out = wire(t);
  if (t.status === "input_required") out.inputRequests = t.inputRequests ?? {};
  if (t.status === "completed" && t.result !== undefined) out.result = t.result;
  if (t.status === "failed" && t.error !== undefined) out.error = t.error;
  return out;
}

/**
 * The extension's server side, for handlers that receive a `C` (made by `context`): the server
 * gives its 2026-07-28 handler context (server/modern-tasks.ts).
 */
export class TasksExtension<C extends TaskRunContext> {
  private readonly running = new Map<string, Running<C>>();
  /** Runs per owner, those being created included. */
  private readonly owners = new OwnerCounts();
  private readonly graceMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxRunning: number;
  private readonly maxRunningPerOwner: number;
  private readonly retention: Retention | undefined;

  constructor(
    private readonly codec: RequestStateCodec,
    private readonly options: ModernTasksOptions,
    private readonly context: TaskContextFactory<C>,
  ) {
    this.graceMs = options.graceMs ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.maxRunning = options.maxRunning ?? MAX_RUNNING_TASKS;
    this.maxRunningPerOwner = ownerQuota(
      "ModernTasks",
      "maxRunningPerOwner",
      this.maxRunning,
      options.maxRunningPerOwner,
    );
    this.retention = retentionBounds("ModernTasks", options);
  }

  /** Task runs in progress (for tests and metrics). */
  get size(): number {
    return this.running.size;
  }

  /**
   * A task-eligible `tools/call`: the complete result when the handler finishes within the grace
   * period, an InputRequiredResult when it asks for input before becoming a task, else a
   * CreateTaskResult once the task is stored.
   */
  call(params: Params, rc: RequestContext, body: (ctx: C) => Promise<Result>): Promise<Result> {
    const retry = retryInput(this.codec, "tools/call", params);
    // A retry's requestState is verified first (WebCrypto answers asynchronously).
    return retry instanceof Promise
      ? retry.then((r) => this.run(params, rc, body, r))
      : this.run(params, rc, body, retry);
  }

  /**
   * Whether a `tools/call` of a tool whose `execution.taskSupport` is `support` (not "forbidden")
   * runs as a task (call): the server, not the client, decides whether a call becomes a task; the
   * client only says it can take one. A tool that requires it refuses a client that cannot.
   */
  asTask(rc: RequestContext, support: TaskSupport, tool: string): boolean {
    if (declaresTasks(identityOf(rc.meta).capabilities)) return true;
    if (support === "required")
      throw missingExtension(`tool ${JSON.stringify(tool)} (execution.taskSupport "required")`);
    return false;
  }

  /** The extension's methods; tasks/result and tasks/list do not exist in it: left out, they answer -32601. */
  handlers(): RequestHandlers {
    return {
      "tasks/get": (p: Params, rc: RequestContext) => this.get(p, rc),
      "tasks/update": (p: Params, rc: RequestContext) => this.update(p, rc),
      "tasks/cancel": (p: Params, rc: RequestContext) => this.cancel(p, rc),
    };
  }

  private run(
    params: Params,
    rc: RequestContext,
    body: (ctx: C) => Promise<Result>,
    retry: RetryInput,
  ): Promise<Result> {
    const identity = identityOf(rc.meta);
    return new Promise<Result>((resolve, reject) => {
      let settled = false;
      let detaching: Promise<string | undefined> | undefined;
      /** The call is becoming (or became) a task: its end is recorded on the task, not answered. */
      let detached = false;
      /** Ends what the host was asked to wait for (a Worker's waitUntil) once a detached run is recorded. */
      let runEnded: (() => void) | undefined;
      const settle = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const blocked = () => {
        if (detached) return;
        ctx.abandon();
        settle(() => {
          try {
            resolve(inputRequired(this.codec, "tools/call", params, round));
          } catch (e) {
            reject(e);
          }
        });
      };
      const round = new InputRound(retry.answers, identity.capabilities, true, "tools/call", blocked);
      const ctx = this.context(rc, identity, round);
      const detach = (): Promise<string | undefined> =>
        (detaching ??= (async () => {
          // A run already waiting for request-phase input answers InputRequiredResult instead.
          if (settled || round.isBlocked) return undefined;
          const owner = ownerOf(rc);
          const refusal =
            this.running.size >= this.maxRunning
              ? tooManyRunning(this.maxRunning)
              : this.owners.get(owner) >= this.maxRunningPerOwner
                ? tooManyRunning(this.maxRunningPerOwner, "maxRunningPerOwner")
                : undefined;
          if (refusal !== undefined) {
            ctx.abandon();
            settle(() => reject(refusal));
            return undefined;
          }
          detached = true;
          // The run goes on after this call's response: a host that ends pending work with the
          // response (a Worker) is asked to keep serving until the run is recorded on its task.
          rc.transportContext?.waitUntil?.(new Promise<void>((r) => (runEnded = r)));
          const answers = { ...retry.answers, ...Object.fromEntries(round.used) };
          const controller = new AbortController();
          const entry: Running<C> = { controller, owner, identity, rc, body, answers, outstanding: new Map() };
          // Counted before the store answers, so concurrent calls of one owner cannot all pass the check.
          this.owners.add(owner);
          let id: string | undefined;
          ctx.detach(this.taskContext(rc, controller.signal), this.round(entry, () => id, ctx).continueFrom(round));
          ctx.onStatus = (m) => this.statusMessage(id, controller.signal, m);
          try {
            const ttlMs = serverTtl(undefined, this.retention);
            const t = await this.options.store.create({
              pollIntervalMs: this.pollIntervalMs,
              ...(ttlMs !== undefined ? { ttlMs } : {}),
              ...(owner !== undefined ? { owner } : {}),
            });
            id = t.taskId;
            this.running.set(t.taskId, entry);
            // The run never outlives its task's retention (an unanswered input_required would otherwise hold it).
            if (t.ttlMs !== null)
              entry.expiry = afterRetention(t.ttlMs, () => this.stop(t.taskId, new Error("task expired")));
            settle(() => resolve({ ...wire(t), resultType: "task" }));
            return t.taskId;
          } catch (e) {
            this.owners.remove(owner);
            controller.abort(e);
            const error = creationError(e);
            settle(() => reject(error));
            return undefined;
          }
        })());
      ctx.onRunAsTask = async () => {
        await detach();
      };
      const timer = setTimeout(() => void detach(), this.graceMs);
      let run: Promise<Result>;
      try {
        run = body(ctx);
      } catch (e) {
        settle(() => reject(e));
        return;
      }
      run.then(
        async (result) => {
          if (detached) {
            try {
              return ctx.round.isBlocked ? undefined : await this.finish(await detaching!, { result });
            } finally {
              runEnded?.();
            }
          }
          if (round.isBlocked) return blocked();
          settle(() => resolve(result));
        },
        async (e: unknown) => {
          // A task-phase run abandoned for input is over; its task waits in input_required.
          if (detached) {
            try {
              return ctx.round.isBlocked && !(e instanceof McpError)
                ? undefined
                : await this.finish(await detaching!, { error: e });
            } finally {
              runEnded?.();
            }
          }
          if (e instanceof McpError || !round.isBlocked) settle(() => reject(e));
          else blocked();
        },
      );
    });
  }

  async get(params: Params | undefined, rc: RequestContext): Promise<Result> {
    this.gate("tasks/get", rc);
    const t = await this.find(taskId(params), rc);
    return detailed(t);
  }

  async update(params: Params | undefined, rc: RequestContext): Promise<Result> {
    this.gate("tasks/update", rc);
    const id = taskId(params);
    const responses = params?.inputResponses;
    if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: inputResponses must be an object keyed by input request key",
        { pointer: "/params/inputResponses" },
      );
    }
    const t = await this.find(id, rc);
    // Unknown, answered or superseded keys are ignored (the update is eventually consistent).
    if (t.status !== "input_required") return {};
    const entry = this.running.get(id);
    if (entry !== undefined) await this.answer(id, entry, responses as Record<string, unknown>);
    else await this.options.relay?.input(id, responses as Record<string, unknown>);
    return {};
  }

  /** Answers relayed from another instance, for a run this one holds (else ignored). */
  async remoteInput(taskId: string, responses: Readonly<Record<string, unknown>>): Promise<void> {
    const entry = this.running.get(taskId);
    if (entry !== undefined) await this.answer(taskId, entry, responses);
  }

  /** The task was cancelled through another instance: stop its run here, if this one holds it. */
  remoteCancel(taskId: string): void {
    this.stop(taskId, new Error("task cancelled"));
  }

  private async answer(id: string, entry: Running<C>, responses: Readonly<Record<string, unknown>>): Promise<void> {
    let answered = 0;
    for (const [key, value] of Object.entries(responses)) {
      if (!entry.outstanding.has(key)) continue;
      entry.answers[key] = value;
      entry.outstanding.delete(key);
      answered++;
    }
    if (answered === 0) return;
    if (entry.outstanding.size > 0) {
      await this.change(id, { status: "input_required", inputRequests: Object.fromEntries(entry.outstanding) });
      return;
    }
    await this.change(id, { status: "working" });
    this.rerun(id, entry);
  }

  async cancel(params: Params | undefined, rc: RequestContext): Promise<Result> {
    this.gate("tasks/cancel", rc);
    const id = taskId(params);
    const t = await this.find(id, rc);
    if (!TERMINAL.has(t.status)) {
      const after = await this.options.store.cancel(id, ownerOf(rc), "cancelled by the client");
      if (after !== undefined) this.options.onchange?.(detailed(after));
      if (this.running.has(id)) this.stop(id, new Error("task cancelled"));
      // The store says cancelled already; the run elsewhere learns it now rather than by its end.
      else this.options.relay?.cancel(id).catch((e: Error) => this.options.report(e));
    }
    return {};
  }

  /** Abort every task run (the server is closing); their tasks stay in the store as they are. */
  close(): void {
    // oxlint-disable-next-line unicorn/no-useless-spread -- the body removes entries: iterate a snapshot
    for (const id of [...this.running.keys()]) this.stop(id, new Error("server closing"));
  }

  private gate(method: string, rc: RequestContext): void {
    if (!declaresTasks(identityOf(rc.meta).capabilities)) throw missingExtension(method);
  }

  private async find(id: string, rc: RequestContext): Promise<TaskRecord> {
    const t = await this.options.store.get(id, ownerOf(rc));
    if (t === undefined) throw unknownTask(id);
    return t;
  }

  private stop(id: string, reason: Error): void {
    const entry = this.running.get(id);
    if (entry === undefined) return;
    this.forget(id, entry);
    entry.controller.abort(reason);
  }

  private forget(id: string, entry: Running<C>): void {
    this.running.delete(id);
    this.owners.remove(entry.owner);
    entry.expiry?.();
  }

  private async change(id: string, change: Parameters<TaskStore["update"]>[1]): Promise<void> {
    const t = await this.options.store.update(id, change);
    if (t !== undefined) this.options.onchange?.(detailed(t));
  }

  /** `ctx.setStatusMessage` of a task run: the task's statusMessage, unless the run is over. */
  private async statusMessage(id: string | undefined, signal: AbortSignal, message: string): Promise<void> {
    if (typeof message !== "string") throw new TypeError("setStatusMessage: the message must be a string");
    if (id === undefined || signal.aborted || !this.running.has(id)) return;
    await this.change(id, { statusMessage: message.length > 1000 ? `${message.slice(0, 1000)}…` : message });
  }

  /** The end of a task-phase run: the result (also an `isError` one) or the JSON-RPC error. */
  private async finish(id: string | undefined, outcome: { result: Result } | { error: unknown }): Promise<void> {
    if (id === undefined) return;
    const entry = this.running.get(id);
    // A cancelled (or shut down) task's run may still end, by its abort or otherwise: nothing to record.
    if (entry === undefined || entry.controller.signal.aborted) return;
    this.forget(id, entry);
    try {
      if ("result" in outcome) {
        await this.change(id, { status: "completed", result: outcome.result });
      } else {
        const error = failureOf(outcome.error, this.options.report);
        await this.change(id, { status: "failed", error, statusMessage: error.message });
      }
    } catch (e) {
      this.options.report(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** The task's stand-in for the answered request: its own signal, and no notifications. */
  private taskContext(rc: RequestContext, signal: AbortSignal): RequestContext {
    return {
      requestId: rc.requestId,
      method: rc.method,
      meta: rc.meta,
      signal,
      transportContext: rc.transportContext,
      get cancelled() {
        return signal.aborted;
      },
      sendProgress: async () => {},
      sendNotification: async () => {},
      sendRequest: () =>
        Promise.reject(
          new McpError(
            ErrorCode.InternalError,
            "Internal error: a task asks for input through inputRequests, not requests",
          ),
        ),
    };
  }

  /** A task-phase input round: a missing answer parks the task in `input_required`. */
  private round(entry: Running<C>, id: () => string | undefined, ctx: TaskRunContext): InputRound {
    const round: InputRound = new InputRound(entry.answers, entry.identity.capabilities, true, "tools/call", () => {
      ctx.abandon();
      const taskId = id();
      if (taskId === undefined || entry.controller.signal.aborted) return;
      entry.outstanding = new Map(round.missing);
      void this.change(taskId, { status: "input_required", inputRequests: Object.fromEntries(round.missing) }).catch(
        (e: Error) => this.options.report(e),
      );
    });
    return round;
  }

  private rerun(id: string, entry: Running<C>): void {
    const rc = this.taskContext(entry.rc, entry.controller.signal);
    const ctx = this.context(rc, entry.identity, undefined);
    ctx.round = this.round(entry, () => id, ctx);
    ctx.onStatus = (m) => this.statusMessage(id, entry.controller.signal, m);
    // A run that blocked for input again was abandoned: the round's callback parked the task.
    (async () => entry.body(ctx))().then(
      async (result) => {
        if (!ctx.round.isBlocked) await this.finish(id, { result });
      },
      async (e: unknown) => {
        if (e instanceof McpError || !ctx.round.isBlocked) await this.finish(id, { error: e });
      },
    );
  }
}

const TASK_REQUEST = {
  kind: "request",
  from: "client",
  capability: null,
  paramsRequired: true,
  resultType: "Result",
} as const;

/**
 * A 2026-07-28 binding that also knows the extension's methods (the core schema has none of
 * them); their params are checked by the handlers above.
 */
export function withTaskMethods(binding: ProtocolBinding): ProtocolBinding {
  return deriveBinding(binding, {
    methods: (methods) => ({
      ...methods,
      "tasks/get": { ...TASK_REQUEST, paramsType: "GetTaskRequestParams" },
      "tasks/update": { ...TASK_REQUEST, paramsType: "UpdateTaskRequestParams" },
      "tasks/cancel": { ...TASK_REQUEST, paramsType: "CancelTaskRequestParams" },
      "notifications/tasks": {
        kind: "notification",
        from: "server",
        capability: null,
        paramsRequired: true,
        paramsType: "DetailedTask",
        resultType: null,
      },
    }),
  });
}
