/**
 * Whose database a file is, found out without writing to it: the task store opens a file for
 * writing (which switches it to WAL) only once it is known to be empty or the store's own, so
 * another application's database is refused exactly as it was found. The file's header is
 * enough while it is the whole database (https://www.sqlite.org/fileformat2.html, "The Database
 * Header"); when a write-ahead log or rollback journal beside it may hold newer pages, a
 * read-only SQLite connection reads through them instead.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { SqlDatabase } from "./driver.js";

// 'mcpg': tells our file from someone else's SQLite database.
export const APPLICATION_ID = 0x6d637067;
export const SCHEMA_VERSION = 1;

/** What decides whether the store may use a database. */
export interface DatabaseIdentity {
  readonly applicationId: number;
  readonly userVersion: number;
  /** Rows of sqlite_schema (tables, indexes, views, triggers): 0 in a database nothing was created in. */
  readonly schemaObjects: number;
}

const MAGIC = Buffer.from("SQLite format 3\0", "latin1");
// The 100-byte database header, then page 1's b-tree page header (type at 100, cell count at 103).
const HEADER_BYTES = 108;
const LEAF_TABLE_PAGE = 13;
const INTERIOR_TABLE_PAGE = 5;

/**
 * The identity in `file`'s header: "absent" for no file or an empty one (a new store), "not
 * sqlite" for anything without an SQLite header, "ask sqlite" when a non-empty `-wal` or
 * `-journal` beside it means the header may be stale.
 */
export function headerIdentity(file: string): DatabaseIdentity | "absent" | "not sqlite" | "ask sqlite" {
  const size = fileSize(file);
  if (size === undefined || size === 0) return "absent";
  if ((fileSize(`${file}-wal`) ?? 0) > 0 || (fileSize(`${file}-journal`) ?? 0) > 0) return "ask sqlite";
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(file, "r");
  let read: number;
  try {
    read = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (read < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) return "not sqlite";
  const pageType = header[100];
  if (pageType !== LEAF_TABLE_PAGE && pageType !== INTERIOR_TABLE_PAGE) return "not sqlite";
  const cells = header.readUInt16BE(103);
  return {
    // Signed, as PRAGMA application_id and user_version report them.
    applicationId: header.readInt32BE(68),
    userVersion: header.readInt32BE(60),
    // An interior root page means more schema rows than one page holds.
    schemaObjects: pageType === LEAF_TABLE_PAGE ? cells : cells + 1,
  };
}

/** The identity as an open connection reads it (read-only or not, it only reads). */
export function sqlIdentity(db: SqlDatabase): DatabaseIdentity {
  const one = (sql: string) => db.prepare(sql).get() ?? {};
  return {
    applicationId: Number(one("PRAGMA application_id").application_id),
    userVersion: Number(one("PRAGMA user_version").user_version),
    schemaObjects: Number(one("SELECT count(*) AS n FROM sqlite_schema").n),
  };
}

/** Why the store must not use a database of this identity, or undefined when it may (empty, or its own). */
export function refusal(file: string, id: DatabaseIdentity): string | undefined {
  if (id.applicationId !== APPLICATION_ID && (id.applicationId !== 0 || id.schemaObjects > 0)) {
    return `${file} is an SQLite database but not an mcpgen task store (application_id ${id.applicationId}); it was left untouched`;
  }
  if (id.applicationId === APPLICATION_ID && id.userVersion !== SCHEMA_VERSION)
    return `${file} has task store schema ${id.userVersion}; this runtime reads ${SCHEMA_VERSION}`;
  return undefined;
}

function fileSize(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return undefined;
    throw e;
  }
}
