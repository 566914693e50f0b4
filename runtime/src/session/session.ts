/**
 * Correlation for one connection, shared by both sides, every transport and every lifecycle era:
 * outgoing ids and the pending map, timeouts, cancellation both ways, progress routing, inbound
 * dispatch with params validation, result validation, batches, and teardown on close.
 * Incoming messages are classified by key presence only; schemas are consulted just once the
 * kind and method are known.
 */
import { ErrorCode, type JSONRPCErrorObject, type RequestId, isObject } from "../jsonrpc.js";
import type { ProtocolBinding, Side } from "../abi.js";
import type { MessageContext, SendOptions, Transport } from "../transport.js";
import {
  ConnectionClosedError,
  InvalidResultError,
  LimitError,
  McpError,
  RequestTimeoutError,
  UnreadableResponseError,
} from "../errors.js";
import type { FrameError } from "../framing/frame-error.js";
import { describe, describeText } from "../describe.js";
import { isRequestId } from "../request-id.js";
import { LIMIT_EXCEEDED_CODE, MAX_PENDING_REQUESTS, MAX_RUNNING_REQUESTS } from "../limits.js";
import { RunningBytes, type RunningBytesLimit, type SessionBytes } from "./running-bytes.js";
import { principalKey } from "../auth/principal.js";
import { PendingRequest, type PendingOwner } from "./outgoing.js";
import { PendingSlots } from "./pending-slots.js";
import { RunningTable } from "./running-table.js";
import { Deadlines } from "./deadlines.js";
import { BatchReply, InboundRequest, type InboundOwner } from "./inbound.js";
import { LoadGate } from "./load-gate.js";
import { tableReady, validatorReady } from "../lazy-binding.js";
import { handlerError, invalidParams, invalidRequest, methodNotFound, missingParams } from "./replies.js";
import type {
  NotificationHandler,
  Params,
  Progress,
  RequestHandler,
  RequestOptions,
  ResponseReader,
  Result,
  SessionOptions,
  SessionPolicy,
} from "./types.js";

type Msg = Record<string, unknown>;

const DEFAULT_TIMEOUT_MS = 60_000;
/** Whose running requests a byte-budget refusal counts, by the share it names. */
const HOLDER = { perSession: "on this session", perPrincipal: "of this principal", max: "on this server" } as const;
/** How many cancelled or timed-out ids to remember, so their late responses are dropped quietly. */
const ABANDONED_LIMIT = 1024;

/**
 * A shared promise executor (no closure per request): it hands resolve/reject to the request
 * being made (`capturing`), a new object, so storing them costs no write barrier (a long-lived
 * holder would take two per request) and nothing keeps the last request's functions alive.
 */
let capturing: PendingRequest | undefined;
function capture(resolve: (r: unknown) => void, reject: (e: unknown) => void): void {
  capturing!.settleWith(resolve, reject);
}

const isId = isRequestId;

export class Session implements PendingOwner, InboundOwner {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The peer ended its input (Transport.oninputend): what it sent is handled, nothing more will come. */
  oninputend?: () => void;

  private readonly transport: Transport;
  private readonly peerSide: Side;
  private readonly defaultTimeout: number;
  private readonly trustPeer: boolean;
  private readonly maxPending: number;
  private readonly maxRunning: number;
  /** The byte budget of running requests; made on the first charge when not given. */
  private bytes: SessionBytes | undefined;
  private readonly endWithStream: boolean;
  /** Cancels the running request whose reply stream closed (one function per session, made on first use). */
  private streamGoneFn: ((requestId: RequestId) => void) | undefined;
  private policy: SessionPolicy | undefined;
  private current: ProtocolBinding;
  private nextId = 0;
  private isClosed = false;
  private readonly pending = new PendingSlots<PendingRequest>();
  private readonly running = new RunningTable<InboundRequest>();
  private readonly abandoned = new Set<RequestId>();
  /** Progress tokens followed past their request (followProgress); one per waiting task, released when it ends. */
  private readonly followed = new Map<string, (progress: Progress) => void>();
  private requestHandlers: Map<string, RequestHandler<any, any>>;
  /** `requestHandlers` is SessionOptions.requestHandlers, other sessions' too: copied before a change. */
  private sharedHandlers: boolean;
  /** The handler last looked up, by method: every call of a connection asks for the same one. */
  private lastHandlerMethod: string | undefined;
  private lastHandler: RequestHandler<any, any> | undefined;
  private readonly notificationHandlers = new Map<string, NotificationHandler<any>>();
  private readonly reportBound = (e: unknown) => this.report(e);
  private lastSent: Promise<void> | undefined;
  private readonly deadlines = new Deadlines<PendingRequest>(
    () => this.pending.values(),
    (e) => this.expire(e),
    () => this.pending.size === 0,
  );
  private readonly gate: LoadGate;
  private chosenFor: Msg | undefined;
  private chosen: ProtocolBinding | JSONRPCErrorObject | undefined;
  private connectionKeyObject: object | undefined;
  /** The peer ended its input: this side's requests can get no answer. */
  private inputEnded = false;
  /** Set while waiting, after the input ended, for the peer's last requests to be answered. */
  private idle: (() => void) | undefined;

