/**
 * Turning what handlers return into wire results. Tool handlers return their structured output
 * as a plain object; anything else (own content blocks, `_meta`, errors for the model) goes
 * through `toolResult` / `toolError`, whose brand keeps the two apart without guessing.
 */
import type { ContentBlock, GetPromptResult, Meta, ReadResourceResult, ResourceContents } from "../mcp-types.js";
import type { ToolError, ToolResult } from "./types.js";
import { resultBrand } from "./result-brand.js";

/** A tool result with structured output plus your own content blocks and/or `_meta`. */
export function toolResult<O>(result: { structuredContent: O; content?: ContentBlock[]; _meta?: Meta }): ToolResult<O> {
  // Fixed fields instead of a spread: the runtime reads exactly these three and nothing else.
  return {
    structuredContent: result.structuredContent,
    content: result.content,
    _meta: result._meta,
    [resultBrand]: true,
  };
}

/** A tool execution error reported to the model as `isError: true` (text or content blocks). */
export function toolError(content: string | ContentBlock[], meta?: Meta): ToolError {
  const blocks = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
  return meta === undefined
    ? { isError: true, content: blocks, [resultBrand]: true }
    : { isError: true, content: blocks, _meta: meta, [resultBrand]: true };
}

export function isBranded(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && (value as { [resultBrand]?: unknown })[resultBrand] === true;
}

/** Copy without the brand (symbols are not serialised anyway; this keeps results plain). */
export function unbrand(value: { [key: string]: unknown }): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const k of Object.keys(value)) if (value[k] !== undefined) out[k] = value[k];
  return out;
}

export function promptResult(value: unknown): GetPromptResult {
  if (typeof value === "string") return { messages: [{ role: "user", content: { type: "text", text: value } }] };
  if (Array.isArray(value)) return { messages: value };
  return value as GetPromptResult;
}

export function resourceResult(value: unknown, uri: string, mimeType: unknown): ReadResourceResult {
  if (typeof value === "string") {
    const contents: ResourceContents =
      typeof mimeType === "string" ? { uri, mimeType, text: value } : { uri, text: value };
    return { contents: [contents] };
  }
  if (Array.isArray(value)) return { contents: value };
  return value as ReadResourceResult;
}
