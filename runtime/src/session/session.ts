/**
 * Correlation for one connection, shared by both sides, every transport and every lifecycle era:
 * what AnsweringSession does (inbound dispatch, replies, teardown) plus this side's own requests —
 * outgoing ids and the pending map, timeouts, cancellation, progress routing, result validation —
 * batches, and notification handlers. A 2026-07-28 server sends no requests, takes no batches and
 * has no notification handlers: it uses AnsweringSession alone, so its bundle carries none of this.
 */
import { type JSONRPCErrorObject, type RequestId, isObject } from "../jsonrpc.js";
import type { MessageContext, SendOptions } from "../transport.js";
import {
  type ConnectionClosedError,
  InvalidResultError,
  LimitError,
  McpError,
  RequestTimeoutError,
  UnreadableResponseError,
} from "../errors.js";
import { MAX_PENDING_REQUESTS } from "../limits.js";
import { PendingRequest, type PendingOwner } from "./outgoing.js";
import { PendingSlots } from "./pending-slots.js";
import { Deadlines } from "./deadlines.js";
import { BatchReply, type InboundRequest } from "./inbound.js";
import { tableReady, validatorReady } from "../lazy-binding.js";
import { AnsweringSession, isId, type Msg } from "./answering.js";
import { invalidParams, invalidRequest } from "./replies.js";
import { requestText, type SharedMeta } from "./request-text.js";
import type { ProtocolBinding } from "../abi.js";
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

const DEFAULT_TIMEOUT_MS = 60_000;
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

export class Session extends AnsweringSession implements PendingOwner {
  private readonly defaultTimeout: number;
  private readonly maxPending: number;
  private nextId = 0;
  /** `requestHandlers` is SessionOptions.requestHandlers, other sessions' too: copied before a change. */
  private sharedHandlers: boolean;
  private readonly pending = new PendingSlots<PendingRequest>();
  private readonly abandoned = new Set<RequestId>();
  /** Progress tokens followed past their request (followProgress); one per waiting task, released when it ends. */
  private readonly followed = new Map<string, (progress: Progress) => void>();
  private readonly notificationHandlers = new Map<string, NotificationHandler<any>>();
  /** The transport takes messages as JSON text (TransportHints.sendText). */
  private readonly takesText: boolean;
  private readonly deadlines = new Deadlines<PendingRequest>(
    () => this.pending.values(),
    (e) => this.expire(e),
    () => this.pending.size === 0,
  );

  constructor(options: SessionOptions) {
    super(options);
    this.takesText = this.transport.hints?.sendText !== undefined;
    this.sharedHandlers = options.requestHandlers !== undefined;
    this.defaultTimeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.maxPending = options.maxPendingRequests ?? MAX_PENDING_REQUESTS;
  }

  /** The id the next `request` call will use (ids are never reused); lets a caller name its request before sending it. */
  get nextRequestId(): number {
    return this.nextId;
  }

  override get pendingCount(): number {
    return this.pending.size;
  }

  /** Switch revision (after negotiation). */
  setBinding(binding: ProtocolBinding): void {
    this.current = binding;
  }

  setPolicy(policy: SessionPolicy | undefined): void {
    this.policy = policy;
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

  override request<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.requestWith<R>(method, params, options, undefined);
  }

  /**
   * `request` whose outcome `reader` reads as the response is handled (see ResponseReader): the
   * promise settles with what the reader makes of it, one promise and no extra microtask.
   * `meta`: the `_meta` of `params`, one object many requests share; `params` then comes without
   * one (the caller's own object, completed in place). A transport that takes text gets the
   * request assembled with `meta`'s text (request-text.ts).
   */
  requestWith<T>(
    method: string,
    params: Params | undefined,
    options: RequestOptions | undefined,
    reader: ResponseReader<T> | undefined,
    meta?: SharedMeta,
  ): Promise<T> {
    const refused = this.refusal(method, params, "request");
    if (refused !== undefined) return refused.then(() => this.requestWith<T>(method, params, options, reader, meta));
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
    let text: string | undefined;
    if (meta !== undefined) {
      params ??= {};
      if (this.takesText && options?.onprogress === undefined) text = requestText(id, method, params, meta);
      else params._meta = meta.value;
    }
    // The request id doubles as the progress token: unique among this side's active requests.
    if (options?.onprogress)
      params = { ...params, _meta: { ...(params?._meta as Params | undefined), progressToken: id } };
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
    const sendOptions = related === undefined ? undefined : { relatedRequestId: related };
    const sent =
      text !== undefined
        ? this.sendText(text, sendOptions)
        : this.send(
            params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
            sendOptions,
          );
    if (this.fresh(sent)) sent.then(undefined, (e) => this.sendFailed(id, e));
    return promise;
  }

