/**
 * The embedded SQLite behind SqliteTaskStore: `node:sqlite` where Node has it unflagged (22.13+,
 * 23.4+), else the optional peer dependency better-sqlite3 (a source build when no prebuilt binary
 * is reachable). Both are synchronous and share one statement shape, so the store sees only this.
 */
export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint };
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  all(...params: SqlValue[]): Record<string, unknown>[];
}

export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

export type SqlValue = string | number | null;

export type SqliteDriver = "node:sqlite" | "better-sqlite3";

/** Opens `file`, creating it when absent; `readonly` opens an existing file for reading only (nothing is created or written). */
type Opener = (file: string, readonly?: boolean) => SqlDatabase;

async function nodeSqlite(): Promise<Opener | undefined> {
  try {
    // A variable specifier keeps bundlers and TypeScript (whose Node 20 types lack it) out of it.
    const specifier = "node:sqlite";
    const m = (await import(specifier)) as {
      DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => SqlDatabase;
    };
    return (file, readonly) => (readonly ? new m.DatabaseSync(file, { readOnly: true }) : new m.DatabaseSync(file));
  } catch {
    return undefined;
  }
}

async function betterSqlite3(): Promise<Opener | undefined> {
  try {
    const { default: Database } = await import("better-sqlite3");
    return (file, readonly) =>
      readonly ? new Database(file, { readonly: true, fileMustExist: true }) : new Database(file);
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_MODULE_NOT_FOUND") return undefined;
    // Installed but its native addon failed to load (wrong ABI, missing build): say so.
    throw new Error(`better-sqlite3 is installed but does not load: ${(e as Error).message}`);
  }
}

/** The opener for `driver`, or the first available (node:sqlite, then better-sqlite3). */
export async function loadDriver(driver?: SqliteDriver): Promise<{ driver: SqliteDriver; open: Opener }> {
  if (driver !== "better-sqlite3") {
    const open = await nodeSqlite();
    if (open !== undefined) return { driver: "node:sqlite", open };
    if (driver === "node:sqlite")
      throw new Error(`node:sqlite is not available in Node ${process.versions.node} (it is unflagged from 22.13)`);
  }
  const open = await betterSqlite3();
  if (open !== undefined) return { driver: "better-sqlite3", open };
  throw new Error(
    `the SQLite task store needs node:sqlite (Node >= 22.13; this is ${process.versions.node}) or its optional peer dependency better-sqlite3: npm install better-sqlite3`,
  );
}
