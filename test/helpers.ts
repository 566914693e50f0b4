import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root (tests run from dist/test/..., sources live two levels up from there). */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export const revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** A fresh temp dir; call the returned cleanup in `finally`/`after`. */
export function tempDir(prefix = "mcpgen-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Resolves an RFC 6901 pointer inside `doc`; undefined when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === "") return doc;
  let cur: unknown = doc;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof cur !== "object" || cur === null || !Object.prototype.hasOwnProperty.call(cur, token)) return undefined;
    cur = (cur as Record<string, unknown>)[token];
  }
  return cur;
}
