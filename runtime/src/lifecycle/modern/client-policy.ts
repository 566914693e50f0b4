/**
 * The 2026-07-28 client's rules as a SessionPolicy: no handshake, so every method of the revision
 * may go out at once (gated by the capabilities `server/discover` reported, once known); the only
 * notification a client sends is `notifications/cancelled`; notifications that belong to a
 * `subscriptions/listen` stream are routed to their subscription and keep the cache honest.
 */
import type { JSONRPCErrorObject } from "../../jsonrpc.js";
import type { ProtocolBinding } from "../../abi.js";
import { CapabilityError } from "../../errors.js";
import type { Params, SessionPolicy } from "../../session/types.js";
import { MethodSet } from "../../session/method-set.js";
import { hasCapability } from "../common/capabilities.js";
import type { Capabilities } from "../common/types.js";
import type { ResultCache } from "./client-cache.js";
import { subscriptionIdOf, type Subscription } from "./client-listen.js";

/** Requests of the 2026-07-28 tasks extension (io.modelcontextprotocol/tasks). */
const TASK_REQUESTS = new MethodSet(["tasks/get", "tasks/update", "tasks/cancel"]);

export class ModernClientPolicy implements SessionPolicy {
  /** The server's capabilities from `server/discover` (unknown until then: nothing is gated). */
  peer: Capabilities | undefined;
  cache: ResultCache | undefined;
  readonly subscriptions = new Map<string | number, Subscription>();

  constructor(
    private readonly binding: () => ProtocolBinding,
    private readonly report: (error: Error) => void,
  ) {}

  checkOutgoing(method: string, _params: Params | undefined, kind: "request" | "notification"): void {
    const binding = this.binding();
    // The tasks extension's requests are in no core revision; the session sends them only after a CreateTaskResult.
    if (kind === "request" && TASK_REQUESTS.has(method)) return;
    const info = binding.methods[method];
    if (info === undefined || typeof info !== "object") {
      throw new CapabilityError(method, null, `${method} is not part of protocol revision ${binding.revision}`);
    }
    if (info.kind !== kind) throw new CapabilityError(method, null, `${method} is a ${info.kind}, not a ${kind}`);
    if (info.from !== "client" && info.from !== "both") {
      throw new CapabilityError(method, null, `${method} is sent by the ${info.from}, not by the client`);
    }
    if (kind === "notification" && method !== "notifications/cancelled") {
      throw new CapabilityError(
        method,
        null,
        `A ${binding.revision} client sends no notification but notifications/cancelled`,
      );
    }
    const cap = info.capability;
    if (kind === "request" && cap !== null && this.peer !== undefined && !hasCapability(this.peer, cap)) {
      throw new CapabilityError(
        method,
        cap,
        `Cannot send ${method}: the server does not declare the '${cap}' capability`,
      );
    }
  }

  checkInbound(): JSONRPCErrorObject | undefined {
    // A 2026-07-28 server sends no requests; the session answers any with method-not-found.
    return undefined;
  }

  acceptNotification(method: string, params: Params | undefined): boolean {
    if (method === "notifications/cancelled") {
      // A server ends a listen stream on stdio by cancelling the listen request.
      const id = params?.requestId;
      const sub = typeof id === "string" || typeof id === "number" ? this.subscriptions.get(id) : undefined;
      if (sub !== undefined) {
        this.subscriptions.delete(sub.id);
        sub.finish(undefined);
      }
      return false;
    }
    const sid = subscriptionIdOf(params);
    if (sid === undefined) {
      this.cache?.invalidate(method, params);
      return true;
    }
    const sub = this.subscriptions.get(sid);
    if (sub === undefined) {
      this.report(new Error(`${method} for unknown subscription ${JSON.stringify(sid)} dropped`));
      return false;
    }
    if (method !== "notifications/subscriptions/acknowledged") this.cache?.invalidate(method, params);
    sub.deliver(method, params);
    return method !== "notifications/subscriptions/acknowledged";
  }

  cancellable(method: string): boolean {
    // The era probe's server/discover may reach a legacy server, which must see nothing but initialize next.
    return method !== "server/discover";
  }
}
