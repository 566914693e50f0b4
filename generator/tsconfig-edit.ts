/**
 * Edits of a tsconfig.json that keep everything else as the user wrote it: comments, trailing
 * commas, order, indentation. `tsc --init` writes a commented file (JSONC) listing options it
 * leaves off as comments (`// "outDir": "./dist",`); an option set here replaces its commented
 * line, so the file reads as if the user had uncommented it. Positions come from TypeScript's
 * JSON parser (the one ts-morph ships); values are JSON.
 */
import type { ts as Ts } from "ts-morph";

type Typescript = typeof Ts;
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** A tsconfig.json as TypeScript parsed it, and the edits planned for it (made by `apply`). */
export class TsconfigEditor {
  private readonly splices: Splice[] = [];
  /** Properties new to an object (no property and no commented line of that name), `"key": value`, in the order set. */
  private readonly added = new Map<Ts.ObjectLiteralExpression, string[]>();
  /** compilerOptions to create when the file has none. */
  private readonly newCompilerOptions: [string, Json][] = [];

  constructor(
    private readonly ts: Typescript,
    readonly file: Ts.JsonSourceFile,
    readonly root: Ts.ObjectLiteralExpression,
  ) {}

  /** The property `key` of `object` (the last one, as JSON.parse reads duplicates). */
  property(object: Ts.ObjectLiteralExpression, key: string): Ts.PropertyAssignment | undefined {
    let found: Ts.PropertyAssignment | undefined;
    for (const p of object.properties) {
      if (
        this.ts.isPropertyAssignment(p) &&
        p.name !== undefined &&
        (this.ts.isStringLiteral(p.name) || this.ts.isIdentifier(p.name)) &&
        p.name.text === key
      )
        found = p;
    }
    return found;
  }

  /** compilerOptions as an object literal: undefined when absent, null when it is something else. */
  compilerOptions(): Ts.ObjectLiteralExpression | undefined | null {
    const p = this.property(this.root, "compilerOptions");
    if (p === undefined) return undefined;
    return this.ts.isObjectLiteralExpression(p.initializer) ? p.initializer : null;
  }

  /** 1-based line and column of a node (or of the file's start). */
  position(node: Ts.Node | undefined): { line: number; column: number } {
    const at = this.file.getLineAndCharacterOfPosition(node ? node.getStart(this.file) : 0);
    return { line: at.line + 1, column: at.character + 1 };
  }

  /** Where `key` is in `object`: the property, else its commented-out line; undefined when neither is there. */
  locate(object: Ts.ObjectLiteralExpression, key: string): { line: number; column: number } | undefined {
    const p = this.property(object, key);
    if (p) return this.position(p);
    const commented = this.commentedLine(object, key);
    if (commented === undefined) return undefined;
    const at = this.file.getLineAndCharacterOfPosition(commented.start);
    return { line: at.line + 1, column: at.character + 1 };
  }

  /** Sets `key` in `object` (compilerOptions when undefined and the file has none). */
  set(object: Ts.ObjectLiteralExpression | undefined, key: string, value: Json): void {
    if (object === undefined) {
      this.newCompilerOptions.push([key, value]);
      return;
    }
    const existing = this.property(object, key);
    if (existing) {
      this.splices.push({
        start: existing.initializer.getStart(this.file),
        end: existing.initializer.end,
        text: json(value),
      });
      return;
    }
    const commented = this.commentedLine(object, key);
    if (commented) {
      this.splices.push({
        start: commented.start,
        end: commented.end,
        text: `${JSON.stringify(key)}: ${json(value)},`,
      });
      return;
    }
    this.added.set(object, [...(this.added.get(object) ?? []), `${JSON.stringify(key)}: ${json(value)}`]);
  }

  /** Appends `value` to the array `key` of `object` (which must be an array literal). */
  append(array: Ts.ArrayLiteralExpression, value: Json): void {
    const last = array.elements[array.elements.length - 1];
    if (last === undefined)
      this.splices.push({ start: array.getStart(this.file), end: array.end, text: json([value]) });
    else this.splices.push({ start: last.end, end: last.end, text: `, ${json(value)}` });
  }

