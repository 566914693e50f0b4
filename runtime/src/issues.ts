/**
 * Validation failures as the runtime reports them: invalid tool arguments (server) and an invalid
 * structured result (client). The fast validators stop at the first failure; when one refuses a
 * value, the definition's all-errors validators (imported on first use) find the others, so the
 * success path pays nothing. A report lists at most MAX_REPORTED_ISSUES failures, each with its
 * JSON pointer, and counts the rest.
 */
import type { ValidationIssue, Validator } from "./abi.js";
import { TooManyIssues } from "./ajv-runtime.js";
import { describe } from "./describe.js";
import { MAX_ISSUE_POINTER_CHARS, MAX_REPORTED_ISSUES } from "./limits.js";

export interface IssueReport {
  /** The failures listed, at most MAX_REPORTED_ISSUES. */
  readonly issues: readonly ValidationIssue[];
  /** Failures found beyond those listed. */
  readonly omitted: number;
  /** The all-errors validator stopped collecting (MAX_COLLECTED_ISSUES): `omitted` is a lower bound. */
  readonly atLeast: boolean;
}

/** A report of the failures a validator recorded for its last call. */
export function issueReport(issues: readonly ValidationIssue[] | null | undefined, atLeast = false): IssueReport {
  const all = issues ?? [];
  return {
    issues: all.length > MAX_REPORTED_ISSUES ? all.slice(0, MAX_REPORTED_ISSUES) : all,
    omitted: Math.max(0, all.length - MAX_REPORTED_ISSUES),
    atLeast,
  };
}

/**
 * The failures of `data`, which a fast validator refused with `first`: every one that `allErrors`
 * finds, or `first` when there is no all-errors validator or it finds nothing.
 */
export function collectIssues(
  first: readonly ValidationIssue[] | null | undefined,
  allErrors: Validator | undefined,
  data: unknown,
): IssueReport {
  if (allErrors === undefined) return issueReport(first);
  try {
    if (!allErrors(data) && allErrors.errors && allErrors.errors.length > 0) return issueReport(allErrors.errors);
  } catch (e) {
    if (e instanceof TooManyIssues) return issueReport(e.issues, true);
    throw e;
  }
  return issueReport(first);
}

/** A JSON pointer as reports quote it: cut when longer than MAX_ISSUE_POINTER_CHARS. */
export function issuePointer(pointer: string): string {
  return pointer.length > MAX_ISSUE_POINTER_CHARS ? `${pointer.slice(0, MAX_ISSUE_POINTER_CHARS - 1)}…` : pointer;
}

/** One failure as a report's text: its pointer, ajv's message, and the offending key or allowed values. */
function issueText(i: ValidationIssue): string {
  const p = i.params as { additionalProperty?: unknown; allowedValues?: unknown } | undefined;
  let detail = "";
  if (i.keyword === "additionalProperties" && p?.additionalProperty !== undefined)
    detail = `: ${describe(p.additionalProperty, 60)}`;
  else if (i.keyword === "enum" && Array.isArray(p?.allowedValues)) detail = `: ${describe(p.allowedValues, 120)}`;
  return `${issuePointer(i.instancePath) || "/"} ${i.message ?? i.keyword}${detail}`;
}

/** The report as one line: every listed failure, then how many more there are. */
export function describeIssues(report: IssueReport): string {
  if (report.issues.length === 0) return "invalid";
  const text = report.issues.map(issueText).join("; ");
  if (report.omitted === 0 && !report.atLeast) return text;
  return `${text}; and ${report.atLeast ? "at least " : ""}${report.omitted} more ${report.omitted === 1 ? "failure" : "failures"} not listed`;
}
