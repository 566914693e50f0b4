/**
 * The task machinery of a server whose tools may run as tasks, built once the definition's `tasks`
 * thunk has loaded it (core.ts): exported by @mcpgen/runtime/tasks/server, so a server without
 * task tools carries none of it.
 */
import { MemoryTaskStore } from "../tasks/store.js";
import { LegacyTasks } from "../tasks/legacy.js";
import { ModernTasks } from "./modern-tasks.js";
import type { ProtocolBinding } from "../abi.js";
import type { ServerTasksModule, TasksHost } from "./types.js";

// Its runs get ModernContext, a HandlerContext: McpServer's view of it, as the generated server
// checks the module against (only the private map of runs is typed apart).
const ServerModernTasks = ModernTasks as unknown as ServerTasksModule["ModernTasks"];

export async function startTasks(host: TasksHost): Promise<void> {
  // Whether a revision's schema has core tasks is in its method table, which loads when a
  // connection first uses the revision: here only which revisions' tools declare task support.
  const taskRevisions = (bindings: readonly ProtocolBinding[]) =>
    bindings.filter((b) => host.declaresTaskTools(b.revision)).map((b) => b.revision);
  const modern = taskRevisions(host.modern).length > 0;
  // The 2026-07-28 tasks take the requestState codec, made with the MRTR code.
  if (modern) await host.inputsReady();
  // Another connection's start may have built it meanwhile.
  if (host.tasksStarted) return;
  host.tasksStarted = true;
  host.taskToolRevisions = new Set(taskRevisions(host.legacy));
  const { store: given, maxTasks, maxTasksPerOwner, graceMs, ...bounds } = host.options.tasks ?? {};
  const { pageSize, report } = host;
  // One store for both eras: a task is found by its id whichever flow made it.
  const store =
    given ??
    new MemoryTaskStore({
      ...(maxTasks !== undefined ? { maxTasks } : {}),
      ...(maxTasksPerOwner !== undefined ? { maxTasksPerOwner } : {}),
    });
  host.legacyTasks =
    host.taskToolRevisions.size > 0 ? new LegacyTasks({ store, ...bounds, pageSize, report }) : undefined;
  host.tasks = modern
    ? new ServerModernTasks(host.codec!, {
        store,
        ...(graceMs !== undefined ? { graceMs } : {}),
        ...bounds,
        onchange: host.ontaskchange,
        report,
        bus: host.options.bus,
      })
    : undefined;
}
