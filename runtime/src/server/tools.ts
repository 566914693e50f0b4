/**
 * `tools/call`: argument validation reported the way the negotiated revision says, the user's
 * handler, and the structured output checked against outputSchema before anything is sent.
 */
import type { ValidationIssue, Validator } from "../abi.js";
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { CallToolResult } from "../mcp-types.js";
import { isBranded, unbrand } from "./results.js";
import type { HandlerContext, ToolHandler } from "./types.js";

export interface ToolEntry {
  readonly name: string;
  readonly handler: ToolHandler;
  readonly input: Validator;
  readonly output: Validator | null;
}

/** Since 2025-11-25 invalid arguments are tool execution errors the model can see, not protocol errors. */
export function argumentErrorsAsResults(revision: string): boolean {
  return revision >= "2025-11-25";
}

/** `structuredContent` exists on the wire from 2025-06-18. */
function hasStructuredContent(revision: string): boolean {
  return revision >= "2025-06-18";
}

export function describeIssues(issues: readonly ValidationIssue[] | null | undefined): string {
  if (!issues || issues.length === 0) return "invalid";
  return issues
    .slice(0, 5)
    .map((i) => `${i.instancePath || "/"} ${i.message ?? i.keyword}`)
    .join("; ");
}

export class InvalidToolOutputError extends Error {
  override name = "InvalidToolOutputError";
  constructor(
    readonly tool: string,
    readonly issues: readonly ValidationIssue[],
    readonly output: unknown,
  ) {
    super(`Tool ${JSON.stringify(tool)} returned structured output that does not match its outputSchema: ${describeIssues(issues)}; the result was not sent`);
  }
}

export async function callTool(
  tool: ToolEntry,
  args: unknown,
  ctx: HandlerContext,
  report: (e: Error) => void,
): Promise<CallToolResult> {
  return runTool(tool, args, ctx, report);
}

/** callTool, synchronous when the handler is (a bad output throws). */
export function runTool(
  tool: ToolEntry,
  args: unknown,
  ctx: HandlerContext,
  report: (e: Error) => void,
): CallToolResult | Promise<CallToolResult> {
  if (!tool.input(args)) {
    const message = `Invalid arguments for tool ${JSON.stringify(tool.name)}: ${describeIssues(tool.input.errors)}`;
    if (argumentErrorsAsResults(ctx.revision)) return { content: [{ type: "text", text: message }], isError: true };
    throw new McpError(ErrorCode.InvalidParams, message, {
      errors: (tool.input.errors ?? []).map((i) => ({ pointer: "/params/arguments" + i.instancePath, keyword: i.keyword, message: i.message })),
    });
  }
  let returned: unknown;
  try {
    returned = (tool.handler as (input: unknown, ctx: HandlerContext) => unknown)(args, ctx);
  } catch (e) {
    return toolFailure(e, ctx, report);
  }
  if (returned !== null && typeof returned === "object" && typeof (returned as PromiseLike<unknown>).then === "function") {
    return Promise.resolve(returned).then(
      (r) => toolCallResult(tool, r, ctx.revision),
      (e: unknown) => toolFailure(e, ctx, report),
    );
  }
  return toolCallResult(tool, returned, ctx.revision);
}

/** A handler that threw or rejected. */
function toolFailure(e: unknown, ctx: HandlerContext, report: (e: Error) => void): CallToolResult {
  if (e instanceof McpError || ctx.signal.aborted) throw e;
  // A tool's own failure is a tool execution error (the model sees it), and a server problem to log.
  report(e instanceof Error ? e : new Error(String(e)));
  return { content: [{ type: "text", text: e instanceof Error && e.message ? e.message : "Tool failed" }], isError: true };
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
    const r = returned as { structuredContent: CallToolResult["structuredContent"]; content?: CallToolResult["content"]; _meta?: CallToolResult["_meta"] };
    structured = r.structuredContent;
    content = r.content;
    meta = r._meta;
  } else {
    structured = returned as CallToolResult["structuredContent"];
  }
  if (!tool.output(structured)) throw new InvalidToolOutputError(tool.name, tool.output.errors ?? [], structured);
  // Back-compat (and the only carrier before 2025-06-18): the JSON text of the structured output.
  if (content === undefined || content.length === 0) content = [{ type: "text", text: JSON.stringify(structured) }];
  const result: CallToolResult = hasStructuredContent(revision) ? { content, structuredContent: structured } : { content };
  if (meta !== undefined) result._meta = meta;
  return result;
}

function internal(tool: string, what: string): Error {
  return new TypeError(`Tool ${JSON.stringify(tool)} handler ${what}`);
}
