/**
 * Tasks on the server (2025-11-25 core tasks and the 2026-07-28 extension, one store for both).
 * McpServer (server.ts) loads this only when some tool declares `execution.taskSupport`, before
 * its first connection starts.
 */
export { MemoryTaskStore } from "../tasks/store.js";
export { LegacyTasks } from "../tasks/legacy.js";
export { ModernTasks, TASKS_EXTENSION, withTaskMethods } from "../tasks/modern.js";
export { callMaybeTask, taskHandlers, withTaskCapabilities } from "./legacy-tasks.js";
