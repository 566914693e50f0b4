/**
 * Request ids of a legacy session taken over from an instance that died (session-record.ts).
 */
import type { JSONRPCMessage } from "../jsonrpc.js";

/**
 * A taken-over session's own requests to its client (sampling, elicitation, roots) go out with
 * their ids marked, so that a client's late answer to a request the dead instance sent (an
 * unmarked id) is never taken for the answer to a new request that happens to reuse its number.
 */
const MARK = "mcpgen/t:";

/** `m` as a taken-over session sends it: a request's id marked. */
export function markRequest(m: JSONRPCMessage): JSONRPCMessage {
  return "method" in m && "id" in m ? ({ ...m, id: `${MARK}${String(m.id)}` } as JSONRPCMessage) : m;
}

/** An answer as a taken-over session's client sends it: its id unmarked; undefined for an answer to a request sent before the takeover. */
export function unmarkAnswer(m: JSONRPCMessage): JSONRPCMessage | undefined {
  if ("method" in m || !("id" in m)) return m;
  const id = (m as { id: unknown }).id;
  if (typeof id !== "string" || !id.startsWith(MARK)) return undefined;
  const raw = id.slice(MARK.length);
  const n = Number(raw);
  return { ...m, id: raw !== "" && Number.isSafeInteger(n) ? n : raw } as JSONRPCMessage;
}
