/**
 * The half of a connection's correlation that answers: inbound dispatch with params validation,
 * cancellation of running requests, notifications out, replies, and teardown on close. Incoming
 * messages are classified by key presence only; schemas are consulted just once the kind and
 * method are known. A session that sends requests of its own (ids, the pending map, timeouts,
 * progress, result validation), takes batches or hands notifications to handlers is a Session
 * (session.ts); a 2026-07-28 server sends none
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#statelessness), has no
 * batches and no notification handlers (the client's cancellations are all it acts on), so its
 * bundle carries only this half; the hooks a Session fills in are optional methods here.
 */
import { ErrorCode, type JSONRPCErrorObject, type RequestId, isObject } from "../jsonrpc.js";
import type { ProtocolBinding, Side } from "../abi.js";
import type { MessageContext, SendOptions, Transport } from "../transport.js";
import { ConnectionClosedError, LimitError, McpError } from "../errors.js";
import type { FrameError } from "../framing/frame-error.js";
import { describe, describeText } from "../describe.js";
import { isRequestId } from "../request-id.js";
import { LIMIT_EXCEEDED_CODE, MAX_RUNNING_REQUESTS } from "../limits.js";
import { RunningBytes, type RunningBytesLimit, type SessionBytes } from "./running-bytes.js";
import { principalKey } from "../auth/principal.js";
import { RunningTable } from "./running-table.js";
import { type BatchReply, InboundRequest, type InboundOwner } from "./inbound.js";
import { LoadGate } from "./load-gate.js";
import { tableReady, validatorReady } from "../lazy-binding.js";
import { handlerError, invalidParams, invalidRequest, methodNotFound, paramsError } from "./replies.js";
import type { Params, RequestHandler, RequestOptions, Result, SessionOptions, SessionPolicy } from "./types.js";

export type Msg = Record<string, unknown>;

/** Whose running requests a byte-budget refusal counts, by the share it names. */
const HOLDER = { perSession: "on this session", perPrincipal: "of this principal", max: "on this server" } as const;

export const isId = isRequestId;

export class AnsweringSession implements InboundOwner {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The peer ended its input (Transport.oninputend): what it sent is handled, nothing more will come. */
  oninputend?: () => void;

  protected readonly transport: Transport;
  protected readonly peerSide: Side;
  protected readonly trustPeer: boolean;
  /** The transport writes a response from its result (TransportHints.sendResult). */
  private readonly sendsResults: boolean;
  private readonly maxRunning: number;
  /** The byte budget of running requests; made on the first charge when not given. */
  private bytes: SessionBytes | undefined;
  private readonly endWithStream: boolean;
  /** Cancels the running request whose reply stream closed (one function per session, made on first use). */
  private streamGoneFn: ((requestId: RequestId) => void) | undefined;
  protected policy: SessionPolicy | undefined;
  protected current: ProtocolBinding;
  protected isClosed = false;
  private readonly running = new RunningTable<InboundRequest>();
  /** SessionOptions.requestHandlers, other sessions' too: a Session copies them before a change. */
  protected requestHandlers: Map<string, RequestHandler<any, any>>;
  /** The handler last looked up, by method: every call of a connection asks for the same one. */
  protected lastHandlerMethod: string | undefined;
  private lastHandler: RequestHandler<any, any> | undefined;
  protected readonly reportBound = (e: unknown) => this.report(e);
  private lastSent: Promise<void> | undefined;
  private readonly gate: LoadGate;
  private chosenFor: Msg | undefined;
  private chosen: ProtocolBinding | JSONRPCErrorObject | undefined;
  private connectionKeyObject: object | undefined;
  /** The peer ended its input: this side's requests can get no answer. */
  protected inputEnded = false;
  /** Set while waiting, after the input ended, for the peer's last requests to be answered. */
  private idle: (() => void) | undefined;

