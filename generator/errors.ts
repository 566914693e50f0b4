/**
 * The one error type of the generator. It carries what a user needs to fix the input (the file,
 * the JSON pointer inside it, what was expected) and the CLI exit code, so the CLI can print it
 * without a stack trace.
 */
import { escapePointerToken } from "./json-schema/pointer.js";

export type ExitCode = 1 | 2;

export interface McpgenErrorDetails {
  /** The file at fault, as the user named it (a bundled revision id or a path relative to cwd). */
  file?: string;
  /** JSON pointer (RFC 6901) inside `file`. */
  pointer?: string;
  /** What the generator expected to find there. */
  expected?: string;
  /** 1 = invalid input or failed check, 2 = usage error. */
  exitCode?: ExitCode;
}

export class McpgenError extends Error {
  override name = "McpgenError";
  readonly file: string | undefined;
  readonly pointer: string | undefined;
  readonly expected: string | undefined;
  readonly exitCode: ExitCode;

  constructor(message: string, details: McpgenErrorDetails = {}) {
    super(formatMessage(message, details));
    this.file = details.file;
    this.pointer = details.pointer;
    this.expected = details.expected;
    this.exitCode = details.exitCode ?? 1;
  }
}

function formatMessage(message: string, d: McpgenErrorDetails): string {
  let where = d.file ?? "";
  if (d.pointer !== undefined) where += `${where ? " " : ""}at ${d.pointer === "" ? "/ (document root)" : d.pointer}`;
  let text = where ? `${where}: ${message}` : message;
  if (d.expected) text += ` (expected ${d.expected})`;
  return text;
}

export function usageError(message: string): McpgenError {
  return new McpgenError(message, { exitCode: 2 });
}

/** The JSON pointer of a path of keys. */
export function pointer(...tokens: string[]): string {
  return tokens.map((t) => "/" + escapePointerToken(t)).join("");
}
