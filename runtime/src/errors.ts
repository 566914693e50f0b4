/**
 * Typed errors the runtime raises locally. `McpError` is the only one that carries a JSON-RPC
 * error from the peer (or one a handler throws to answer with); the others are local outcomes
 * with no wire code, so they can never be mistaken for a peer's error.
 */
import type { JSONRPCErrorObject } from "./jsonrpc.js";
import type { ValidationIssue } from "./abi.js";

/** A JSON-RPC error: received from the peer, or thrown by a handler to answer with this code. */
export class McpError extends Error {
  override name = "McpError";
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
  static fromObject(e: JSONRPCErrorObject): McpError {
    const code = typeof e?.code === "number" ? e.code : -32603;
    const message = typeof e?.message === "string" ? e.message : "Unknown error";
    return new McpError(code, message, e?.data);
  }
  toObject(): JSONRPCErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** The connection closed while a request was pending, or a request was made on a closed session. */
export class ConnectionClosedError extends Error {
  override name = "ConnectionClosedError";
  constructor(message = "Connection closed") {
    super(message);
  }
}

/** No response arrived in time (per-request timeout or the maximum total timeout). */
export class RequestTimeoutError extends Error {
  override name = "RequestTimeoutError";
  readonly method: string;
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number, total: boolean) {
    super(`Request ${method} timed out after ${timeoutMs} ms${total ? " (maximum total timeout)" : ""}`);
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/** The peer answered with a result that does not match the revision's schema. */
export class InvalidResultError extends Error {
  override name = "InvalidResultError";
  readonly method: string;
  readonly issues: readonly ValidationIssue[];
  readonly result: unknown;
  constructor(method: string, issues: readonly ValidationIssue[], result: unknown) {
    const first = issues[0];
    const where = first ? ` at "${first.instancePath || "/"}": ${first.message ?? first.keyword}` : "";
    super(`Invalid result for ${method}${where} (the option trustPeer: true skips result validation)`);
    this.method = method;
    this.issues = issues;
    this.result = result;
  }
}

/** A message the negotiated capabilities (or revision) do not allow. */
export class CapabilityError extends Error {
  override name = "CapabilityError";
  readonly method: string;
  /** Dotted capability path that is missing, when one is. */
  readonly capability: string | null;
  constructor(method: string, capability: string | null, message: string) {
    super(message);
    this.method = method;
    this.capability = capability;
  }
}

/** A message sent in the wrong lifecycle phase (e.g. before initialization completed). */
export class LifecycleError extends Error {
  override name = "LifecycleError";
}

/** Version negotiation failed: the peers share no protocol revision. */
export class ProtocolVersionError extends Error {
  override name = "ProtocolVersionError";
  readonly requested: string;
  readonly received: string | undefined;
  readonly supported: readonly string[];
  constructor(requested: string, received: string | undefined, supported: readonly string[], detail?: string) {
    super(
      `Protocol version negotiation failed: requested ${requested}, server ${
        received === undefined ? "offered none" : `answered ${received}`
      }; this side supports ${supported.join(", ")}${detail ? ` (${detail})` : ""}`,
    );
    this.requested = requested;
    this.received = received;
    this.supported = supported;
  }
}

/** The response to a request arrived but could not be read (over the size or nesting limit, or its stream was cut). */
export class UnreadableResponseError extends Error {
  override name = "UnreadableResponseError";
  readonly method: string;
  constructor(method: string, detail: string) {
    super(`The response to ${method} could not be read: ${detail}`);
    this.method = method;
  }
}

/** A configured limit refused a local action (e.g. too many requests pending on one session). */
export class LimitError extends Error {
  override name = "LimitError";
}

/**
 * The peer answered a request made on behalf of a handler (sampling, elicitation, roots) with a
 * JSON-RPC error. Deliberately not an McpError: the peer's code is not this side's answer, so a
 * handler that lets it escape fails with a tool error or -32603 naming it, never with that code.
 */
export class PeerRequestError extends Error {
  override name = "PeerRequestError";
  readonly method: string;
  /** The peer's JSON-RPC error code and data. */
  readonly code: number;
  readonly data: unknown;
  constructor(method: string, error: McpError) {
    super(
      `The client answered ${method} with error ${error.code}: ${error.message.length > 300 ? error.message.slice(0, 299) + "…" : error.message}`,
      { cause: error },
    );
    this.method = method;
    this.code = error.code;
    this.data = error.data;
  }
}

/**
 * One entry of a list result (a tool, prompt, resource...) is malformed: kept as the server sent
 * it when it can still be used (`kept`), else dropped (it lacks its name, or a resource its uri).
 */
export class InvalidListEntryError extends Error {
  override name = "InvalidListEntryError";
  readonly method: string;
  readonly index: number;
  /** The entry's `name` when it has a string one. */
  readonly entryName: string | undefined;
  readonly issues: readonly ValidationIssue[];
  /** The entry is in the list despite its defect. */
  readonly kept: boolean;
  constructor(
    method: string,
    index: number,
    entryName: string | undefined,
    issues: readonly ValidationIssue[],
    kept = false,
  ) {
    const first = issues[0];
    const label =
      entryName === undefined
        ? `entry ${index}`
        : `${JSON.stringify(entryName.length > 100 ? entryName.slice(0, 99) + "…" : entryName)} (entry ${index})`;
    super(
      `${method}: ${label} ${kept ? "kept despite a defect" : "dropped"}: ${first ? `${first.instancePath || "/"} ${first.message ?? first.keyword}` : "invalid"}`,
    );
    this.method = method;
    this.index = index;
    this.entryName = entryName;
    this.issues = issues;
    this.kept = kept;
  }
}