  constructor(options: SessionOptions) {
    this.transport = options.transport;
    this.peerSide = options.side === "client" ? "server" : "client";
    this.current = options.binding;
    this.policy = options.policy;
    this.trustPeer = options.trustPeer === true;
    this.sendsResults = this.transport.hints?.sendResult !== undefined;
    this.maxRunning = options.maxRunningRequests ?? MAX_RUNNING_REQUESTS;
    this.bytes = options.runningBytes;
    this.endWithStream = options.cancelWithStream === true;
    const shared = options.requestHandlers as Map<string, RequestHandler<any, any>> | undefined;
    this.requestHandlers = shared ?? new Map();
    this.onerror = options.onerror;
    this.gate = new LoadGate(
      (m) => this.loadFor(m),
      (m, c) => this.receive(m, c),
      (m, c, e) => this.refuse(m, c, e),
      this.maxRunning,
    );
    this.transport.onmessage = (message, context) => {
      // LoadGate.receive, with the session's own methods called directly.
      if (!this.gate.open) return this.gate.receive(message, context);
      const loading = this.loadFor(message);
      if (loading === undefined) return this.receive(message, context);
      this.gate.hold(message, context, loading);
    };
    this.transport.onframeerror = (e) => this.onFrameError(e);
    this.transport.onclose = () => this.handleClose();
    this.transport.onerror = this.reportBound;
    // Only where the input can end alone: a stateless HTTP POST makes a session per message.
    if (this.transport.hints?.inputEnds === true) this.transport.oninputend = () => this.drainInput();
  }

  /** The revision whose method table and validators apply now. */
  get binding(): ProtocolBinding {
    return this.current;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get runningCount(): number {
    return this.running.size;
  }

  private handlerFor(method: string): RequestHandler<any, any> | undefined {
    if (method === this.lastHandlerMethod) return this.lastHandler;
    const handler = this.requestHandlers.get(method);
    this.lastHandlerMethod = method;
    this.lastHandler = handler;
    return handler;
  }

  // ---- outgoing

  /**
   * Undefined when `method` may go out now; else a promise to follow before asking again: the
   * refusal (closed, the peer's output ended, the policy's), or the method table the policy
   * checked against loading (tables load on first use). A refusal rejects the retry unrun.
   */
  protected refusal(
    method: string,
    params: Params | undefined,
    kind: "request" | "notification",
  ): Promise<void> | undefined {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError());
    if (kind === "request" && this.inputEnded) return Promise.reject(this.unanswerable(method));
    try {
      this.policy?.checkOutgoing(method, params, kind);
    } catch (e) {
      return tableReady(this.current) ?? Promise.reject(e);
    }
    return undefined;
  }