  constructor(options: SessionOptions) {
    this.transport = options.transport;
    this.peerSide = options.side === "client" ? "server" : "client";
    this.current = options.binding;
    this.policy = options.policy;
    this.defaultTimeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.trustPeer = options.trustPeer === true;
    this.maxPending = options.maxPendingRequests ?? MAX_PENDING_REQUESTS;
    this.maxRunning = options.maxRunningRequests ?? MAX_RUNNING_REQUESTS;
    this.bytes = options.runningBytes;
    this.endWithStream = options.cancelWithStream === true;
    const shared = options.requestHandlers as Map<string, RequestHandler<any, any>> | undefined;
    this.requestHandlers = shared ?? new Map();
    this.sharedHandlers = shared !== undefined;
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

  /** Switch revision (after negotiation). */
  setBinding(binding: ProtocolBinding): void {
    this.current = binding;
  }

  setPolicy(policy: SessionPolicy | undefined): void {
    this.policy = policy;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The id the next `request` call will use (ids are never reused); lets a caller name its request before sending it. */
  get nextRequestId(): number {
    return this.nextId;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  get runningCount(): number {
    return this.running.size;
  }

  setRequestHandler<P = Params | undefined, R = Result>(method: string, handler: RequestHandler<P, R>): void {
    this.ownHandlers().set(method, handler);
    this.lastHandlerMethod = undefined;
  }

  removeRequestHandler(method: string): void {
    this.ownHandlers().delete(method);
    this.lastHandlerMethod = undefined;
  }

  private ownHandlers(): Map<string, RequestHandler<any, any>> {
    if (this.sharedHandlers) {
      this.requestHandlers = new Map(this.requestHandlers);
      this.sharedHandlers = false;
    }
    return this.requestHandlers;
  }

  private handlerFor(method: string): RequestHandler<any, any> | undefined {
    if (method === this.lastHandlerMethod) return this.lastHandler;
    const handler = this.requestHandlers.get(method);
    this.lastHandlerMethod = method;
    this.lastHandler = handler;
    return handler;
  }

  hasRequestHandler(method: string): boolean {
    return this.requestHandlers.has(method);
  }

  setNotificationHandler<P = Params | undefined>(method: string, handler: NotificationHandler<P>): void {
    this.notificationHandlers.set(method, handler);
  }

  removeNotificationHandler(method: string): void {
    this.notificationHandlers.delete(method);
  }

  // ---- outgoing

  request<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.requestWith<R>(method, params, options, undefined);
  }

  /**
   * `request` whose outcome `reader` reads as the response is handled (see ResponseReader): the
   * promise settles with what the reader makes of it, one promise and no extra microtask.
   */
  requestWith<T>(
    method: string,
    params: Params | undefined,
    options: RequestOptions | undefined,
    reader: ResponseReader<T> | undefined,
  ): Promise<T> {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError());
    if (this.inputEnded) return Promise.reject(this.unanswerable(method));
    try {
      this.policy?.checkOutgoing(method, params, "request");
    } catch (e) {
      // Checked against a revision whose table is not loaded yet (tables load on first use).
      const table = tableReady(this.current);
      if (table !== undefined) return table.then(() => this.requestWith<T>(method, params, options, reader));
      return Promise.reject(e);
    }
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.pending.size >= this.maxPending) {
      const e = new LimitError(
        `Request ${method} refused: ${this.maxPending} requests are already awaiting a response on this session (maxPendingRequests)`,
      );
      this.report(e);
      return Promise.reject(e);
    }
    const id = this.nextId;
    // The request id doubles as the progress token: unique among this side's active requests.
    if (options?.onprogress)
      params = { ...params, _meta: { ...(params?._meta as Params | undefined), progressToken: id } };
    const message =
      params === undefined ? { jsonrpc: "2.0" as const, id, method } : { jsonrpc: "2.0" as const, id, method, params };
    const entry = new PendingRequest(this, id, method, options, this.defaultTimeout, reader);
    capturing = entry;
    const promise = new Promise<T>(capture as never);
    capturing = undefined;
    this.pending.add(entry);
    // The next id is one whose slot is free (ids stay increasing; see PendingSlots).
    this.nextId = this.pending.freeFrom(id + 1);
    const deadline = entry.arm();
    if (deadline !== Infinity) this.deadlines.add(deadline);
    const related = options?.relatedRequestId;
    const sent = this.send(message, related === undefined ? undefined : { relatedRequestId: related });
    if (this.fresh(sent)) sent.then(undefined, (e) => this.sendFailed(id, e));
    return promise;
  }

