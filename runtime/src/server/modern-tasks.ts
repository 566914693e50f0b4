/**
 * The 2026-07-28 tasks extension as the server runs it (tasks/modern.ts): a task-eligible call's
 * handler gets the same 2026-07-28 context as any other call's (modern-context.ts).
 */
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import type { Capabilities } from "../lifecycle/common/types.js";
import { requestRevision as revisionOf } from "../lifecycle/modern/meta.js";
import { TASKS_EXTENSION, TasksExtension, type ModernTasksOptions, type TaskRunContext } from "../tasks/modern.js";
import type { InputRound } from "../lifecycle/modern/mrtr.js";
import type { RequestContext } from "../session/types.js";
import type { ServerTasksModule, TaskSupportOf } from "./types.js";
import type { ChangeBus } from "./change-bus.js";
import { ModernContext } from "./modern-context.js";
import * as inputs from "./inputs.js";

/** The context of a call that may become a task: the tasks extension drives it (TaskRunContext). */
class TaskContext extends ModernContext implements TaskRunContext {
  /** Set by the tasks extension when this call may become a task (see runAsTask). */
  onRunAsTask: (() => Promise<void>) | undefined;
  /** Set by the tasks extension once this call is a task (see setStatusMessage). */
  onStatus: ((message: string) => Promise<void>) | undefined;

  override runAsTask(): Promise<void> {
    return this.onRunAsTask?.() ?? Promise.resolve();
  }

  override setStatusMessage(message: string): Promise<void> {
    return this.onStatus?.(message) ?? Promise.resolve();
  }

  /**
   * The call became a task: from now on the run answers to the task (its signal; no progress or
   * log notifications, which tasks do not carry) and asks for input through the task's round.
   */
  detach(task: RequestContext, round: InputRound): void {
    this.unlink?.();
    this.unlink = undefined;
    this.rc = task;
    this.round = round;
    if (this.run !== undefined) this.link(this.run);
  }
}

export class ModernTasks extends TasksExtension<TaskContext> {
  /** With `bus`: task changes reach the other instances' listens, and cancel and input the instance running the task. */
  constructor(codec: RequestStateCodec, options: ModernTasksOptions & { bus?: ChangeBus | undefined }) {
    const { bus, ...rest } = options;
    super(
      codec,
      bus === undefined
        ? rest
        : {
            ...rest,
            onchange: (task) => {
              rest.onchange?.(task);
              bus.publish({ kind: "task", task }).catch(rest.report);
            },
            relay: {
              cancel: (taskId) => bus.publish({ kind: "taskCancel", taskId }),
              input: (taskId, responses) => bus.publish({ kind: "taskInput", taskId, responses }),
            },
          },
      (rc, identity, round) => new TaskContext(rc, identity, round, inputs),
    );
  }
}

/** A 2026-07-28 revision's capabilities, with the tasks extension where its tools may run as tasks. */
export function withTasksExtension(
  core: Pick<TaskSupportOf, "declaresTaskTools">,
  revision: string,
  capabilities: Capabilities,
): Capabilities {
  if (!core.declaresTaskTools(revision)) return capabilities;
  const extensions = (capabilities as { extensions?: object }).extensions;
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** A 2026-07-28 `tools/call` of `tool` run as a task (by `run`), when the tool may and the client asked; undefined to run it as any call. */
export const callAsTask: ServerTasksModule["callAsTask"] = (core, p, rc, tool, args, run) => {
  const tasks = core.tasks!;
  const support = core.taskSupport(revisionOf(p), tool.name);
  if (support === "forbidden" || !tasks.asTask(rc, support, tool.name)) return undefined;
  return tasks.call(p, rc, async (ctx) => await run(ctx, tool, args));
};
