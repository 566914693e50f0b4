/**
 * What a Streamable HTTP POST must pass before any session sees it: the media type, a body that
 * parses within the nesting limit, and request ids the HTTP layer can route a reply by. Each
 * refusal carries the HTTP status and the JSON-RPC error (with the message's own id when it
 * could be read, `null` otherwise).
 */
import type { RequestId } from "../jsonrpc.js";
import { textFootprint, outlineOf, type MessageOutline } from "../framing/scan.js";
import { isRequestId } from "../request-id.js";

export interface PostRefusal {
  status: number;
  id: RequestId | null;
  code: number;
  message: string;
  /** What could be read of the refused messages (a body too deep): a response among them still settles the request it answers. */
  outlines?: readonly MessageOutline[];
}

/** 400, -32600 `why`, answering `id`. */
function invalidRequest(why: string, id: RequestId | null = null): PostRefusal {
  return { status: 400, id, code: -32600, message: `Invalid Request: ${why}` };
}

/** `application/json`, matched as a media type (parameters such as charset allowed), not as a substring. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === "application/json") return true;
  const semi = contentType.indexOf(";");
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase() === "application/json";
}

/**
 * Parse a POST body; refuses invalid JSON (-32700) and values nesting deeper than `maxDepth`
 * (-32600). `bytes`: about the heap the value takes (MessageContext.bytes).
 */
export function parseBody(text: string, maxDepth: number): { value: unknown; bytes: number } | PostRefusal {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { status: 400, id: null, code: -32700, message: "Parse error: body is not valid JSON" };
  }
  const bytes = textFootprint(text, maxDepth);
  if (bytes < 0) {
    // JSON.parse is iterative, so reading the top level of a deep value is safe; nothing else may touch it.
    const o = outlineOf(value);
    const refusal = invalidRequest(
      `message nests deeper than ${maxDepth} levels`,
      o.kind === "request" && o.id !== undefined ? o.id : null,
    );
    refusal.outlines = Array.isArray(value) ? value.map(outlineOf) : [o];
    return refusal;
  }
  return { value, bytes };
}

/**
 * The first request in `list` whose id cannot carry a reply over HTTP: not a string or a safe
 * integer (answered id null, as JSON-RPC prescribes when the id cannot be determined), or an id
 * repeated inside the same batch.
 */
export function badRequestId(list: readonly unknown[]): PostRefusal | undefined {
  // Nearly every POST carries one message: no id can repeat, and no set is needed.
  const seen = list.length > 1 ? new Set<RequestId>() : undefined;
  for (const m of list) {
    if (typeof m !== "object" || m === null || Array.isArray(m) || !("method" in m) || !("id" in m)) continue;
    const id = (m as { id: unknown }).id;
    if (!isRequestId(id)) return invalidRequest("id must be a string or an integer within ±2^53");
    if (seen === undefined) continue;
    if (seen.has(id)) return invalidRequest("the same id is used twice in one batch");
    seen.add(id);
  }
  return undefined;
}
