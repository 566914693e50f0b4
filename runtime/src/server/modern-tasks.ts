/**
 * The 2026-07-28 tasks extension as the server runs it (tasks/modern.ts): a task-eligible call's
 * handler gets the same 2026-07-28 context as any other call's (modern-context.ts).
 */
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import { TasksExtension, type ModernTasksOptions } from "../tasks/modern.js";
import { ModernContext } from "./modern-context.js";

export class ModernTasks extends TasksExtension<ModernContext> {
  constructor(codec: RequestStateCodec, options: ModernTasksOptions) {
    super(codec, options, (rc, identity, round) => new ModernContext(rc, identity, round));
  }
}
