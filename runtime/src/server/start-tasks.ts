/**
 * The task machinery of a server whose tools may run as tasks, built once the definition's `tasks`
 * thunk has loaded it (core.ts): exported by @mcpgen/runtime/tasks/server, so a server without
 * task tools carries none of it.
 */
import { MemoryTaskStore } from "../tasks/store.js";
import { LegacyTasks } from "../tasks/legacy.js";
import { ModernTasks } from "./modern-tasks.js";
import type { ServerTasksModule, StartedTasks, TasksStart } from "./types.js";

// Its runs get ModernContext, a HandlerContext: McpServer's view of it, as the generated server
// checks the module against (only the private map of runs is typed apart).
const ServerModernTasks = ModernTasks as unknown as ServerTasksModule["ModernTasks"];

export function startTasks({ options, legacy, codec, pageSize, onchange, report, bus }: TasksStart): StartedTasks {
  const { store: given, maxTasks, maxTasksPerOwner, graceMs, ...bounds } = options ?? {};
  // One store for both eras: a task is found by its id whichever flow made it.
  const store =
    given ??
    new MemoryTaskStore({
      ...(maxTasks !== undefined ? { maxTasks } : {}),
      ...(maxTasksPerOwner !== undefined ? { maxTasksPerOwner } : {}),
    });
  return {
    legacy: legacy ? new LegacyTasks({ store, ...bounds, pageSize, report }) : undefined,
    modern:
      codec === undefined
        ? undefined
        : new ServerModernTasks(codec, {
            store,
            ...(graceMs !== undefined ? { graceMs } : {}),
            ...bounds,
            onchange,
            report,
            bus,
          }),
  };
}
