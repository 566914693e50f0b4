import type { JSONRPCErrorResponse } from "../jsonrpc.js";
import type { MessageOutline } from "./scan.js";
import { describe } from "../describe.js";

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

/**
 * One FrameError per response among `outlines` whose id could be read, for an HTTP POST refused
 * whole (`code`, `why`): each fails the request it answers. Other messages need nothing: the
 * POST's refusal answers them.
 */
export function unreadableAnswers(outlines: readonly MessageOutline[], code: number, why: string): FrameError[] {
  const out: FrameError[] = [];
  for (const o of outlines) {
    if (o.kind === "response" && o.id !== undefined)
      out.push(
        new FrameError(
          `HTTP POST: response ${describe(o.id)} ${why}`,
          { jsonrpc: "2.0", id: null, error: { code, message: why } },
          o,
        ),
      );
  }
  return out;
}
