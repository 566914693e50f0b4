import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { McpgenError } from "../errors.js";
import type { EmittedFile } from "../model/ir.js";
import { compareOutput, isClean } from "./compare.js";
import { compilerOutputSuffix, describeStrayFiles, isGeneratedFile } from "./stray.js";

export interface CommitResult {
  /** False when the directory already held exactly these files (nothing was touched). */
  written: boolean;
}

/**
 * Replaces `outDir` with exactly `files`: they are written into a sibling temp directory that is
 * then renamed into place, so a failure at any point leaves the previous output untouched. The
 * output directory is owned by mcpgen; a file in it without the @generated banner stops the run
 * rather than being deleted. `display` names the directory in messages.
 */
export function commitOutput(outDir: string, files: readonly EmittedFile[], display: string): CommitResult {
  const fail = (message: string, e?: unknown): never => {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    throw new McpgenError(`${message}${code ? ` (${code})` : ""}`, { file: display });
  };
  let exists = false;
  try {
    const st = statSync(outDir);
    if (!st.isDirectory()) fail("output path exists and is not a directory");
    exists = true;
  } catch (e) {
    if (e instanceof McpgenError) throw e;
    if ((e as NodeJS.ErrnoException).code === "ENOTDIR")
      fail("cannot create output directory: a parent is not a directory", e);
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") fail("cannot access output directory", e);
  }
  if (exists) {
    const diff = compareOutput(outDir, files);
    if (isClean(diff)) return { written: false };
    const foreign = new Set(diff.extra.filter((extra) => !isGeneratedFile(join(outDir, extra))));
    if (foreign.size) {
      // a file with the banner is output of an earlier run (a tool since removed) and would go;
      // tsc's copies keep the banner too, but are named with the rest so that one command deletes them
      const sources = new Set(files.map((f) => f.path));
      const stray = diff.extra.filter(
        (extra) => foreign.has(extra) || compilerOutputSuffix(extra, sources) !== undefined,
      );
      const missing = new Set(diff.missing);
      const onDisk = [...diff.extra, ...files.map((f) => f.path).filter((p) => !missing.has(p))];
      fail(`refusing to replace the output directory: ${describeStrayFiles({ display, stray, onDisk, sources })}`);
    }
  }

  const parent = dirname(outDir);
  try {
    mkdirSync(parent, { recursive: true });
  } catch (e) {
    fail("cannot create output directory", e);
  }
  const stamp = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const tmp = join(parent, `.${basename(outDir)}.mcpgen-tmp-${stamp}`);
  try {
    mkdirSync(tmp);
  } catch (e) {
    fail("cannot write output directory", e);
  }
  try {
    for (const f of files) {
      const abs = join(tmp, f.path);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, f.contents);
    }
    if (!exists) {
      renameSync(tmp, outDir);
    } else {
      const old = join(parent, `.${basename(outDir)}.mcpgen-old-${stamp}`);
      renameSync(outDir, old);
      try {
        renameSync(tmp, outDir);
      } catch (e) {
        renameSync(old, outDir);
        throw e;
      }
      rmSync(old, { recursive: true, force: true });
    }
  } catch (e) {
    if (existsSync(tmp)) rmSync(tmp, { recursive: true, force: true });
    fail("cannot write output directory", e);
  }
  return { written: true };
}