  /** transport.hints.sendText, with a synchronous throw turned into a rejection. */
  private sendText(text: string, options: SendOptions | undefined): Promise<void> {
    try {
      return this.transport.hints!.sendText!(text, options);
    } catch (e) {
      return Promise.reject(e);
    }
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

  protected override batchNeeds(items: unknown[]): Promise<void> | undefined {
    // A batch (2025-03-26): what its members need, all of it before any of them runs.
    const needs = items
      .map((item) => (Array.isArray(item) ? undefined : this.loadFor(item)))
      .filter((p) => p !== undefined);
    return needs.length === 0 ? undefined : Promise.all(needs).then(() => undefined);
  }

  /**
   * The result validator of the request a response answers, when the session checks it (a caller
   * that skips session validation loads what it checks itself).
   */
  protected override resultNeeds(m: Msg): Promise<void> | undefined {
    const entry = isId(m.id) ? this.pending.get(m.id) : undefined;
    if (entry === undefined) return undefined;
    return this.trustPeer || entry.skipValidation
      ? tableReady(this.current)
      : validatorReady(this.current, "results", entry.method);
  }

  protected override notificationNeeds(method: string, params: unknown): Promise<void> | undefined {
    // Notifications are only validated on their way to a handler (no table is read otherwise).
    return params !== undefined && !this.trustPeer && this.notificationHandlers.has(method)
      ? validatorReady(this.current, "params", method)
      : undefined;
  }

  protected override dispatchNotification(method: string, params: Params | undefined): void {
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

  protected override receiveBatch(items: unknown[], context: MessageContext | undefined): void {
    if (!this.current.batching) return super.receiveBatch(items, context);
    if (items.length === 0) {
      this.replyError(null, invalidRequest("empty batch"));
      return;
    }
    let waiting = 0;
    for (const m of items) {
      if (typeof m !== "object" || m === null || Array.isArray(m) || ("method" in m ? "id" in m : !("id" in m)))
        waiting++;
    }
    const batch = waiting > 0 ? new BatchReply(waiting) : undefined;
    const share = Math.ceil((context?.bytes ?? 0) / items.length);
    for (const m of items) this.receiveOne(m, context, share, batch);
  }

  /** A batch member's reply waits for the others', and all of them go out as one array. */
  protected override reply(message: Msg, related: SendOptions | undefined, batch?: BatchReply): void {
    if (batch === undefined) return super.reply(message, related);
    if (this.isClosed) return;
    batch.responses.push(message);
    if (--batch.waiting === 0) this.flushBatch(batch, related?.relatedRequestId);
  }

  protected override unanswered(inbound: InboundRequest): void {
    const batch = inbound.batch!;
    if (--batch.waiting === 0) this.flushBatch(batch, inbound.requestId);
  }

  private flushBatch(batch: BatchReply, related: RequestId | undefined): void {
    if (batch.responses.length === 0 || this.isClosed) return;
    this.send(batch.responses as Msg[], related === undefined ? undefined : { relatedRequestId: related }).then(
      undefined,
      this.reportBound,
    );
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

  protected override onProgress(params: Params | undefined): void {
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

  protected override onResponse(m: Msg): void {
    const id = m.id;
    const entry = isId(id) ? this.pending.get(id) : undefined;
    if (entry === undefined) {
      if (isId(id) && this.abandoned.delete(id)) return; // late answer to a cancelled or timed-out request
      return super.onResponse(m);
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

  protected override unreadableResponse(id: RequestId | undefined, why: string): void {
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (entry !== undefined) {
      this.settle(entry);
      entry.fail(new UnreadableResponseError(entry.method, why));
    }
  }

  // ---- teardown

  protected override endOutgoing(): void {
    for (const entry of this.pending.values()) {
      this.settle(entry);
      entry.fail(this.unanswerable(entry.method));
    }
  }

  protected override closeOutgoing(closed: ConnectionClosedError | undefined): void {
    const pending = this.pending.values();
    this.pending.clear();
    this.deadlines.stop();
    for (const entry of pending) {
      entry.dispose();
      entry.fail(closed!);
    }
    this.abandoned.clear();
    this.followed.clear();
  }
}
