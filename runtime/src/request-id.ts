/**
 * What counts as a request id. The schema says string or integer; a number that is not a safe
 * integer cannot be echoed back faithfully (1e400 parses to Infinity, 2^60 loses digits), so it
 * is no id either. A request without a usable id is answered -32600 with `id: null`.
 */
import type { RequestId } from "./jsonrpc.js";

export function isRequestId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
}
