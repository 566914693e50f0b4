/**
 * Lays out TypeScript that an emitter built line by line without indentation: two spaces per
 * open brace/bracket/paren, and a top-level union that would overflow the print width broken
 * one member per line, exactly as prettier lays it out. The result is a fixpoint of prettier
 * (default options, the given printWidth) for the constructs the type emitters produce, which a
 * test checks, so the print stage may skip the (slow) prettier pass for such files.
 * Brackets inside string literals and JSDoc lines are ignored.
 *
 * Kept for speed, for `types.ts` only (it grows with the manifest's schemas): prettier takes about
 * 2 s on the types of bench/manifest.ts's 50 deep tools, this about 0.2 s (bench/layout.ts,
 * docs/templates.md). Files with a template go through prettier instead.
 */
/** Prettier's own default printWidth, what a caller that names no width gets (the print stage names print/width.ts's). */
export const PRETTIER_DEFAULT_WIDTH = 80;

export function indentTs(text: string, width = PRETTIER_DEFAULT_WIDTH): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trimStart();
    if (line === "") {
      out.push("");
      continue;
    }
    if (line.startsWith("/**") || raw.startsWith(" *")) {
      out.push("  ".repeat(depth) + (line.startsWith("/**") ? line : raw));
      continue;
    }
    const closesFirst = /^[}\])]/.test(line) ? 1 : 0;
    const indent = "  ".repeat(Math.max(0, depth - closesFirst));
    out.push(...breakLongUnion(indent, line, width));
    depth = Math.max(0, depth + netBrackets(line));
  }
  return out.join("\n");
}

/** Visits `line` skipping string literals; `fn` gets each index at bracket depth 0. */
function topLevel(line: string, fn: (i: number) => boolean | void): void {
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < line.length && line[i] !== c; i++) if (line[i] === "\\") i++;
      continue;
    }
    if (c === "{" || c === "[" || c === "(" || c === "<") depth++;
    else if (c === "}" || c === "]" || c === ")" || c === ">") depth--;
    else if (depth === 0 && fn(i) === true) return;
  }
}

/** Splits `type` at top-level occurrences of `sep` (" | " or " & "). */
function splitTop(type: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  topLevel(type, (i) => {
    if (type.startsWith(sep, i)) {
      parts.push(type.slice(start, i));
      start = i + sep.length;
    }
  });
  parts.push(type.slice(start));
  return parts;
}

/**
 * Breaks `key?: T;`, `[key: string]: T;` or `export type X = T;` when longer than `width`, the
 * way prettier does: the whole union on the next line if it fits there, else one `| member` per
 * line; `(A | B)[]` opens a parenthesised block; an intersection continues after each `&`.
 */
function breakLongUnion(indent: string, line: string, width: number): string[] {
  if (indent.length + line.length <= width || !line.endsWith(";")) return [indent + line];
  let head = -1;
  const isAlias = line.startsWith("export type ");
  topLevel(line, (i) => {
    if (isAlias ? line.startsWith(" = ", i) : line.startsWith(": ", i)) {
      head = i;
      return true;
    }
  });
  if (head < 0) return [indent + line];
  const type = line.slice(head + (isAlias ? 3 : 2), -1);
  const lead = line.slice(0, head) + (isAlias ? " =" : ":");
  const members = splitTop(type, " | ");
  if (members.length >= 2) {
    if (indent.length + 2 + type.length + 1 <= width) return [indent + lead, `${indent}  ${type};`];
    return [indent + lead, ...members.map((m, k) => `${indent}  | ${m}${k === members.length - 1 ? ";" : ""}`)];
  }
  const arrayOfUnion = /^\((.*)\)\[\]$/.exec(type);
  if (arrayOfUnion && splitTop(arrayOfUnion[1]!, " | ").length >= 2 && !isAlias) {
    return [
      `${indent}${lead} (`,
      ...splitTop(arrayOfUnion[1]!, " | ").map((m) => `${indent}  | ${m}`),
      `${indent})[];`,
    ];
  }
  const parts = splitTop(type, " & ");
  if (parts.length >= 2 && !isAlias) {
    return [
      `${indent}${lead} ${parts[0]} &`,
      ...parts.slice(1).map((m, k) => `${indent}  ${m}${k === parts.length - 2 ? ";" : " &"}`),
    ];
  }
  return [indent + line];
}

function netBrackets(line: string): number {
  let net = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < line.length && line[i] !== c; i++) if (line[i] === "\\") i++;
    } else if (c === "{" || c === "[" || c === "(") net++;
    else if (c === "}" || c === "]" || c === ")") net--;
  }
  return net;
}
