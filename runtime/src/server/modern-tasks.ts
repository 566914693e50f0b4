/**
 * The 2026-07-28 tasks extension as the server runs it (tasks/modern.ts): a task-eligible call's
 * handler gets the same 2026-07-28 context as any other call's (modern-context.ts).
 */
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import { TasksExtension, type ModernTasksOptions } from "../tasks/modern.js";
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
