/**
 * Problems found while extracting a manifest from TypeScript: each names the source file, the
 * line and column of the declaration at fault, and the manifest JSON pointer the value would
 * have gone to, so the author sees both where to fix it and what it would have become.
 */
import { relative } from "node:path";
import type { Node } from "ts-morph";
import { InputError, type Diagnostic } from "../load/diagnostics.js";

export class Problems {
  readonly list: Diagnostic[] = [];

  constructor(
    /** Working directory: files are named relative to it. */
    private readonly cwd: string,
  ) {}

  error(node: Node, pointer: string, message: string): void {
    this.list.push({ severity: "error", pointer, message, ...this.where(node) });
  }

  warn(node: Node, pointer: string, message: string): void {
    this.list.push({ severity: "warning", pointer, message, ...this.where(node) });
  }

  get errors(): number {
    return this.list.filter((d) => d.severity === "error").length;
  }

  get warnings(): Diagnostic[] {
    return this.list.filter((d) => d.severity === "warning");
  }

  /** Throws every problem at once (sorted by position) when any is an error. */
  throwIfErrors(file: string): void {
    if (this.errors === 0) return;
    const sorted = [...this.list].sort((a, b) =>
      a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1,
    );
    throw new InputError(file, sorted);
  }

  private where(node: Node): { file: string; line: number; column: number } {
    const sf = node.getSourceFile();
    const { line, column } = sf.getLineAndColumnAtPos(node.getStart());
    return { file: relative(this.cwd, sf.getFilePath()).split("\\").join("/") || sf.getFilePath(), line, column };
  }
}
