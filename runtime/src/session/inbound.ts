/**
 * One request the peer sent and a handler is working on. It is also the handler's context, so
 * dispatch allocates one object per request; the AbortController is created only if the
 * handler reads `signal`.
 */
import type { RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions } from "../transport.js";
import type { Params, ProgressOptions, RequestContext, RequestOptions, Result } from "./types.js";

export interface InboundOwner {
  request<R extends Result>(
    method: string,
    params: Params | undefined,
    options: RequestOptions | undefined,
  ): Promise<R>;
  notifyRelated(method: string, params: Params | undefined, relatedRequestId: RequestId): Promise<void>;
  /** One opaque key per connection (RequestContext.connection). */
  readonly connectionKey: object;
  /** See RequestContext.cancelWithStream. */
  cancelWithStream(inbound: InboundRequest): void;
}

/** Collects the responses to the requests of one inbound batch, sent together as one array. */
export class BatchReply {
  readonly responses: unknown[] = [];
  constructor(public waiting: number) {}
}

export class InboundRequest implements RequestContext, SendOptions {
  /** The response went out (or was suppressed); nothing more may be sent for this request. */
  done = false;
  /** The request is also the send options of its response: no options object per reply. */
  readonly relatedRequestId: RequestId;
  cancelled = false;
  private controller: AbortController | undefined;
  /** Undefined until the first progress (a number field would hold a boxed double per request). */
  private lastProgress: number | undefined;

  constructor(
    private readonly owner: InboundOwner,
    readonly requestId: RequestId,
    readonly method: string,
    readonly meta: Params | undefined,
    readonly batch: BatchReply | undefined,
    readonly transportContext: MessageContext | undefined,
    /** What the request is charged against its session's byte budget while it runs (0: nothing). */
    readonly bytes: number,
    /** The principal (`principalKey`) those bytes are also charged to; undefined: the session alone. */
    readonly principal: string | undefined = undefined,
  ) {
    this.relatedRequestId = requestId;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.cancelReason);
    }
    return this.controller.signal;
  }

  private cancelReason: unknown;

  /** The peer cancelled or the connection closed: abort the handler, suppress the response. */
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.cancelReason = reason;
    this.controller?.abort(reason);
  }

  sendProgress(progress: number, options?: ProgressOptions): Promise<void> {
    const token = this.meta?.progressToken;
    if (this.done || this.cancelled || (typeof token !== "string" && typeof token !== "number")) {
      return Promise.resolve();
    }
    if (!(progress > (this.lastProgress ?? -Infinity))) {
      return Promise.reject(
        new RangeError(
          `Progress must increase: ${progress} after ${this.lastProgress ?? -Infinity} (request ${this.method})`,
        ),
      );
    }
    this.lastProgress = progress;
    const params: Params = { progressToken: token, progress };
    if (options?.total !== undefined) params.total = options.total;
    if (options?.message !== undefined) params.message = options.message;
    return this.owner.notifyRelated("notifications/progress", params, this.requestId);
  }

  sendRequest<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.owner.request<R>(method, params, { ...options, relatedRequestId: this.requestId });
  }

  sendNotification(method: string, params?: Params): Promise<void> {
    return this.owner.notifyRelated(method, params, this.requestId);
  }

  get connection(): object {
    return this.owner.connectionKey;
  }

  cancelWithStream(): void {
    if (!this.done) this.owner.cancelWithStream(this);
  }
}
