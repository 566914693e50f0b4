import type { JSONRPCErrorObject, RequestId } from "../jsonrpc.js";
import type { MethodInfo, ProtocolBinding, Side } from "../abi.js";
import type { MessageContext, Transport } from "../transport.js";
import type { SessionBytes } from "./running-bytes.js";

export type Params = Record<string, unknown>;
export type Result = Record<string, unknown>;

/** `notifications/progress` params as delivered to `onprogress`. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` (when the method may be cancelled) and rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Milliseconds without a response before the request fails; default: the session's (60 000). 0 or Infinity: none. */
  timeout?: number;
  /** Receive `notifications/progress` for this request (a progress token is attached to `params._meta`). */
  onprogress?: (progress: Progress) => void;
  /** Restart the timeout on every progress notification (bounded by `maxTotalTimeout`). */
  resetTimeoutOnProgress?: boolean;
  /** Absolute limit in milliseconds, whatever progress arrives. */
  maxTotalTimeout?: number;
  /** Skip result validation for this call (the lifecycle uses it for `initialize`, validated after negotiation). */
  skipValidation?: boolean;
  /** The inbound request this one serves (HTTP transports route it onto that request's stream). */
  relatedRequestId?: RequestId;
}

/**
 * Reads a request's outcome where the response is handled, before its promise settles: the
 * promise settles with what `ok` returns (a value, or a promise it then follows) or rejects with
 * what it throws, so a caller's post-processing costs no extra promise and microtask. `fail`,
 * when given, sees every failure (error response, invalid result, timeout, abort, close) in the
 * same way; without it the promise rejects with the failure. Both run inside message dispatch:
 * they must not block, and work that may call back into the session belongs in a promise they
 * return.
 */
export interface ResponseReader<R> {
  ok(result: Result): R | PromiseLike<R>;
  fail?(error: unknown): R | PromiseLike<R>;
}

export interface ProgressOptions {
  total?: number;
  message?: string;
}

/** What a request handler gets besides the params. */
export interface RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  /** `params._meta` of the request, if any. */
  readonly meta: Params | undefined;
  /** Aborted when the peer cancels the request or the connection closes (created on first access). */
  readonly signal: AbortSignal;
  /** What the transport knows about the message (HTTP session id, request headers), if anything. */
  readonly transportContext: MessageContext | undefined;
  /** Whether the request was cancelled (cheaper than touching `signal`). */
  readonly cancelled: boolean;
  /**
   * Report progress when the requester asked for it (no-op otherwise). `progress` must increase
   * with every call (RangeError otherwise); calls after the response are ignored.
   */
  sendProgress(progress: number, options?: ProgressOptions): Promise<void>;
  /** Send a request to the peer on behalf of this request. */
  sendRequest<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R>;
  /** Send a notification to the peer on behalf of this request. */
  sendNotification(method: string, params?: Params): Promise<void>;
  /**
   * The connection (session) the request arrived on, as an opaque key that is the same for all its
   * requests: for per-session bookkeeping such as the listen limits.
   */
  readonly connection?: object;
  /**
   * Cancel this request, as a peer's cancellation would, as soon as the client closes the transport
   * stream that carries its reply (Streamable HTTP). A 2026-07-28 request is cancelled that way
   * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports), also inside a
   * legacy session whose streams otherwise outlive a dropped connection. No-op on transports
   * without per-request streams (stdio: `notifications/cancelled` or the connection's end).
   */
  cancelWithStream?(): void;
}

export type RequestHandler<P = Params | undefined, R = Result> = (params: P, ctx: RequestContext) => R | Promise<R>;
export type NotificationHandler<P = Params | undefined> = (params: P) => void | Promise<void>;

/**
 * Rules a lifecycle installs into a session: which messages may go out or come in now, given the
 * phase and the negotiated capabilities. The session itself knows no era.
 */
export interface SessionPolicy {
  /** Throw (CapabilityError, LifecycleError) to refuse an outgoing request or notification. */
  checkOutgoing(method: string, params: Params | undefined, kind: "request" | "notification"): void;
  /**
   * An error to answer an inbound request with instead of dispatching it. `info` is the method's
   * entry in the table of the binding the request is dispatched with (the session has looked it
   * up already; bindingFor's binding when the policy has that hook).
   */
  checkInbound(method: string, params: Params | undefined, info: MethodInfo): JSONRPCErrorObject | undefined;
  /** Whether to forward an inbound notification to its handler. */
  acceptNotification(method: string, params: Params | undefined): boolean;
  /** Whether an outgoing request may be cancelled on the wire (abort or timeout). */
  cancellable(method: string): boolean;
  /**
   * The revision to dispatch and validate one inbound request with, for eras that choose it per
   * request (2026-07-28 reads it from `_meta`); an error object refuses the request. Without this
   * hook the session's current binding applies.
   */
  bindingFor?(method: string, params: Params | undefined): ProtocolBinding | JSONRPCErrorObject;
}

export interface SessionOptions {
  transport: Transport;
  /** Which side this session speaks for: decides which methods it may receive. */
  side: Side;
  /** Revision used for method lookup and validation until `setBinding` switches it. */
  binding: ProtocolBinding;
  policy?: SessionPolicy;
  /** Default per-request timeout in ms (60 000). */
  timeout?: number;
  /** Trust the peer: skip validation of its params and results. */
  trustPeer?: boolean;
  /** Outgoing requests awaiting a response at once (default 10 000); more are refused with LimitError. */
  maxPendingRequests?: number;
  /** Inbound requests running at once (default 1 000); more are answered -32000 at once. */
  maxRunningRequests?: number;
  /**
   * The byte budget inbound requests are charged against while they run, each about what its
   * message takes once parsed (MessageContext.bytes; requests whose transport gives no size are
   * not charged): a share of a server's RunningBytes, which the sessions of one connection may
   * share; a request whose MessageContext.auth names a principal is charged to that principal's
   * share too. More are answered -32000 at once. Default: a share of 64 MiB of the session's own.
   */
  runningBytes?: SessionBytes;
  /**
   * Cancel every inbound request, as its own RequestContext.cancelWithStream would, when the
   * client closes the transport stream carrying its reply (the 2026-07-28 rule, also inside a
   * legacy Streamable HTTP session). No-op on transports without per-request streams.
   */
  cancelWithStream?: boolean;
  /**
   * The request handlers to start with, shared with other sessions rather than copied into each
   * (a stateless server makes a session per request): the session copies them before it changes one.
   */
  requestHandlers?: ReadonlyMap<string, RequestHandler<any, any>>;
  /** Problems that are not any caller's to handle: unknown-id responses, bad notifications, send failures. */
  onerror?: (error: Error) => void;
}
