/**
 * The 2026-07-28 rules as a SessionPolicy: each request picks its revision from its own `_meta` (no
 * handshake, no phase), the server's capabilities gate methods (-32601), and the server never sends
 * requests (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#statelessness;
 * input comes back through InputRequiredResult instead).
 */
import type { MethodInfo, ProtocolBinding, Validator } from "../../abi.js";
import { deriveBinding } from "../../lazy-binding.js";
import { ErrorCode, type JSONRPCErrorObject } from "../../jsonrpc.js";
import { CapabilityError } from "../../errors.js";
import type { Params, SessionPolicy } from "../../session/types.js";
import { hasCapability } from "../common/capabilities.js";
import type { Capabilities } from "../common/types.js";
import { checkRequestMeta, declaresModern, unsupportedVersion } from "./meta.js";
import { INPUT_METHODS } from "./mrtr.js";
import { FixedMap } from "../../session/method-set.js";

/**
 * `inputResponses` is validated by the MRTR layer, key by key, for the keys a handler asks for:
 * unknown extra keys are ignored whatever they hold (§12.5), so the schema must not judge them.
 */
function withoutInputResponses(validate: Validator | undefined): Validator | undefined {
  if (validate === undefined) return undefined;
  const wrapped = ((params: unknown) => {
    const p = params as Params;
    if (p.inputResponses === undefined) {
      const ok = validate(p);
      wrapped.errors = validate.errors;
      return ok;
    }
    const { inputResponses: _, ...rest } = p;
    const ok = validate(rest);
    wrapped.errors = validate.errors;
    return ok;
  }) as Validator;
  return wrapped;
}

/** Derived once per binding (a policy is made per connection, on HTTP per POST). */
const derived = new WeakMap<ProtocolBinding, ProtocolBinding>();

function mrtrBinding(b: ProtocolBinding): ProtocolBinding {
  let out = derived.get(b);
  if (out === undefined) {
    out = deriveBinding(b, {
      params: (method, validate) => (INPUT_METHODS.has(method) ? withoutInputResponses(validate)! : validate),
    });
    derived.set(b, out);
  }
  return out;
}

export class ModernServerPolicy implements SessionPolicy {
  private readonly modern: FixedMap<ProtocolBinding>;

  constructor(
    modern: ReadonlyMap<string, ProtocolBinding>,
    private readonly supported: readonly string[],
    private readonly own: Capabilities,
  ) {
    this.modern = new FixedMap([...modern].map(([rev, b]) => [rev, mrtrBinding(b)] as const));
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
