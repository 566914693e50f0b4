/**
 * The 2026-07-28 tasks extension as the server runs it (tasks/modern.ts): a task-eligible call's
 * handler gets the same 2026-07-28 context as any other call's (modern-context.ts).
 */
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import type { Capabilities } from "../lifecycle/common/types.js";
import { requestRevision as revisionOf } from "../lifecycle/modern/meta.js";
import { TASKS_EXTENSION, TasksExtension, type ModernTasksOptions } from "../tasks/modern.js";
import type { ServerTasksModule, TaskSupportOf } from "./types.js";
import type { ChangeBus } from "./change-bus.js";
import { ModernContext } from "./modern-context.js";
import * as inputs from "./inputs.js";

export class ModernTasks extends TasksExtension<ModernContext> {
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
      (rc, identity, round) => new ModernContext(rc, identity, round, inputs),
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
