import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile } from "../model/ir.js";

export interface OutputDiff {
  /** On disk with different contents. */
  stale: string[];
  /** Would be written, not on disk. */
  missing: string[];
  /** On disk, would not be written. */
  extra: string[];
}

/** Relative paths (with `/`) of all files under `dir`, sorted; [] when `dir` does not exist. */
export function listFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) out.push(...listFiles(abs).map((p) => `${name}/${p}`));
    else out.push(name);
  }
  return out;
}

export function compareOutput(dir: string, files: readonly EmittedFile[]): OutputDiff {
  const onDisk = new Set(listFiles(dir));
  const diff: OutputDiff = { stale: [], missing: [], extra: [] };
  for (const f of files) {
    if (!onDisk.has(f.path)) diff.missing.push(f.path);
    else if (readFileSync(join(dir, f.path), "utf8") !== f.contents) diff.stale.push(f.path);
    onDisk.delete(f.path);
  }
  diff.extra = [...onDisk].sort();
  return diff;
}

export function isClean(diff: OutputDiff): boolean {
  return diff.stale.length === 0 && diff.missing.length === 0 && diff.extra.length === 0;
}
