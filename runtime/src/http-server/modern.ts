/**
 * The 2026-07-28 shape of Streamable HTTP
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http):
 * which POSTs take the stateless modern path, the request-metadata headers every such POST must
 * mirror from its body (checked before the body's `_meta`, so a mismatch is `-32020` whatever else
 * is wrong), serving such a POST on a transport of its own, and the HTTP status each modern
 * JSON-RPC error travels with.
 */
import { ErrorCode, type JSONRPCMessage, type RequestId, isObject } from "../jsonrpc.js";
import { Header, MetaKey, decodeHeaderValue, nameField } from "../lifecycle/modern/wire.js";
import type { MessageContext } from "../transport.js";
import type { AuthInfo } from "../auth/principal.js";
import { headerValue, sendJsonError } from "./http-util.js";
import type { ReadPost } from "./post-intake.js";
import type { HttpReply, HttpRequestHead, HttpRequestIn } from "../http-exchange.js";

/** Protocol revisions served on the stateless modern path by default. */
export const DEFAULT_MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/**
 * Whether a POST opens the modern way (§5.2): its body's `_meta` names a protocol version, or its
 * MCP-Protocol-Version header is not one of the legacy revisions.
 */
export function isModernPost(req: HttpRequestHead, message: unknown, legacyVersions: ReadonlySet<string>): boolean {
  if (!isObject(message)) return false;
  const params = message.params;
  if (isObject(params) && isObject(params._meta) && params._meta[MetaKey.protocolVersion] !== undefined) return true;
  const v = headerValue(req, Header.protocolVersion);
  return v !== undefined && !legacyVersions.has(v.trim());
}

function mismatch(message: string): string {
  return `Header mismatch: ${message}`;
}

/**
 * The standard request-metadata headers of a modern request against its body: the message of the
 * HeaderMismatch error when they differ, undefined when they agree.
 */
function checkStandardHeaders(req: HttpRequestHead, method: string, params: unknown): string | undefined {
  const p = isObject(params) ? params : undefined;
  const meta = p !== undefined && isObject(p._meta) ? p._meta : undefined;
  const rawVersion = headerValue(req, Header.protocolVersion);
  if (rawVersion === undefined) return mismatch("MCP-Protocol-Version header is required");
  const version = decodeHeaderValue(rawVersion);
  if (version === undefined) return mismatch("MCP-Protocol-Version has characters a header may not carry");
  const bodyVersion = meta?.[MetaKey.protocolVersion];
  if (bodyVersion !== undefined && bodyVersion !== version) {
    return mismatch(
      `MCP-Protocol-Version ${JSON.stringify(version)} differs from params._meta protocolVersion ${JSON.stringify(bodyVersion)}`,
    );
  }
  const rawMethod = headerValue(req, Header.method);
  if (rawMethod === undefined) return mismatch("Mcp-Method header is required");
  if (decodeHeaderValue(rawMethod) !== method)
    return mismatch(`Mcp-Method ${JSON.stringify(rawMethod)} differs from the body's method ${JSON.stringify(method)}`);
  const field = nameField(method);
  if (field !== undefined) {
    const bodyName = p?.[field];
    const rawName = headerValue(req, Header.name);
    if (rawName === undefined) {
      if (bodyName !== undefined) return mismatch(`Mcp-Name header is required for ${method}`);
    } else {
      const name = decodeHeaderValue(rawName);
      if (name === undefined) return mismatch("Mcp-Name is not a valid header value");
      if (typeof bodyName !== "string" || name !== bodyName) return mismatch(`Mcp-Name differs from params.${field}`);
    }
  }
  return undefined;
}

/**
 * HTTP status of a modern error response
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http); 200
 * for the rest.
 */
export function modernErrorStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  return code === ErrorCode.InvalidParams ||
    code === ErrorCode.InvalidRequest ||
    code === ErrorCode.ParseError ||
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
    ? 400
    : 200;
}

/** What a 2026-07-28 POST needs of the transport made for it (StreamableHttpServerTransport; session-transport.ts uses modernErrorStatus). */
interface PostTransport {
  openPostStream(
    res: HttpReply,
    requestIds: RequestId[],
    o: { allowJson: boolean; allowSse: boolean; batch: boolean },
  ): void;
  receive(message: JSONRPCMessage, context: MessageContext): void;
}

/** One stateless 2026-07-28 POST: headers checked against the body, then a transport of its own (`sessions.transport`, handed to `onsession`). */
export async function serveModernPost<
  T extends PostTransport,
  Req extends HttpRequestHead & Pick<HttpRequestIn, "waitUntil">,
>(
  req: Req,
  res: HttpReply,
  post: ReadPost,
  auth: AuthInfo | undefined,
  sessions: { transport(sessionId: undefined, modern: true): T },
  options: { onsession(transport: T, request: Req): void | Promise<void> },
): Promise<void> {
  const message = post.parsed as JSONRPCMessage;
  const requestIds = post.requestIds;
  const m = message as { id?: RequestId; method?: unknown; params?: unknown };
  if (typeof m.method !== "string") {
    // Clients POST no responses in 2026-07-28 (nothing asked them anything).
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
    sendJsonError(
      res,
      400,
      -32600,
      "Invalid Request: a 2026-07-28 POST carries one request or notification",
      undefined,
      id,
    );
    return;
  }
  if (requestIds.length === 0) {
    // No client notification is defined over HTTP in 2026-07-28 (cancellation is closing the stream).
    res.writeHead(202, { "content-length": 0 }).end();
    return;
  }
  const refused = checkStandardHeaders(req, m.method, m.params);
  if (refused !== undefined) {
    sendJsonError(res, 400, ErrorCode.HeaderMismatch, refused, undefined, requestIds[0]);
    return;
  }
  // Closing the stream cancels the request in 2026-07-28: a client gone while its token was
  // verified cancelled it before it started (and a listen on a closed response would never end).
  if (res.destroyed) return;
  const transport = sessions.transport(undefined, true);
  await options.onsession(transport, req);
  transport.openPostStream(res, requestIds, post);
  transport.receive(message, { headers: req.headers, auth, bytes: post.bytes, waitUntil: req.waitUntil });
}
