/** Registering handlers consistently with what a side declares. */
import type { ProtocolBinding, Side } from "../../abi.js";
import { CapabilityError } from "../../errors.js";
import type { Session } from "../../session/session.js";
import type { NotificationHandler, RequestHandler } from "../../session/types.js";
import { hasCapability } from "../common/capabilities.js";
import type { Capabilities, NotificationHandlers, RequestHandlers } from "../common/types.js";
import { methodInfoAnyRevision } from "./versions.js";
import { tableLoaded } from "../../lazy-binding.js";

/**
 * Refuse a request handler this side could never legitimately run: a method unknown to every
 * given revision, one only this side sends, or one gated by a capability this side does not declare.
 */
export function checkHandler(
  bindings: readonly ProtocolBinding[],
  side: Side,
  own: Capabilities,
  method: string,
): void {
  const info = methodInfoAnyRevision(bindings, method);
  if (info === undefined) {
    const unloaded = bindings.filter((b) => !tableLoaded(b)).map((b) => b.revision);
    if (unloaded.length > 0) {
      throw new CapabilityError(
        method,
        null,
        `Cannot check a handler for ${method}: no loaded protocol revision defines it and the method tables of ${unloaded.join(", ")} are not loaded yet (loadTables)`,
      );
    }
    throw new CapabilityError(method, null, `Cannot handle ${method}: no given protocol revision defines it`);
  }
  if (info.kind !== "request")
    throw new CapabilityError(method, null, `Cannot handle ${method} as a request: it is a notification`);
  if (info.from === side)
    throw new CapabilityError(method, null, `Cannot handle ${method} on the ${side}: only the ${side} sends it`);
  if (info.capability !== null && !hasCapability(own, info.capability)) {
    throw new CapabilityError(
      method,
      info.capability,
      `Cannot handle ${method}: this ${side} does not declare the '${info.capability}' capability`,
    );
  }
}

export function registerAll(
  session: Session,
  register: (method: string, handler: RequestHandler<any, any>) => void,
  handlers: RequestHandlers | undefined,
  notificationHandlers: NotificationHandlers | undefined,
): void {
  if (handlers) for (const method of Object.keys(handlers)) register(method, handlers[method]!);
  if (notificationHandlers) {
    for (const method of Object.keys(notificationHandlers))
      session.setNotificationHandler(method, notificationHandlers[method] as NotificationHandler<any>);
  }
}

export const emptyResult = (): Record<string, never> => ({});
