import type { JSONRPCErrorResponse } from "../jsonrpc.js";
import type { MessageOutline } from "./scan.js";

/**
 * A message that arrived but could not be delivered whole (over the size or nesting limit, or the
 * stream carrying it ended first), with what could be read of it: the session uses the outline to
 * fail the one request it concerns at once, or to answer it with `reply`.
 */
export class FrameError extends Error {
  override name = "FrameError";
  constructor(
    message: string,
    /** What to send the peer when the message was a request (or unidentifiable). */
    readonly reply: JSONRPCErrorResponse,
    readonly outline: MessageOutline,
  ) {
    super(message);
  }
}
