import type { AuthInfo } from "./auth/principal.js";
import type { JSONRPCMessage, RequestId } from "./jsonrpc.js";
import type { FrameError } from "./framing/frame-error.js";

/** One tool argument mirrored into a `Mcp-Param-{header}` header. */
export interface HeaderParam {
  /** The `x-mcp-header` value as declared (header names compare case-insensitively). */
  readonly header: string;
  /** Property names from the input schema's root to the annotated property. */
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

/** Per-message hints a transport may use (e.g. which HTTP response stream carries a message). */
export interface SendOptions {
  /** The inbound request this outgoing message belongs to (progress, logs, server→client requests, the response). */
  relatedRequestId?: RequestId;
}

/** What a transport knows about the connection a message arrived on. */
export interface MessageContext {
  /** HTTP session id, when the transport has sessions. */
  sessionId?: string;
  /** Request headers of the HTTP request that carried the message (lower-case names). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The verified principal of the request's bearer token (HTTP endpoints with an auth guard). */
  auth?: AuthInfo;
  /**
   * About how many bytes of memory the message takes once parsed, when the transport estimated it
   * while reading the message (the HTTP server transports do, see textFootprint). A request it
   * carries is charged that much (a batch's requests a share each) against its session's byte
   * budget while it runs (SessionOptions.runningBytes).
   */
  bytes?: number;
  /**
   * Keeps the host serving until the promise settles (a Worker's `ctx.waitUntil`, handed through by
   * createFetchHandler): what runs on after the response (a task's run) registers with it.
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/**
 * What some transports know, or can be told, beyond moving messages: stdio's input that ends
 * alone and its lasting peer, HTTP's session, per-request streams and headers, and the protocol
 * era a Streamable HTTP POST carries. Every member is optional; whoever reads a transport asks
 * `transport.hints?.member`, so a transport without any of these has no `hints` at all.
 */
export interface TransportHints {
  /** The input can end while the output stays open, and `Transport.oninputend` is then called (stdio). */
  readonly inputEnds?: boolean | undefined;
  /**
   * Who is at the other end, when that identity outlives this process: a stdio server serves the
   * one client that started it, restart after restart, so its tasks in a durable store stay that
   * client's. Absent: every connection is a peer of its own.
   */
  readonly peerIdentity?: string | undefined;
  /** HTTP session id, when the transport has sessions. */
  readonly sessionId?: string | undefined;
  /**
   * The protocol era every message of this transport belongs to, when the transport already knows
   * (the Streamable HTTP server decides it per POST); absent: the server chooses per message.
   */
  readonly era?: "legacy" | "modern" | undefined;
  /**
   * Set by a transport serving one stateless Streamable HTTP POST (a legacy revision, no
   * handshake): `McpServer.connect` serves it as `connect(t, { stateless })` with this value
   * unless told otherwise, so a stateless server needs nothing in `onsession` but `connect`.
   */
  readonly statelessRequest?: { protocolVersion?: string } | undefined;
  /** Set by the session once the protocol revision is negotiated (HTTP transports send it as a header). */
  setProtocolVersion?(version: string): void;
  /**
   * Send one message given as its JSON text, exactly what `send` would write of it (stream
   * transports: NDJSON), so a sender can serialise the parts many messages share once. The text
   * is compact JSON as JSON.stringify writes it: no raw line feed, which would split the line.
   */
  sendText?(text: string, options?: SendOptions): Promise<void>;
  /**
   * Send the response `{"jsonrpc":"2.0","id":id,"result":result}` as `send` would write it, from
   * its parts (stream transports: NDJSON): no response object is made, and a `_meta` the result
   * shares with others (framing/result-meta.ts) is not serialised again. A result JSON cannot hold
   * throws synchronously, as `send` does.
   */
  sendResult?(id: RequestId, result: Record<string, unknown>, options?: SendOptions): Promise<void>;
  /**
   * Streamable HTTP (2025-11-25 polling): end the HTTP connection of the SSE stream carrying the
   * reply to `requestId` without ending the logical stream; the client resumes it with GET +
   * Last-Event-ID. Returns false when the transport cannot (no such stream, not resumable).
   */
  closeStream?(requestId: RequestId): boolean;
  /**
   * Streamable HTTP: run `ongone(requestId)` (once) if the client closes the HTTP response that
   * carries the reply to `requestId` before the reply is out, at once if it already has. A no-op
   * where a dropped reply closes the transport.
   */
  onReplyStreamClosed?(requestId: RequestId, ongone: (requestId: RequestId) => void): void;
  /**
   * No reply will be sent for `requestId` (it was cancelled): the transport stops awaiting it and
   * ends the stream that carried it once that stream awaits nothing else.
   */
  abandonReply?(requestId: RequestId): void;
  /**
   * 2026-07-28 Streamable HTTP: the `x-mcp-header` annotations of a tool, as the client learned
   * them from tools/list; the transport mirrors those arguments of its tools/call requests into
   * `Mcp-Param-*` headers. Undefined forgets the tool.
   */
  setToolHeaders?(tool: string, params: readonly HeaderParam[] | undefined): void;
  /**
   * HTTP with an authorizer: `listener(true, false)` when a refused request starts waiting for an
   * authorization (new credentials being obtained, perhaps by a person at a login page) and
   * `listener(false, …)` once none is in progress; `failed` is true when an authorization just
   * ended in failure. Returns the unsubscribe. The dual-era client's probe does not count that
   * time against its timeout, and does not take a failed authorization for a legacy server.
   */
  watchAuthorization?(listener: (authorizing: boolean, failed: boolean) => void): () => void;
}

/**
 * The one interface every transport implements (in-memory, stdio, Streamable HTTP, HTTP+SSE).
 * A transport moves whole JSON-RPC messages; it never interprets methods or ids beyond what its
 * wire format needs. Garbage on the wire is reported with `onerror` (and, where the wire allows,
 * answered with a -32700 error) and never closes the connection by itself.
 */
export interface Transport {
  /** Begin reading. Resolves once the transport can send. */
  start(): Promise<void>;
  /** Send one message (or a batch, where the negotiated revision allows batches). */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void>;
  /** Close the connection and release every resource; idempotent. */
  close(): Promise<void>;
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  /** Called exactly once, when the connection is gone for whatever reason. */
  onclose?: () => void;
  /**
   * The peer will send nothing more, but this side can still write (stdio: the server's stdin
   * reached EOF, or the client's child closed its stdout). Set by whoever reads the transport
   * (the session) when `hints.inputEnds` says it may be called: it handles what already arrived
   * and resolves once nothing is left to answer; the transport then flushes its output and
   * closes, or closes anyway after its drain timeout. Unset, the transport closes at once.
   */
  oninputend?: () => Promise<void>;
  onerror?: (error: Error) => void;
  /**
   * A message that could not be delivered (too large, too deep, its stream cut): set by the
   * session, which fails or answers the one request it concerns. Without it the transport
   * reports it through `onerror` and answers the peer itself where the wire allows.
   */
  onframeerror?: (error: FrameError) => void;
  /** What this transport knows or can do beyond moving messages (see TransportHints). */
  readonly hints?: TransportHints | undefined;
}
