/**
 * Diagnostics of input files: every problem names the file, the JSON pointer and what was
 * expected, and carries line/column when the source text is known. Loaders collect all of them
 * before failing so users fix a manifest in one pass.
 */

import { McpgenError } from "../errors.js";

export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  /** File as the user named it (relative to cwd), never absolute unless they passed one. */
  file: string;
  /** JSON pointer (RFC 6901) into the file; "" for the whole document. */
  pointer: string;
  message: string;
  line?: number;
  column?: number;
}

export function formatDiagnostic(d: Diagnostic): string {
  return formatAt(d, `${d.severity}: `);
}

/**
 * A warning as the `warn` callbacks of the API take it: without the severity, which the caller
 * adds once (the CLI prints `warning: <this>`), like the protocol schema's warnings.
 */
export function formatWarning(d: Diagnostic): string {
  return formatAt(d, "");
}

function formatAt(d: Diagnostic, label: string): string {
  const where = d.line !== undefined ? `${d.file}:${d.line}:${d.column ?? 1}` : d.file;
  return `${where}: ${label}${d.pointer === "" ? "(root)" : d.pointer}: ${d.message}`;
}

/**
 * Thrown when an input has at least one error; `diagnostics` holds every error and warning found.
 * A `McpgenError` (exit code 1) so the CLI prints the message, never a stack trace.
 */
export class InputError extends McpgenError {
  override name = "InputError";
  constructor(
    file: string,
    readonly diagnostics: Diagnostic[],
  ) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(
      `${errors.length} error${errors.length === 1 ? "" : "s"}\n` +
        diagnostics.map((d) => "  " + formatDiagnostic(d)).join("\n"),
      { file, exitCode: 1 },
    );
  }
}
