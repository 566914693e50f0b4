/**
 * `tools/call`: argument validation reported the way the negotiated revision says (every failure,
 * bounded, found by the definition's all-errors validator once the fast one refused), the
 * inputSchema's defaults filled into the handler's copy, the user's handler, and the structured
 * output checked against outputSchema before anything is sent.
 */
import type { ValidationIssue, Validator } from "../abi.js";
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { collectIssues, describeIssues, issuePointer, issueReport, type IssueReport } from "../issues.js";
import type { CallToolResult } from "../mcp-types.js";
import { isBranded, unbrand } from "./results.js";
import type { HandlerContext, ToolHandler } from "./types.js";

export interface ToolEntry {
  readonly name: string;
  readonly handler: ToolHandler;
  readonly input: Validator;
  readonly output: Validator | null;
  /** The handler's copy of valid arguments with the inputSchema's `default`s filled in; undefined when none apply. */
  readonly defaults: ((input: unknown) => unknown) | undefined;
  /** The input validator that finds every failure, imported on first use; undefined when the definition has none. */
  readonly allErrors: (() => Promise<Validator | undefined>) | undefined;
}

/** Since 2025-11-25 invalid arguments are tool execution errors the model can see, not protocol errors. */
export function argumentErrorsAsResults(revision: string): boolean {
  return revision >= "2025-11-25";
}

/** `structuredContent` exists on the wire from 2025-06-18. */
function hasStructuredContent(revision: string): boolean {
  return revision >= "2025-06-18";
}

export class InvalidToolOutputError extends Error {
  override name = "InvalidToolOutputError";
  readonly issues: readonly ValidationIssue[];
  constructor(
    readonly tool: string,
    issues: readonly ValidationIssue[],
    readonly output: unknown,
  ) {
    const report = issueReport(issues);
    super(
      `Tool ${JSON.stringify(tool)} returned structured output that does not match its outputSchema: ${describeIssues(report)}; the result was not sent`,
    );
    this.issues = report.issues;
  }
}

/** A tools/call's result, synchronous when the handler is (a bad output throws). */
export function runTool(
  tool: ToolEntry,
  args: unknown,
  ctx: HandlerContext,
  report: (e: Error) => void,
): CallToolResult | Promise<CallToolResult> {
  if (!tool.input(args)) return invalidArguments(tool, args, ctx.revision);
  // Filled after validation, copied on write: the defaults are annotations the peer's arguments
  // were checked without, and the arguments stay as sent (2026-07-28 requestState digests them).
  const input = tool.defaults === undefined ? args : tool.defaults(args);
  let returned: unknown;
  try {
    returned = (tool.handler as (input: unknown, ctx: HandlerContext) => unknown)(input, ctx);
  } catch (e) {
    return toolFailure(e, ctx, report);
  }
  if (
    returned !== null &&
    typeof returned === "object" &&
    typeof (returned as PromiseLike<unknown>).then === "function"
  ) {
    return Promise.resolve(returned).then(
      (r) => toolCallResult(tool, r, ctx.revision),
      (e: unknown) => toolFailure(e, ctx, report),
    );
  }
  return toolCallResult(tool, returned, ctx.revision);
}

/**
 * Arguments the input validator refused: every failure (bounded) when the definition has an
 * all-errors validator (a promise: it may have to be imported), else the first.
 */
function invalidArguments(tool: ToolEntry, args: unknown, revision: string): CallToolResult | Promise<CallToolResult> {
  const first = tool.input.errors;
  if (tool.allErrors === undefined) return argumentError(tool.name, issueReport(first), revision);
  return tool.allErrors().then(
    (all) => argumentError(tool.name, collectIssues(first, all, args), revision),
    () => argumentError(tool.name, issueReport(first), revision),
  );
}

/** The revision's answer to invalid arguments: an `isError` result (2025-11-25 on) or -32602 with the failures in `data.errors`. */
function argumentError(name: string, report: IssueReport, revision: string): CallToolResult {
  const message = `Invalid arguments for tool ${JSON.stringify(name)}: ${describeIssues(report)}`;
  if (argumentErrorsAsResults(revision)) return { content: [{ type: "text", text: message }], isError: true };
  const errors = report.issues.map((i) => ({
    pointer: "/params/arguments" + issuePointer(i.instancePath),
    keyword: i.keyword,
    message: i.message,
  }));
  throw new McpError(
    ErrorCode.InvalidParams,
    message,
    report.omitted === 0
      ? { errors }
      : { errors, omitted: report.omitted, ...(report.atLeast ? { atLeast: true } : {}) },
  );
}

/** A handler that threw or rejected. */
function toolFailure(e: unknown, ctx: HandlerContext, report: (e: Error) => void): CallToolResult {
  if (e instanceof McpError || ctx.signal.aborted) throw e;
  // A tool's own failure is a tool execution error (the model sees it), and a server problem to log.
  report(e instanceof Error ? e : new Error(String(e)));
  return {
    content: [{ type: "text", text: e instanceof Error && e.message ? e.message : "Tool failed" }],
    isError: true,
  };
}

/**
 * The wire result, built once per call as a fresh object with fixed fields: what the handler
 * returned (a `toolResult`/`toolError` it may keep and return again, a constant, an object it
 * also holds) is read, never copied wholesale and never written to, so no call can change what
 * another call or the handler sees. Arrays (content blocks) are shared, as with any JSON value.
 */
function toolCallResult(tool: ToolEntry, returned: unknown, revision: string): CallToolResult {
  if (tool.output === null) {
    if (typeof returned === "string") return { content: [{ type: "text", text: returned }] };
    if (Array.isArray(returned)) return { content: returned };
    if (typeof returned !== "object" || returned === null || !Array.isArray((returned as CallToolResult).content)) {
      throw internal(tool.name, "returned neither text, content blocks nor a result with content");
    }
    const result = unbrand(returned as { [key: string]: unknown }) as CallToolResult;
    if (!hasStructuredContent(revision)) delete result.structuredContent;
    return result;
  }
  let structured: CallToolResult["structuredContent"];
  let content: CallToolResult["content"] | undefined;
  let meta: CallToolResult["_meta"];
  if (isBranded(returned)) {
    if (returned.isError === true) return unbrand(returned) as CallToolResult;
    const r = returned as {
      structuredContent: CallToolResult["structuredContent"];
      content?: CallToolResult["content"];
      _meta?: CallToolResult["_meta"];
    };
    structured = r.structuredContent;
    content = r.content;
    meta = r._meta;
  } else {
    structured = returned as CallToolResult["structuredContent"];
  }
  if (!tool.output(structured)) throw new InvalidToolOutputError(tool.name, tool.output.errors ?? [], structured);
  // Back-compat (and the only carrier before 2025-06-18): the JSON text of the structured output.
  if (content === undefined || content.length === 0) content = [{ type: "text", text: JSON.stringify(structured) }];
  const result: CallToolResult = hasStructuredContent(revision)
    ? { content, structuredContent: structured }
    : { content };
  if (meta !== undefined) result._meta = meta;
  return result;
}

function internal(tool: string, what: string): Error {
  return new TypeError(`Tool ${JSON.stringify(tool)} handler ${what}`);
}