  /**
   * This half sends no requests: the policy's refusal (a 2026-07-28 server's), else a TypeError.
   * Session overrides it with the real thing.
   */
  request<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    const refused = this.refusal(method, params, "request");
    if (refused !== undefined) return refused.then(() => this.request<R>(method, params, options));
    return Promise.reject(new TypeError(`Cannot send ${method}: this session only answers requests`));
  }

  notify(method: string, params?: Params, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const refused = this.refusal(method, params, "notification");
    if (refused !== undefined) return refused.then(() => this.notify(method, params, options));
    const message =
      params === undefined ? { jsonrpc: "2.0" as const, method } : { jsonrpc: "2.0" as const, method, params };
    return this.send(message, options);
  }

  /**
   * Whether a send promise needs a rejection handler. Transports that complete sends synchronously
   * may return one shared settled promise (the in-memory one does); it cannot reject later, and
   * skipping it saves a promise and a microtask per message on the hot path.
   */
  protected fresh(sent: Promise<void>): boolean {
    if (sent === this.lastSent) return false;
    this.lastSent = sent;
    return true;
  }

  /** transport.hints.sendResult, with a synchronous throw (a result JSON cannot hold) turned into a rejection. */
  private sendResult(id: RequestId, result: unknown, related: SendOptions): Promise<void> {
    try {
      return this.transport.hints!.sendResult!(id, result as Result, related);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** transport.send, with a synchronous throw turned into a rejection. */
  protected send(message: Msg | Msg[], options: SendOptions | undefined): Promise<void> {
    try {
      return this.transport.send(message as never, options);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * Ends the transport stream that carries the reply to an inbound request (Streamable HTTP
   * 2025-11-25 polling: the client resumes with GET and Last-Event-ID). False when the transport
   * has no per-request streams.
   */
  closeStream(requestId: RequestId): boolean {
    return this.transport.hints?.closeStream?.(requestId) ?? false;
  }

  /** @internal Notifications on behalf of an inbound request (progress, logs). */
  notifyRelated(method: string, params: Params | undefined, relatedRequestId: RequestId): Promise<void> {
    return this.notify(method, params, { relatedRequestId });
  }

  /** Close the transport; pending requests reject with ConnectionClosedError, running handlers are aborted. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      await this.transport.close();
    } catch (e) {
      this.report(e);
    }
    this.handleClose();
  }

  // ---- incoming

  /**
   * What must load before `m` can be handled: the method table of the revision it is handled in
   * (a request's per-request revision, else the current one; tables load per revision on first
   * use) and the validator it will be checked with (a request's params, a notification's params
   * when a handler wants it, a response's result), loaded per method on first use.
   */
  protected loadFor(m: unknown): Promise<void> | undefined {
    this.chosenFor = undefined;
    if (typeof m !== "object" || m === null) return undefined;
    if (Array.isArray(m)) return this.current.batching ? this.batchNeeds?.(m) : undefined;
    const msg = m as Msg;
    const method = msg.method;
    const trust = this.trustPeer;
    if (typeof method !== "string") return this.resultNeeds?.(msg);
    const params = msg.params;
    if (!("id" in msg)) return this.notificationNeeds?.(method, params);
    // Params that are not an object are refused before any table is read.
    if (params !== undefined && !isObject(params)) return undefined;
    let binding = this.current;
    if (this.policy?.bindingFor !== undefined) {
      const chosen = this.policy.bindingFor(method, params);
      this.chosenFor = msg;
      this.chosen = chosen;
      if ("code" in chosen) return undefined;
      binding = chosen;
    }
    if (trust || params === undefined) return tableReady(binding);
    return validatorReady(binding, "params", method);
  }

  /** The policy's binding for `m`: loadFor's answer when `m` is what it just looked at. */
  private bindingOf(m: Msg, method: string, params: Params | undefined): ProtocolBinding | JSONRPCErrorObject {
    const chosen = this.chosenFor === m ? this.chosen! : this.policy!.bindingFor!(method, params);
    this.chosenFor = undefined;
    this.chosen = undefined;
    return chosen;
  }

  /** A message whose validator could not be loaded: requests get an internal error, the rest is reported. */
  private refuse(m: unknown, _context: MessageContext | undefined, e: Error): void {
    this.report(e);
    if (isObject(m) && typeof m.method === "string" && isId(m.id))
      this.replyError(m.id, { code: ErrorCode.InternalError, message: `Internal error: ${e.message}` });
  }

  private receive(message: unknown, context: MessageContext | undefined): void {
    if (Array.isArray(message)) this.receiveBatch(message, context);
    else this.receiveOne(message, context, context?.bytes ?? 0);
  }

  /**
   * `bytes`: what a request `m` is charged while it runs (MessageContext.bytes, a batch member's
   * share of it); `batch`: the batch `m` is a member of (a Session's).
   */
  protected receiveOne(m: unknown, context: MessageContext | undefined, bytes: number, batch?: BatchReply): void {
    if (typeof m !== "object" || m === null || Array.isArray(m)) {
      this.replyError(null, invalidRequest("not a JSON-RPC object"), batch);
    } else if ("method" in m) {
      if ("id" in m) this.onRequest(m as Msg, context, bytes, batch);
      else this.onNotification(m as Msg);
    } else if ("id" in m) {
      this.onResponse(m as Msg);
    } else {
      this.replyError(null, invalidRequest("neither a request, a notification nor a response"), batch);
    }
  }

  /** What a batch's members need loaded (a Session's: this half takes no batches). */
  protected batchNeeds?(items: unknown[]): Promise<void> | undefined;

  /** What a notification needs loaded (a Session's: this half has no notification handlers). */
  protected notificationNeeds?(method: string, params: unknown): Promise<void> | undefined;

  /** What a response needs loaded (a Session's: this half awaits no responses). */
  protected resultNeeds?(m: Msg): Promise<void> | undefined;

  /** A JSON-RPC batch: refused here (a binding that allows batches takes a Session). */
  protected receiveBatch(_items: unknown[], _context: MessageContext | undefined): void {
    this.replyError(
      null,
      invalidRequest(`JSON-RPC batches are not allowed in protocol revision ${this.current.revision}`),
    );
  }

  private onRequest(m: Msg, context: MessageContext | undefined, bytes: number, batch: BatchReply | undefined): void {
    const id = m.id;
    if (!isId(id)) return this.replyError(null, invalidRequest("id must be a string or a number"), batch);
    const method = m.method;
    if (m.jsonrpc !== "2.0") return this.replyError(id, invalidRequest('"jsonrpc" must be "2.0"'), batch);
    if (typeof method !== "string") return this.replyError(id, invalidRequest('"method" must be a string'), batch);
    const params = m.params;
    if (params !== undefined && !isObject(params))
      return this.replyError(id, paramsError(method, "type", "must be an object"), batch);
    let binding = this.current;
    if (this.policy?.bindingFor !== undefined) {
      const chosen = this.bindingOf(m, method, params);
      if ("code" in chosen) return this.replyError(id, chosen, batch);
      binding = chosen;
    }
    const info = binding.methods[method];
    if (info === undefined || info.kind !== "request" || (info.from !== this.peerSide && info.from !== "both")) {
      return this.replyError(id, methodNotFound(method), batch);
    }
    if (this.running.get(id) !== undefined)
      return this.replyError(id, invalidRequest(`request id ${describe(id)} is already in progress`), batch);
    if (this.running.size >= this.maxRunning) {
      this.report(
        new LimitError(
          `Request ${describe(method)} refused: ${this.maxRunning} requests already running on this session (maxRunningRequests)`,
        ),
      );
      return this.replyError(
        id,
        {
          code: LIMIT_EXCEEDED_CODE,
          message: `Server busy: more than ${this.maxRunning} requests in progress on this session`,
        },
        batch,
      );
    }
    // Whom the bytes are charged to besides the session: only a sized request pays for the key.
    let principal: string | undefined;
    if (bytes > 0) {
      principal = principalKey(context?.auth);
      const over = (this.bytes ??= new RunningBytes().session()).over(bytes, principal);
      if (over !== undefined) return this.refuseBytes(id, method, over, batch);
    }
    if (this.policy) {
      const refused = this.policy.checkInbound(method, params, info);
      if (refused !== undefined) return this.replyError(id, refused, batch);
    }
    const handler = this.handlerFor(method);
    if (handler === undefined) return this.replyError(id, methodNotFound(method), batch);
    if (!this.trustPeer) {
      if (params === undefined) {
        if (info.paramsRequired) return this.replyError(id, paramsError(method, "required", "is required"), batch);
      } else {
        const validate = binding.params[method];
        if (validate !== undefined && !validate(params))
          return this.replyError(id, invalidParams(method, validate.errors), batch);
      }
    }
    const meta = params?._meta;
    const inbound = new InboundRequest(
      this,
      id,
      method,
      isObject(meta) ? meta : undefined,
      batch,
      context,
      bytes,
      principal,
    );
    this.running.add(inbound);
    if (bytes > 0) this.bytes!.charge(bytes, principal);
    if (this.endWithStream) {
      this.cancelWithStream(inbound);
      // Its stream was gone before it started: cancelled, nothing to run.
      if (inbound.done) return;
    }
    let result: unknown;
    try {
      result = handler(params, inbound);
    } catch (e) {
      return this.fail(inbound, e);
    }
    // Synchronous handlers are answered at once; only promises pay for continuations.
    if (result !== null && typeof result === "object" && typeof (result as PromiseLike<unknown>).then === "function") {
      (result as PromiseLike<unknown>).then(
        (r) => this.finish(inbound, r ?? {}, undefined),
        (e) => this.fail(inbound, e),
      );
    } else {
      this.finish(inbound, result ?? {}, undefined);
    }
  }

  private fail(inbound: InboundRequest, e: unknown): void {
    if (!(e instanceof McpError) && !inbound.cancelled) this.report(e);
    this.finish(inbound, undefined, handlerError(e));
  }

  private finish(inbound: InboundRequest, result: unknown, error: JSONRPCErrorObject | undefined): void {
    if (inbound.done) return;
    if (error === undefined && !isObject(result)) {
      // A result must be an object on the wire; anything else is a handler bug, not the peer's problem.
      this.report(
        new TypeError(
          `Handler for ${inbound.method} returned ${Array.isArray(result) ? "an array" : typeof result}, not an object`,
        ),
      );
      error = {
        code: ErrorCode.InternalError,
        message: `Internal error: invalid result from the ${inbound.method} handler`,
      };
    }
    this.stopRunning(inbound);
    const id = inbound.requestId;
    if (error === undefined && this.sendsResults && inbound.batch === undefined) {
      // No wrapper object to make and walk: the transport writes the response from its parts.
      if (!this.isClosed) {
        const sent = this.sendResult(id, result, inbound);
        if (this.fresh(sent)) sent.then(undefined, this.reportBound);
      }
    } else {
      this.reply(
        error === undefined ? { jsonrpc: "2.0", id, result } : { jsonrpc: "2.0", id, error },
        inbound,
        inbound.batch,
      );
    }
  }

  private onNotification(m: Msg): void {
    const method = m.method;
    const params = m.params;
    if (m.jsonrpc !== "2.0" || typeof method !== "string" || (params !== undefined && !isObject(params))) {
      return this.report(
        new Error(`Malformed notification dropped: ${typeof method === "string" ? describe(method) : "(no method)"}`),
      );
    }
    if (method === "notifications/progress") return this.onProgress?.(params);
    if (method === "notifications/cancelled") this.onCancelled(params);
    this.dispatchNotification?.(method, params);
  }

  /** A well-formed notification on to its handler (a Session's: this half has no notification handlers). */
  protected dispatchNotification?(method: string, params: Params | undefined): void;

  private onCancelled(params: Params | undefined): void {
    const id = params?.requestId;
    if (!isId(id)) return;
    const inbound = this.running.get(id);
    if (inbound === undefined) return; // already answered, or never ours: the race the spec allows
    this.cancelInbound(inbound, typeof params?.reason === "string" ? params.reason : "Cancelled by peer");
  }

  /** Done: out of the running table, its bytes released; a drain waiting for the last one is woken. */
  private stopRunning(inbound: InboundRequest): void {
    inbound.done = true;
    this.running.delete(inbound);
    if (inbound.bytes > 0) this.bytes!.release(inbound.bytes, inbound.principal);
    if (this.idle !== undefined && this.running.size === 0) this.wake();
  }

  /** A request over the byte budget: `over` names the share it would overdraw. */
  private refuseBytes(id: RequestId, method: string, over: RunningBytesLimit, batch: BatchReply | undefined): void {
    const max = this.bytes!.server[over];
    const why = `requests in progress ${HOLDER[over]} would hold more than ${max} bytes`;
    this.report(new LimitError(`Request ${describe(method)} refused: ${why} (runningBytes.${over})`));
    this.replyError(
      id,
      { code: LIMIT_EXCEEDED_CODE, message: `Server busy: ${why}`, data: { limit: `runningBytes.${over}`, max } },
      batch,
    );
  }

  /** A batch's member was cancelled: its batch awaits one response fewer (a Session's). */
  protected unanswered?(inbound: InboundRequest): void;

  /** A running request ends without a response: its handler is aborted and the transport stops awaiting its reply. */
  private cancelInbound(inbound: InboundRequest, reason: string): void {
    if (this.running.get(inbound.requestId) !== inbound) return;
    this.stopRunning(inbound);
    inbound.cancel(reason);
    this.transport.hints?.abandonReply?.(inbound.requestId);
    if (inbound.batch !== undefined) this.unanswered?.(inbound);
  }

  /** @internal (InboundOwner) One opaque object per connection, made when first asked for. */
  get connectionKey(): object {
    return (this.connectionKeyObject ??= Object.freeze({}));
  }

  /** @internal (InboundOwner) See RequestContext.cancelWithStream. */
  cancelWithStream(inbound: InboundRequest): void {
    this.transport.hints?.onReplyStreamClosed?.(inbound.requestId, this.streamGone());
  }

  private streamGone(): (requestId: RequestId) => void {
    return (this.streamGoneFn ??= (requestId) => {
      const inbound = this.running.get(requestId);
      if (inbound !== undefined) this.cancelInbound(inbound, "The client closed the stream carrying the reply");
    });
  }

  /** `notifications/progress` for a request this side sent (a Session's: this half sends none). */
  protected onProgress?(params: Params | undefined): void;

  /** A response: this half awaits none, so its id is unknown. */
  protected onResponse(m: Msg): void {
    const err = isObject(m.error) ? `: ${describeText(m.error.message)}` : "";
    this.report(new Error(`Response with unknown id ${describe(m.id)} dropped${err}`));
  }

  /** A response that could not be read (a Session's: this half awaits none). */
  protected unreadableResponse?(id: RequestId | undefined, why: string): void;

  /** A message the transport could not deliver: fail the request it answers, or answer it. */
  private onFrameError(e: FrameError): void {
    this.report(e);
    const { kind, id } = e.outline;
    if (kind === "response") return this.unreadableResponse?.(id, e.message);
    if (kind === "notification") return;
    this.replyError(kind === "request" && id !== undefined ? id : null, e.reply.error);
  }

  // ---- replies

  protected replyError(id: RequestId | null, error: JSONRPCErrorObject, batch?: BatchReply): void {
    this.reply({ jsonrpc: "2.0", id, error }, id === null ? undefined : { relatedRequestId: id }, batch);
  }

  /**
   * `related` names the request answered (an InboundRequest is its own SendOptions); `batch`, the
   * batch it was a member of, is only ever given to a Session, which collects its replies.
   */
  protected reply(message: Msg, related: SendOptions | undefined, _batch?: BatchReply): void {
    if (this.isClosed) return;
    const sent = this.send(message, related);
    if (this.fresh(sent)) sent.then(undefined, this.reportBound);
  }

  // ---- teardown

  /**
   * The peer will send nothing more (its output ended) but can still read: what it sent is
   * handled (messages held while a revision loads included), this side's requests it never
   * answered fail, and the returned promise resolves once every request it sent is answered.
   */
  private async drainInput(): Promise<void> {
    await this.gate.whenOpen();
    if (this.isClosed) return;
    this.inputEnded = true;
    this.endOutgoing?.();
    try {
      this.oninputend?.();
    } catch (e) {
      this.report(e);
    }
    if (this.running.size > 0 && !this.isClosed) await new Promise<void>((resolve) => (this.idle = resolve));
  }

  /** The peer ended its output: fail what this side awaits from it (a Session's). */
  protected endOutgoing?(): void;

  protected unanswerable(method: string): ConnectionClosedError {
    return new ConnectionClosedError(
      `Connection closed: the ${this.peerSide} ended its output; ${method} gets no answer`,
    );
  }

  private wake(): void {
    const idle = this.idle;
    this.idle = undefined;
    idle?.();
  }

  /** Requests this side sent that await a response: none here. */
  get pendingCount(): number {
    return 0;
  }

  /** The connection closed: fail what this side awaits (a Session's; `closed` is made when anything does). */
  protected closeOutgoing?(closed: ConnectionClosedError | undefined): void;

  private handleClose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.clear();
    // Built only when someone is told: a stateless HTTP connection closes after every POST, and
    // capturing a stack per close is measurable there.
    const closed = this.pendingCount > 0 || this.running.size > 0 ? new ConnectionClosedError() : undefined;
    this.closeOutgoing?.(closed);
    const running = this.running.values();
    // Emptied before any handler is aborted: an abort listener sees nothing running.
    this.running.clear();
    for (const inbound of running) {
      this.stopRunning(inbound);
      inbound.cancel(closed!);
    }
    this.wake();
    this.onclose?.();
  }

  protected report(e: unknown): void {
    const error = e instanceof Error ? e : new Error(describeText(e));
    try {
      this.onerror?.(error);
    } catch {
      // An error hook that throws must not break message handling.
    }
  }
}
