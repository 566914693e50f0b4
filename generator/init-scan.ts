/**
 * A bounded look through a project for the first file that passes a test, for `mcpgen init`'s
 * questions about code the project already has. Dependencies and dot folders are skipped; a tree
 * too large (or a folder unreadable) gives CANNOT_TELL rather than an unbounded walk.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Files and folders looked at before giving up (a project that large is not new). */
const MAX_ENTRIES_SCANNED = 10_000;
const MAX_DEPTH = 16;
export const CANNOT_TELL = Symbol("too many files, or one unreadable");

/**
 * The first file (path relative to `dir`, with `/`) for which `accept` holds, in directory order;
 * null when there is none. `skip` leaves out folders (relative paths) besides node_modules and dot folders.
 */
export function findFirstFile(
  dir: string,
  accept: (rel: string) => boolean,
  skip: (rel: string) => boolean = () => false,
): string | typeof CANNOT_TELL | null {
  let seen = 0;
  const walk = (rel: string, depth: number): string | typeof CANNOT_TELL | null => {
    if (depth > MAX_DEPTH) return CANNOT_TELL;
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return CANNOT_TELL;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES_SCANNED) return CANNOT_TELL;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".") || skip(path)) continue;
        const found = walk(path, depth + 1);
        if (found !== null) return found;
      } else if (entry.isFile() && accept(path)) return path;
    }
    return null;
  };
  return walk("", 0);
}
