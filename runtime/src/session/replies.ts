/** Building the JSON-RPC error objects the session answers with. */
import { ErrorCode, type JSONRPCErrorObject } from "../jsonrpc.js";
import type { ValidationIssue } from "../abi.js";
import { McpError } from "../errors.js";

/** `-32602` whose `data.pointer` points at the first failing value inside the request message. */
export function invalidParams(
  method: string,
  issues: readonly ValidationIssue[] | null | undefined,
): JSONRPCErrorObject {
  const first = issues?.[0];
  const pointer = "/params" + (first?.instancePath ?? "");
  const what = first ? (first.message ?? first.keyword) : "invalid";
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params for ${method}: ${pointer} ${what}`,
    data: {
      pointer,
      errors: (issues ?? []).map((i) => ({
        pointer: "/params" + i.instancePath,
        keyword: i.keyword,
        message: i.message,
      })),
    },
  };
}

/** `-32602` about `/params` itself (absent, or not an object), found before any schema is read. */
export function paramsError(method: string, keyword: "required" | "type", message: string): JSONRPCErrorObject {
  return invalidParams(method, [{ instancePath: "", schemaPath: "", keyword, params: {}, message }]);
}

/** What a throwing handler answers: its McpError as is, otherwise -32603 with the message only (never the stack). */
export function handlerError(e: unknown): JSONRPCErrorObject {
  if (e instanceof McpError) return e.toObject();
  const message = e instanceof Error && e.message ? e.message : "Internal error";
  return { code: ErrorCode.InternalError, message };
}

export function methodNotFound(method: string, why?: string): JSONRPCErrorObject {
  return { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}${why ? ` (${why})` : ""}` };
}

export function invalidRequest(message: string): JSONRPCErrorObject {
  return { code: ErrorCode.InvalidRequest, message: `Invalid request: ${message}` };
}
