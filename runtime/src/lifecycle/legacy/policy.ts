/**
 * The legacy-era rules (2024-11-05 .. 2025-11-25) as a SessionPolicy: what may be sent in each
 * lifecycle phase, and capability enforcement in both directions.
 */
import type { JSONRPCErrorObject } from "../../jsonrpc.js";
import { ErrorCode } from "../../jsonrpc.js";
import type { MethodInfo, ProtocolBinding, Side } from "../../abi.js";
import { CapabilityError, LifecycleError } from "../../errors.js";
import { describe } from "../../describe.js";
import type { Params, SessionPolicy } from "../../session/types.js";
import { elicitationModeAllowed, hasCapability, notificationCapabilityOwner } from "../common/capabilities.js";
import type { Capabilities } from "../common/types.js";

/** new: nothing exchanged; initializing: initialize in flight/answered, initialized not yet; ready: operation. */
export type Phase = "new" | "initializing" | "ready";

export class LegacyPolicy implements SessionPolicy {
  phase: Phase = "new";
  peer: Capabilities | undefined;
  /** Resource URIs the client subscribed to (tracked on both sides). */
  readonly subscriptions = new Set<string>();
  oninitialized?: () => void;
  /** No handshake is required on this connection (stateless HTTP). */
  stateless = false;
  /** Set by the server side: an inbound request's revision (see SessionPolicy.bindingFor). */
  bindingFor?: (method: string, params: Params | undefined) => ProtocolBinding;

  constructor(
    readonly side: Side,
    readonly own: Capabilities,
    private readonly binding: () => ProtocolBinding,
    private readonly report: (error: Error) => void,
  ) {}

  private get peerName(): Side {
    return this.side === "client" ? "server" : "client";
  }

  checkOutgoing(method: string, params: Params | undefined, kind: "request" | "notification"): void {
    if (this.phase !== "ready") this.checkEarly(method, kind);
    else if (method === "initialize")
      throw new LifecycleError("Cannot send initialize: the session is already initialized");
    const binding = this.binding();
    const info = binding.methods[method];
    if (info === undefined || typeof info !== "object") {
      throw new CapabilityError(method, null, `${method} is not part of protocol revision ${binding.revision}`);
    }
    if (info.kind !== kind) throw new CapabilityError(method, null, `${method} is a ${info.kind}, not a ${kind}`);
    if (info.from !== this.side && info.from !== "both") {
      throw new CapabilityError(method, null, `${method} is sent by the ${info.from}, not by the ${this.side}`);
    }
    const cap = info.capability;
    if (cap !== null) {
      const owner = kind === "request" ? this.peerName : notificationCapabilityOwner(cap);
      if (owner === this.side && !hasCapability(this.own, cap)) {
        throw new CapabilityError(
          method,
          cap,
          `Cannot send ${method}: this ${this.side} does not declare the '${cap}' capability`,
        );
      }
      if (owner === this.peerName && this.peer !== undefined && !hasCapability(this.peer, cap)) {
        throw new CapabilityError(
          method,
          cap,
          `Cannot send ${method}: the ${this.peerName} does not declare the '${cap}' capability`,
        );
      }
    }
    if (this.side === "server") this.checkServerSpecifics(method, params);
  }

  private checkEarly(method: string, kind: "request" | "notification"): void {
    if (kind === "request") {
      if (method === "ping" || (method === "initialize" && this.side === "client")) return;
    } else if (method === "notifications/cancelled" || (this.side === "server" && method === "notifications/message")) {
      return;
    }
    const until = this.side === "client" ? "the initialize response" : "notifications/initialized";
    throw new LifecycleError(
      `Cannot send ${method} before ${until}: only ping${this.side === "server" ? " and logging" : ""} may be sent until then`,
    );
  }

  private checkServerSpecifics(method: string, params: Params | undefined): void {
    const peer = this.peer;
    if (method === "sampling/createMessage") {
      if (
        params !== undefined &&
        (params.tools !== undefined || params.toolChoice !== undefined) &&
        !hasCapability(peer, "sampling.tools")
      ) {
        throw new CapabilityError(
          method,
          "sampling.tools",
          "Cannot send sampling/createMessage with tools or toolChoice: the client does not declare the 'sampling.tools' capability",
        );
      }
    } else if (method === "elicitation/create") {
      const mode = params?.mode ?? "form";
      if (!elicitationModeAllowed(peer, mode)) {
        throw new CapabilityError(
          method,
          `elicitation.${String(mode)}`,
          `Cannot send elicitation/create in ${String(mode)} mode: the client does not declare 'elicitation.${String(mode)}'`,
        );
      }
    } else if (method === "notifications/resources/updated") {
      const uri = params?.uri;
      if (typeof uri !== "string" || !this.subscriptions.has(uri)) {
        throw new CapabilityError(
          method,
          "resources.subscribe",
          `Cannot send notifications/resources/updated for ${JSON.stringify(uri)}: the client has not subscribed to it`,
        );
      }
    }
  }

  checkInbound(method: string, params: Params | undefined, info: MethodInfo): JSONRPCErrorObject | undefined {
    if (this.side === "server") {
      if (method === "initialize") {
        return this.phase === "new" || this.stateless
          ? undefined
          : { code: ErrorCode.InvalidRequest, message: "Invalid request: initialize was already received" };
      }
      if (this.phase === "new" && method !== "ping") {
        return {
          code: ErrorCode.InvalidRequest,
          message: `Invalid request: ${describe(method)} received before initialize`,
        };
      }
    }
    // info is the method's entry in the table the session dispatches with (it looked it up).
    const cap = info.capability;
    if (cap && !hasCapability(this.own, cap)) {
      return {
        code: ErrorCode.MethodNotFound,
        message: `Method not found: ${describe(method)} (this ${this.side} does not declare the '${cap}' capability)`,
      };
    }
    if (this.side === "client") {
      if (
        method === "sampling/createMessage" &&
        params !== undefined &&
        (params.tools !== undefined || params.toolChoice !== undefined) &&
        !hasCapability(this.own, "sampling.tools")
      ) {
        return {
          code: ErrorCode.InvalidParams,
          message:
            "Invalid params: tools and toolChoice need the 'sampling.tools' capability, which this client does not declare",
        };
      }
      if (method === "elicitation/create") {
        const mode = params?.mode ?? "form";
        if (!elicitationModeAllowed(this.own, mode)) {
          return {
            code: ErrorCode.InvalidParams,
            message: `Invalid params: elicitation mode ${describe(mode)} is not declared by this client`,
          };
        }
      }
    }
    return undefined;
  }

  acceptNotification(method: string, params: Params | undefined): boolean {
    if (method === "notifications/initialized" && this.side === "server") {
      if (this.stateless) return true;
      if (this.phase !== "initializing") {
        this.report(
          new LifecycleError(
            `notifications/initialized received ${this.phase === "new" ? "before initialize" : "twice"}; ignored`,
          ),
        );
        return false;
      }
      this.phase = "ready";
      this.oninitialized?.();
      return true;
    }
    if (method === "notifications/resources/updated" && this.side === "client") {
      const uri = params?.uri;
      if (typeof uri !== "string" || !this.subscriptions.has(uri)) {
        this.report(
          new CapabilityError(
            method,
            "resources.subscribe",
            `notifications/resources/updated for ${describe(uri)}, which this client never subscribed to; dropped`,
          ),
        );
        return false;
      }
    }
    return true;
  }

  cancellable(method: string): boolean {
    return method !== "initialize";
  }
}
