/**
 * The 2026-07-28 rules as a SessionPolicy: each request picks its revision from its own `_meta` (no
 * handshake, no phase), the server's capabilities gate methods (-32601), and the server never sends
 * requests (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#statelessness;
 * input comes back through InputRequiredResult instead).
 */
import type { MethodInfo, ProtocolBinding } from "../../abi.js";
import { ErrorCode, type JSONRPCErrorObject } from "../../jsonrpc.js";
import { CapabilityError } from "../../errors.js";
import type { Params, SessionPolicy } from "../../session/types.js";
import { hasCapability } from "../common/capabilities.js";
import type { Capabilities } from "../common/types.js";
import { checkRequestMeta, declaresModern, unsupportedVersion } from "./meta.js";
import { FixedMap } from "../../session/method-set.js";

export class ModernServerPolicy implements SessionPolicy {
  private readonly modern: FixedMap<ProtocolBinding>;

  constructor(
    modern: ReadonlyMap<string, ProtocolBinding>,
    private readonly supported: readonly string[],
    private readonly own: Capabilities,
  ) {
    this.modern = new FixedMap([...modern]);
  }

  bindingFor(method: string, params: Params | undefined): ProtocolBinding | JSONRPCErrorObject {
    // A legacy client's handshake: its only diagnostic is the list of versions served (§13.2).
    if (method === "initialize" && !declaresModern(params))
      return unsupportedVersion(params?.protocolVersion, this.supported, this.supported);
    return checkRequestMeta(params, this.modern, this.supported);
  }

  checkInbound(method: string, _params: Params | undefined, info: MethodInfo): JSONRPCErrorObject | undefined {
    // info is the method's entry in the binding bindingFor chose (the session looked it up).
    const cap = info.capability;
    if (cap && !hasCapability(this.own, cap)) {
      return {
        code: ErrorCode.MethodNotFound,
        message: `Method not found: ${method} (this server does not declare the '${cap}' capability)`,
      };
    }
    return undefined;
  }

  checkOutgoing(method: string, _params: Params | undefined, kind: "request" | "notification"): void {
    if (kind === "request") {
      throw new CapabilityError(
        method,
        null,
        `Cannot send ${method}: a 2026-07-28 server sends no requests; ask through ctx.client (an input-required round trip)`,
      );
    }
  }

  acceptNotification(): boolean {
    return true;
  }

  cancellable(): boolean {
    return true;
  }
}