  /** Removes the property, with its line when it stands alone there, and its comma. */
  remove(property: Ts.PropertyAssignment): void {
    const text = this.file.text;
    let start = property.getStart(this.file);
    let end = property.end;
    while (end < text.length && /[ \t]/.test(text[end]!)) end++;
    if (text[end] === ",") end++;
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    const rest = /^[ \t]*(?:\r?\n|$)/.exec(text.slice(end));
    if (/^[ \t]*$/.test(text.slice(lineStart, start))) {
      if (rest) {
        start = lineStart;
        end += rest[0].length;
      } else end += /^[ \t]*/.exec(text.slice(end))![0].length; // a comment after it takes its place on the line
    }
    this.splices.push({ start, end, text: "" });
  }

  /** The file with every planned edit applied, or undefined when none is planned. */
  apply(): string | undefined {
    const added = new Map(this.added);
    if (this.newCompilerOptions.length) {
      const indent = this.indentOf(this.root);
      const inner = this.newCompilerOptions.map(([k, v]) => `${indent}${indent}${JSON.stringify(k)}: ${json(v)}`);
      added.set(this.root, [`"compilerOptions": {\n${inner.join(",\n")}\n${indent}}`, ...(added.get(this.root) ?? [])]);
    }
    // one insertion per object, so no two edits touch the same text
    const splices = [...this.splices, ...[...added].map(([object, entries]) => this.insertion(object, entries))];
    if (splices.length === 0) return undefined;
    splices.sort((a, b) => b.start - a.start);
    let text = this.file.text;
    for (const s of splices) text = text.slice(0, s.start) + s.text + text.slice(s.end);
    return text;
  }

  /** New properties go first in their object, on lines of their own, indented like their neighbours. */
  private insertion(object: Ts.ObjectLiteralExpression, entries: string[]): Splice {
    const open = object.getStart(this.file) + 1;
    const indent = this.indentOf(object);
    const lines = entries.map((e) => indent + e).join(",\n");
    if (object.properties.length) return { start: open, end: open, text: `\n${lines},` };
    const close = object.end - 1;
    // an empty object: the closing brace gets a line of its own; comments inside stay after the new lines
    if (/^\s*$/.test(this.file.text.slice(open, close)))
      return { start: open, end: close, text: `\n${lines}\n${this.lineIndent(object.getStart(this.file))}` };
    return { start: open, end: open, text: `\n${lines}` };
  }

  /** Indentation of the properties of `object`: its first one's, else one step more than the object's line. */
  private indentOf(object: Ts.ObjectLiteralExpression): string {
    const first = object.properties[0];
    if (first) {
      const start = first.getStart(this.file);
      const lineStart = this.file.text.lastIndexOf("\n", start - 1) + 1;
      const before = this.file.text.slice(lineStart, start);
      if (/^[ \t]+$/.test(before)) return before;
    }
    const step = /^[ \t]+(?=")/m.exec(this.file.text)?.[0] ?? "  ";
    return this.lineIndent(object.getStart(this.file)) + step;
  }

  private lineIndent(position: number): string {
    const lineStart = this.file.text.lastIndexOf("\n", position - 1) + 1;
    return /^[ \t]*/.exec(this.file.text.slice(lineStart))![0];
  }

  /**
   * A line `// "key": ...` directly inside `object` (not inside one of its properties) that a
   * property follows, so the uncommented line can end with a comma. Its span runs from `//` to
   * the end of the line.
   */
  private commentedLine(object: Ts.ObjectLiteralExpression, key: string): { start: number; end: number } | undefined {
    const text = this.file.text;
    const from = object.getStart(this.file) + 1;
    const to = object.end - 1;
    const line = new RegExp(`^[ \\t]*(//[ \\t]*${escape(JSON.stringify(key))}[ \\t]*:.*?)[ \\t]*$`, "gm");
    line.lastIndex = from;
    for (let m = line.exec(text); m !== null && m.index < to; m = line.exec(text)) {
      const start = m.index + m[0].indexOf("//");
      const inside = object.properties.some((p) => p.getStart(this.file) <= start && start < p.end);
      const followed = object.properties.some((p) => p.getStart(this.file) > start);
      if (!inside && followed) return { start, end: start + m[1]!.length };
    }
    return undefined;
  }
}

/** JSON on one line, arrays spaced as `tsc --init` writes them (`["node", "jest"]`). */
export const json = (value: Json): string =>
  Array.isArray(value) ? `[${value.map(json).join(", ")}]` : JSON.stringify(value);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
