/**
 * `@mcpgen/runtime/tasks/server`: tasks on the server (2025-11-25 core tasks and the 2026-07-28
 * extension, one store for both). The generated `server.ts` of a manifest that declares
 * `execution.taskSupport` on some tool imports this (`definition.tasks`), and McpServer loads it
 * before its first connection starts; nothing else reaches it, so the server of a manifest without
 * task tools, any client, and their bundles never carry it.
 */
export { MemoryTaskStore } from "./store.js";
export { LegacyTasks } from "./legacy.js";
export { TASKS_EXTENSION, withTaskMethods } from "./modern.js";
export { ModernTasks, callAsTask, withTasksExtension } from "../server/modern-tasks.js";
export { callMaybeTask, taskHandlers, withTaskCapabilities } from "./legacy-server.js";
export { startTasks } from "../server/start-tasks.js";
