import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
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

/**
 * `@mcpgen/runtime`'s "exports" as key -> absolute path of its JavaScript, a pattern entry
 * (`./protocol/<rev>/server-side/*`) expanded to every file of dist/ it matches, as
 * bin/bundle-runtime.mjs bundles them.
 */
export function runtimeEntryFiles(
  runtimeDir: string,
  exports: Record<string, string | { default: string }>,
): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? walk(p).map((f) => `${name}/${f}`) : [name];
    });
  for (const [key, t] of Object.entries(exports)) {
    if (typeof t === "string") continue;
    if (!key.includes("*")) {
      out.set(key, join(runtimeDir, t.default));
      continue;
    }
    const [head, tail] = t.default.split("*") as [string, string];
    for (const f of walk(join(runtimeDir, head)).filter((f) => f.endsWith(tail)))
      out.set(key.replace("*", f.slice(0, -tail.length)), join(runtimeDir, head, f));
  }
  return out;
}
