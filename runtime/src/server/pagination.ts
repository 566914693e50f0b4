/** Cursor pagination over precomputed lists: the cursor is the opaque encoding of an offset. */
import { describe } from "../describe.js";
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";

const PREFIX = "mcpgen:";

export function encodeCursor(offset: number): string {
  return btoa(PREFIX + offset);
}

function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  let text: string;
  try {
    text = typeof cursor === "string" ? atob(cursor) : "";
  } catch {
    text = "";
  }
  const n = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown cursor ${describe(cursor)}`);
  return n;
}

/** One page of `items` as `{ [key]: page, nextCursor? }`. */
export function page(
  key: string,
  items: readonly unknown[],
  cursor: unknown,
  size: number,
): { [key: string]: unknown } {
  const start = decodeCursor(cursor);
  if (start > items.length)
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: cursor past the end of the list");
  const end = Math.min(items.length, start + Math.max(1, size));
  const result: { [key: string]: unknown } = {
    [key]: start === 0 && end === items.length ? items : items.slice(start, end),
  };
  if (end < items.length) result.nextCursor = encodeCursor(end);
  return result;
}
