/**
 * Files in an output folder that `mcpgen generate` does not write, described so that one run
 * says everything: each file by name (up to MAX_STRAY_LISTED, then how many more) and the fix.
 * The usual cause is TypeScript compiler output next to the generated sources (`server.js`,
 * `server.d.ts`, their `.map`s), which tsc writes there when tsconfig.json has no "outDir"; it is
 * recognised by name, and the fix names the tsconfig change that stops it and the command that
 * deletes it.
 */

import { closeSync, openSync, readSync } from "node:fs";
import { hasBanner } from "../print/banner.js";

/** Files named in the message; a folder full of compiler output holds far more than a screenful. */
export const MAX_STRAY_LISTED = 50;

/** Emitted file suffix -> the source suffixes tsc emits it from. */
const EMITTED_FROM: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".d.ts": [".ts", ".tsx"],
  ".mjs": [".mts"],
  ".d.mts": [".mts"],
  ".cjs": [".cts"],
  ".d.cts": [".cts"],
};
const EMITTED = /^(.*?)(\.d\.ts|\.d\.mts|\.d\.cts|\.js|\.jsx|\.mjs|\.cjs)(\.map)?$/;

/** The suffix (`.js`, `.d.ts.map`, ...) of `path` when it is what tsc emits from a source in `sources`. */
export function compilerOutputSuffix(path: string, sources: ReadonlySet<string>): string | undefined {
  const m = EMITTED.exec(path);
  if (!m) return undefined;
  const [, stem, ext, map = ""] = m as unknown as [string, string, string, string | undefined];
  return EMITTED_FROM[ext]!.some((src) => sources.has(stem + src)) ? ext + map : undefined;
}

export interface StrayFiles {
  /** Output folder as the user names it (relative to the current directory). */
  display: string;
  /** Paths relative to the folder that generate would not write, sorted. */
  stray: readonly string[];
  /** Every file in the folder (relative paths), to check that a delete pattern matches stray files only. */
  onDisk: readonly string[];
  /** The TypeScript sources in the folder (generated or about to be), which compiler output is paired with. */
  sources: ReadonlySet<string>;
}

/**
 * "N files in it are not written by mcpgen generate:", the list, then one line per kind of fix.
 * Lines after the first are indented by two spaces, like the CLI's other multi-line errors.
 */
export function describeStrayFiles({ display, stray, onDisk, sources }: StrayFiles): string {
  const lines = [
    `${stray.length} file${stray.length === 1 ? "" : "s"} in it ${stray.length === 1 ? "is" : "are"} not written by mcpgen generate:`,
  ];
  for (const f of stray.slice(0, MAX_STRAY_LISTED)) lines.push(`    ${f}`);
  if (stray.length > MAX_STRAY_LISTED) lines.push(`    ... and ${stray.length - MAX_STRAY_LISTED} more`);
  const compiled = stray.filter((f) => compilerOutputSuffix(f, sources) !== undefined);
  const other = stray.length - compiled.length;
  if (compiled.length) {
    lines.push(
      `  ${compiled.length === stray.length ? (stray.length === 1 ? "It is" : "They are") : `${compiled.length} of them ${compiled.length === 1 ? "is" : "are"}`} TypeScript compiler output, ` +
        `written next to the generated .ts because tsconfig.json has no "outDir" (or one inside ${display}): ` +
        `set "outDir": "./dist" and "rootDir": "./src" in its compilerOptions, then delete them: ${deleteCommand(display, compiled, onDisk, sources)}`,
    );
  }
  if (other)
    lines.push(
      `  Move ${compiled.length ? `the other ${other}` : other === 1 ? "it" : "them"} out of ${display}: mcpgen owns that folder and replaces it whole`,
    );
  return lines.join("\n");
}

/**
 * `rm` with one glob per folder and suffix (`src/mcp/*.js`) where the glob matches compiler
 * output only, else the files by name.
 */
function deleteCommand(
  display: string,
  compiled: readonly string[],
  onDisk: readonly string[],
  sources: ReadonlySet<string>,
): string {
  const groups = new Map<string, string[]>();
  for (const f of compiled) {
    const slash = f.lastIndexOf("/");
    const key = `${f.slice(0, slash + 1)}*${compilerOutputSuffix(f, sources)!}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const args: string[] = [];
  for (const [glob, files] of groups) {
    const matched = onDisk.filter(globMatcher(glob));
    // a glob never matches a name starting with "." in the shell
    const hidden = files.some((f) => f.slice(f.lastIndexOf("/") + 1).startsWith("."));
    if (!hidden && matched.length === files.length) args.push(shellPath(display, glob, true));
    else args.push(...files.map((f) => shellPath(display, f, false)));
  }
  return `rm ${args.join(" ")}`;
}

/** `dir/*.suffix` as the shell reads it: a name in that folder, not starting with ".", ending in the suffix. */
function globMatcher(glob: string): (path: string) => boolean {
  const star = glob.indexOf("*");
  const dir = glob.slice(0, star);
  const suffix = glob.slice(star + 1);
  return (path) => {
    const name = path.slice(dir.length);
    return path.startsWith(dir) && !name.includes("/") && !name.startsWith(".") && name.endsWith(suffix);
  };
}

/** A POSIX shell word for `folder/rel`, quoted where needed, with a trailing glob left unquoted. */
function shellPath(folder: string, rel: string, glob: boolean): string {
  const path = `${folder.replace(/\/$/, "")}/${rel}`;
  const quote = (s: string) => (/^[\w./@+-]*$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
  if (!glob) return quote(path);
  const star = path.lastIndexOf("*");
  return quote(path.slice(0, star)) + "*" + quote(path.slice(star + 1));
}

/** Bytes read to find a file's banner line: more than the line can take (its one path is relative), while a stray file may be large. */
const BANNER_READ_BYTES = 8192;

/** Whether the file starts with mcpgen's banner; one that cannot be read does not. */
export function isGeneratedFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(BANNER_READ_BYTES);
    return hasBanner(buf.toString("utf8", 0, readSync(fd, buf, 0, BANNER_READ_BYTES, 0)));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
