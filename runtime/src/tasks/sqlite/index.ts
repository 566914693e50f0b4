/**
 * `@mcpgen/runtime/tasks/sqlite`: the durable task store, an entry point of its own so servers that
 * keep tasks in memory never load SQLite (better-sqlite3 is an optional peer dependency).
 */
export {
  openSqliteTaskStore,
  SqliteTaskStore,
  TaskStoreError,
  INTERRUPTED,
  type SqliteTaskStoreOptions,
} from "./store.js";
export type { SqliteDriver } from "./driver.js";