  notify(method: string, params?: Params, options?: { relatedRequestId?: RequestId }): Promise<void> {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError());
    try {
      this.policy?.checkOutgoing(method, params, "notification");
    } catch (e) {
      const table = tableReady(this.current);
      if (table !== undefined) return table.then(() => this.notify(method, params, options));
      return Promise.reject(e);
    }
    const message =
      params === undefined ? { jsonrpc: "2.0" as const, method } : { jsonrpc: "2.0" as const, method, params };
    return this.send(message, options);
  }

  /**
   * Whether a send promise needs a rejection handler. Transports that complete sends synchronously
   * may return one shared settled promise (the in-memory one does); it cannot reject later, and
   * skipping it saves a promise and a microtask per message on the hot path.
   */
  private fresh(sent: Promise<void>): boolean {
    if (sent === this.lastSent) return false;
    this.lastSent = sent;
    return true;
  }

  /** transport.send, with a synchronous throw turned into a rejection. */
  private send(message: Msg | Msg[], options: SendOptions | undefined): Promise<void> {
    try {
      return this.transport.send(message as never, options);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** @internal Notifications on behalf of an inbound request (progress, logs). */
  /**
   * Ends the transport stream that carries the reply to an inbound request (Streamable HTTP
   * 2025-11-25 polling: the client resumes with GET and Last-Event-ID). False when the transport
   * has no per-request streams.
   */
  closeStream(requestId: RequestId): boolean {
    return this.transport.hints?.closeStream?.(requestId) ?? false;
  }

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

  private sendFailed(id: number, error: unknown): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return this.report(error);
    this.settle(entry);
    entry.fail(error);
  }

  /** Take a request out of the pending map (its outcome is decided by the caller). */
  private settle(entry: PendingRequest): void {
    this.pending.delete(entry);
    entry.dispose();
    if (this.pending.size === 0) this.deadlines.idle();
  }

  private expire(entry: PendingRequest): void {
    if (!this.abandon(entry)) return;
    const total = entry.hitTotal(Date.now());
    this.sendCancel(entry, "Request timed out");
    entry.fail(new RequestTimeoutError(entry.method, total ? entry.maxTotal : entry.timeoutMs, total));
  }

  /** @internal Caller's signal aborted (PendingOwner). */
  abort(entry: PendingRequest): void {
    if (!this.abandon(entry)) return;
    const reason = entry.signal?.reason;
    this.sendCancel(
      entry,
      reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason),
    );
    entry.fail(reason);
  }

  private abandon(entry: PendingRequest): boolean {
    if (this.pending.get(entry.id) !== entry) return false;
    this.settle(entry);
    if (this.abandoned.size >= ABANDONED_LIMIT)
      this.abandoned.delete(this.abandoned.values().next().value as RequestId);
    this.abandoned.add(entry.id);
    return true;
  }

  private sendCancel(entry: PendingRequest, reason: string | undefined): void {
    if (this.isClosed || (this.policy && !this.policy.cancellable(entry.method))) return;
    const params: Params = reason === undefined ? { requestId: entry.id } : { requestId: entry.id, reason };
    this.send({ jsonrpc: "2.0", method: "notifications/cancelled", params }, undefined).then(
      undefined,
      this.reportBound,
    );
  }

  // ---- incoming

  /**
   * What must load before `m` can be handled: the method table of the revision it is handled in
   * (a request's per-request revision, else the current one; tables load per revision on first
   * use) and the validator it will be checked with (a request's params, a notification's params
   * when a handler wants it, a response's result), loaded per method on first use.
   */
  private loadFor(m: unknown): Promise<void> | undefined {
    this.chosenFor = undefined;
    if (typeof m !== "object" || m === null) return undefined;
    if (Array.isArray(m)) {
      // A batch (2025-03-26): what its members need, all of it before any of them runs.
      if (!this.current.batching) return undefined;
      const needs = m
        .map((item) => (Array.isArray(item) ? undefined : this.loadFor(item)))
        .filter((p) => p !== undefined);
      return needs.length === 0 ? undefined : Promise.all(needs).then(() => undefined);
    }
    const msg = m as Msg;
    const method = msg.method;
    const trust = this.trustPeer;
    if (typeof method !== "string") {
      // A response: the result validator of the request it answers, when the session checks it
      // (a caller that skips session validation loads what it checks itself).
      const entry = isId(msg.id) ? this.pending.get(msg.id) : undefined;
      if (entry === undefined) return undefined;
      return trust || entry.skipValidation
        ? tableReady(this.current)
        : validatorReady(this.current, "results", entry.method);
    }
    const params = msg.params;
    if (!("id" in msg)) {
      // Notifications are only validated on their way to a handler (no table is read otherwise).
      return params !== undefined && !trust && this.notificationHandlers.has(method)
        ? validatorReady(this.current, "params", method)
        : undefined;
    }
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
    const msg = (typeof m === "object" && m !== null && !Array.isArray(m) ? m : {}) as Msg;
    if (typeof msg.method === "string" && isId(msg.id))
      this.replyError(msg.id, { code: ErrorCode.InternalError, message: `Internal error: ${e.message}` }, undefined);
  }

  private receive(message: unknown, context: MessageContext | undefined): void {
    if (Array.isArray(message)) this.receiveBatch(message, context);
    else this.receiveOne(message, undefined, context, context?.bytes ?? 0);
  }

  /** `bytes`: what a request `m` is charged while it runs (MessageContext.bytes, a batch member's share of it). */
  private receiveOne(
    m: unknown,
    batch: BatchReply | undefined,
    context: MessageContext | undefined,
    bytes: number,
  ): void {
    if (typeof m !== "object" || m === null || Array.isArray(m)) {
      this.replyError(null, invalidRequest("not a JSON-RPC object"), batch);
    } else if ("method" in m) {
      if ("id" in m) this.onRequest(m as Msg, batch, context, bytes);
      else this.onNotification(m as Msg);
    } else if ("id" in m) {
      this.onResponse(m as Msg);
    } else {
      this.replyError(null, invalidRequest("neither a request, a notification nor a response"), batch);
    }
  }

  private receiveBatch(items: unknown[], context: MessageContext | undefined): void {
    if (!this.current.batching) {
      this.replyError(
        null,
        invalidRequest(`JSON-RPC batches are not allowed in protocol revision ${this.current.revision}`),
        undefined,
      );
      return;
    }
    if (items.length === 0) {
      this.replyError(null, invalidRequest("empty batch"), undefined);
      return;
    }
    let waiting = 0;
    for (const m of items) {
      if (typeof m !== "object" || m === null || Array.isArray(m) || ("method" in m ? "id" in m : !("id" in m)))
        waiting++;
    }
    const batch = waiting > 0 ? new BatchReply(waiting) : undefined;
    const share = Math.ceil((context?.bytes ?? 0) / items.length);
    for (const m of items) this.receiveOne(m, batch, context, share);
  }

  private onRequest(m: Msg, batch: BatchReply | undefined, context: MessageContext | undefined, bytes: number): void {
    const id = m.id;
    if (!isId(id)) return this.replyError(null, invalidRequest("id must be a string or a number"), batch);
    const method = m.method;
    if (m.jsonrpc !== "2.0") return this.replyError(id, invalidRequest('"jsonrpc" must be "2.0"'), batch);
    if (typeof method !== "string") return this.replyError(id, invalidRequest('"method" must be a string'), batch);
    const params = m.params;
    if (params !== undefined && !isObject(params))
      return this.replyError(
        id,
        invalidParams(method, [
          { instancePath: "", schemaPath: "", keyword: "type", params: {}, message: "must be an object" },
        ]),
        batch,
      );
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
    if (this.running.has(id))
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
        if (info.paramsRequired) return this.replyError(id, missingParams(method), batch);
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
      this.transport.hints?.onReplyStreamClosed?.(id, this.streamGone());
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
    inbound.done = true;
    this.stopRunning(inbound);
    const id = inbound.requestId;
    this.reply(
      error === undefined ? { jsonrpc: "2.0", id, result } : { jsonrpc: "2.0", id, error },
      inbound.batch,
      inbound,
    );
    if (this.idle !== undefined && this.running.size === 0) this.wake();
  }

  private onNotification(m: Msg): void {
    const method = m.method;
    const params = m.params;
    if (m.jsonrpc !== "2.0" || typeof method !== "string" || (params !== undefined && !isObject(params))) {
      return this.report(
        new Error(`Malformed notification dropped: ${typeof method === "string" ? describe(method) : "(no method)"}`),
      );
    }
    if (method === "notifications/progress") return this.onProgress(params);
    if (method === "notifications/cancelled") this.onCancelled(params);
    if (this.policy && !this.policy.acceptNotification(method, params)) return;
    const handler = this.notificationHandlers.get(method);
    if (handler === undefined) return;
    if (!this.trustPeer && params !== undefined) {
      const validate = this.current.params[method];
      if (validate !== undefined && !validate(params)) {
        const e = invalidParams(method, validate.errors);
        return this.report(new McpError(e.code, `Notification dropped: ${e.message}`, e.data));
      }
    }
    try {
      const r = handler(params);
      if (r !== undefined) r.then(undefined, this.reportBound);
    } catch (e) {
      this.report(e);
    }
  }

  private onCancelled(params: Params | undefined): void {
    const id = params?.requestId;
    if (!isId(id)) return;
    const inbound = this.running.get(id);
    if (inbound === undefined) return; // already answered, or never ours: the race the spec allows
    this.cancelInbound(inbound, typeof params?.reason === "string" ? params.reason : "Cancelled by peer");
  }

  /** Out of the running table, its bytes released. */
  private stopRunning(inbound: InboundRequest): void {
    this.running.delete(inbound);
    if (inbound.bytes > 0) this.bytes!.release(inbound.bytes, inbound.principal);
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

  /** A running request ends without a response: its handler is aborted and the transport stops awaiting its reply. */
  private cancelInbound(inbound: InboundRequest, reason: string): void {
    if (this.running.get(inbound.requestId) !== inbound) return;
    this.stopRunning(inbound);
    inbound.done = true;
    inbound.cancel(reason);
    this.transport.hints?.abandonReply?.(inbound.requestId);
    const batch = inbound.batch;
    if (batch !== undefined && --batch.waiting === 0) this.flushBatch(batch, inbound.requestId);
    if (this.idle !== undefined && this.running.size === 0) this.wake();
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

  /**
   * @internal Deliver `notifications/progress` for `token` after its request was answered: a
   * 2025-11-25 task-augmented request's token stays valid until the task ends. Returns the release.
   */
  followProgress(token: string, onprogress: (progress: Progress) => void): () => void {
    let last = -Infinity;
    const f = (p: Progress) => {
      if (!(p.progress > last)) return;
      last = p.progress;
      onprogress(p);
    };
    this.followed.set(token, f);
    return () => {
      if (this.followed.get(token) === f) this.followed.delete(token);
    };
  }

  private onProgress(params: Params | undefined): void {
    const token = params?.progressToken;
    if (!isId(token)) return;
    const entry = this.pending.get(token);
    if (entry === undefined) {
      const f =
        typeof token === "string" && typeof params!.progress === "number" ? this.followed.get(token) : undefined;
      try {
        f?.(params as Progress);
      } catch (e) {
        this.report(e);
      }
      return;
    }
    if (entry.onprogress === undefined) return;
    const progress = params!.progress;
    if (typeof progress !== "number" || !(progress > (entry.lastProgress ?? -Infinity))) return;
    entry.lastProgress = progress;
    if (!entry.touch()) return this.expire(entry);
    try {
      entry.onprogress(params as Progress);
    } catch (e) {
      this.report(e);
    }
  }

  private onResponse(m: Msg): void {
    const id = m.id;
    const entry = isId(id) ? this.pending.get(id) : undefined;
    if (entry === undefined) {
      if (isId(id) && this.abandoned.delete(id)) return; // late answer to a cancelled or timed-out request
      const err = isObject(m.error) ? `: ${describeText(m.error.message)}` : "";
      return this.report(new Error(`Response with unknown id ${describe(id)} dropped${err}`));
    }
    this.settle(entry);
    if ("result" in m) {
      const result = m.result;
      if (!isObject(result)) {
        return entry.fail(
          new InvalidResultError(
            entry.method,
            [{ instancePath: "", schemaPath: "", keyword: "type", params: {}, message: "must be an object" }],
            result,
          ),
        );
      }
      if (!this.trustPeer && !entry.skipValidation) {
        const validate = this.current.results[entry.method];
        if (validate !== undefined && !validate(result))
          return entry.fail(new InvalidResultError(entry.method, validate.errors ?? [], result));
      }
      entry.succeed(result);
    } else if (isObject(m.error)) {
      entry.fail(McpError.fromObject(m.error as unknown as JSONRPCErrorObject));
    } else {
      entry.fail(
        new InvalidResultError(
          entry.method,
          [
            {
              instancePath: "",
              schemaPath: "",
              keyword: "required",
              params: {},
              message: "response has neither result nor error",
            },
          ],
          undefined,
        ),
      );
    }
  }

  /** A message the transport could not deliver: fail the request it answers, or answer it. */
  private onFrameError(e: FrameError): void {
    this.report(e);
    const { kind, id } = e.outline;
    if (kind === "response") {
      const entry = id === undefined ? undefined : this.pending.get(id);
      if (entry !== undefined) {
        this.settle(entry);
        entry.fail(new UnreadableResponseError(entry.method, e.message));
      }
      return;
    }
    if (kind === "notification") return;
    this.replyError(kind === "request" && id !== undefined ? id : null, e.reply.error, undefined);
  }

  // ---- replies

  private replyError(id: RequestId | null, error: JSONRPCErrorObject, batch: BatchReply | undefined): void {
    this.reply({ jsonrpc: "2.0", id, error }, batch, id === null ? undefined : { relatedRequestId: id });
  }

  /** `related` names the request answered (an InboundRequest is its own SendOptions). */
  private reply(message: Msg, batch: BatchReply | undefined, related: SendOptions | undefined): void {
    if (this.isClosed) return;
    if (batch !== undefined) {
      batch.responses.push(message);
      if (--batch.waiting === 0) this.flushBatch(batch, related?.relatedRequestId);
      return;
    }
    const sent = this.send(message, related);
    if (this.fresh(sent)) sent.then(undefined, this.reportBound);
  }

  private flushBatch(batch: BatchReply, related: RequestId | undefined): void {
    if (batch.responses.length === 0 || this.isClosed) return;
    this.send(batch.responses as Msg[], related === undefined ? undefined : { relatedRequestId: related }).then(
      undefined,
      this.reportBound,
    );
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
    for (const entry of this.pending.values()) {
      this.settle(entry);
      entry.fail(this.unanswerable(entry.method));
    }
    try {
      this.oninputend?.();
    } catch (e) {
      this.report(e);
    }
    if (this.running.size > 0 && !this.isClosed) await new Promise<void>((resolve) => (this.idle = resolve));
  }

  private unanswerable(method: string): ConnectionClosedError {
    return new ConnectionClosedError(
      `Connection closed: the ${this.peerSide} ended its output; ${method} gets no answer`,
    );
  }

  private wake(): void {
    const idle = this.idle;
    this.idle = undefined;
    idle?.();
  }

  private handleClose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.clear();
    // Built only when someone is told: a stateless HTTP connection closes after every POST, and
    // capturing a stack per close is measurable there.
    const closed = this.pending.size > 0 || this.running.size > 0 ? new ConnectionClosedError() : undefined;
    const pending = this.pending.values();
    this.pending.clear();
    this.deadlines.stop();
    for (const entry of pending) {
      entry.dispose();
      entry.fail(closed!);
    }
    const running = this.running.values();
    this.running.clear();
    for (const inbound of running) {
      inbound.done = true;
      if (inbound.bytes > 0) this.bytes!.release(inbound.bytes, inbound.principal);
      inbound.cancel(closed!);
    }
    this.abandoned.clear();
    this.followed.clear();
    this.wake();
    this.onclose?.();
  }

  private report(e: unknown): void {
    const error = e instanceof Error ? e : new Error(describeText(e));
    try {
      this.onerror?.(error);
    } catch {
      // An error hook that throws must not break message handling.
    }
  }
}
