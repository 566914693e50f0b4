/**
 * `subscriptions/listen` on the client
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions): one
 * long-lived request per subscription, whose notifications are told apart by
 * `_meta["io.modelcontextprotocol/subscriptionId"]` (the listen request's id). The server first
 * acknowledges the subset it honours; closing the subscription cancels the request, which the
 * transport turns into the wire's cancellation (stdio: `notifications/cancelled`; HTTP: closing the
 * response stream).
 */
import type { RequestId } from "../../jsonrpc.js";
import type { Params } from "../../session/types.js";
import { MetaKey } from "./wire.js";

import type { SubscriptionFilter } from "./wire.js";
export type { SubscriptionFilter };

export interface ListenOptions {
  /** Every change notification of this subscription (after the acknowledgement). */
  onnotification?: (method: string, params: Params | undefined) => void;
}

/** The server's acknowledgement granted something that was not asked for. */
export class SubscriptionAckError extends Error {
  override name = "SubscriptionAckError";
}

export class Subscription {
  /** The subset of the filter the server agreed to honour. */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Settles when the subscription is over (closed by either side or by the connection). */
  readonly ended: Promise<void>;
  private ack!: { resolve: (f: SubscriptionFilter) => void; reject: (e: unknown) => void };
  private end!: () => void;
  private isAcknowledged = false;
  private isEnded = false;

  /** @internal created by the modern client session */
  constructor(
    readonly id: RequestId,
    readonly filter: SubscriptionFilter,
    private readonly options: ListenOptions,
    private readonly controller: AbortController,
    private readonly report: (e: Error) => void,
  ) {
    this.acknowledged = new Promise((resolve, reject) => (this.ack = { resolve, reject }));
    this.acknowledged.catch(() => {});
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  get active(): boolean {
    return !this.isEnded;
  }

  /** Stop listening: cancels the listen request. */
  async close(): Promise<void> {
    if (!this.isEnded) this.controller.abort(new Error("subscription closed"));
    await this.ended;
  }

  /** @internal one notification whose subscriptionId is ours */
  deliver(method: string, params: Params | undefined): void {
    if (this.isEnded) return;
    if (method === "notifications/subscriptions/acknowledged") {
      if (this.isAcknowledged)
        return this.report(
          new SubscriptionAckError(`subscription ${JSON.stringify(this.id)} acknowledged twice; ignored`),
        );
      this.isAcknowledged = true;
      const granted = (params?.notifications ?? {}) as SubscriptionFilter;
      const extra = beyond(granted, this.filter);
      if (extra !== undefined) {
        this.ack.reject(
          new SubscriptionAckError(
            `subscription ${JSON.stringify(this.id)}: the server acknowledged ${extra}, which was not requested`,
          ),
        );
        this.controller.abort(new Error("subscription acknowledgement did not match the request"));
        return;
      }
      this.ack.resolve(granted);
      return;
    }
    if (!this.isAcknowledged) {
      return this.report(
        new SubscriptionAckError(
          `${method} on subscription ${JSON.stringify(this.id)} before its acknowledgement; dropped`,
        ),
      );
    }
    try {
      this.options.onnotification?.(method, params);
    } catch (e) {
      this.report(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** @internal the listen request settled (server response, cancellation, connection loss) */
  finish(error: unknown): void {
    if (this.isEnded) return;
    this.isEnded = true;
    if (!this.isAcknowledged) this.ack.reject(error ?? new Error("subscription ended before it was acknowledged"));
    this.end();
  }
}

/** A description of what `granted` holds beyond `asked`, if anything. */
function beyond(granted: SubscriptionFilter, asked: SubscriptionFilter): string | undefined {
  for (const k of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (granted[k] === true && asked[k] !== true) return k;
  }
  const uris = granted.resourceSubscriptions;
  if (Array.isArray(uris)) {
    const allowed = new Set(asked.resourceSubscriptions ?? []);
    for (const u of uris) if (!allowed.has(u)) return `resourceSubscriptions ${JSON.stringify(u)}`;
  }
  return undefined;
}

/** The subscription id a notification belongs to, if it carries one. */
export function subscriptionIdOf(params: Params | undefined): RequestId | undefined {
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const id = (meta as Record<string, unknown>)[MetaKey.subscriptionId];
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
