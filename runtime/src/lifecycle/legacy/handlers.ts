/** Registering handlers consistently with what a side declares. */
import type { ProtocolBinding, Side } from "../../abi.js";
import { CapabilityError } from "../../errors.js";
import type { Session } from "../../session/session.js";
import type { NotificationHandler, RequestHandler } from "../../session/types.js";
import { hasCapability } from "./capabilities.js";
import type { Capabilities, NotificationHandlers, RequestHandlers } from "./types.js";
import { methodInfoAnyRevision } from "./versions.js";

/**
 * Refuse a request handler this side could never legitimately run: a method unknown to every
 * given revision, one only this side sends, or one gated by a capability this side does not declare.
 */
export function checkHandler(bindings: readonly ProtocolBinding[], side: Side, own: Capabilities, method: string): void {
  const info = methodInfoAnyRevision(bindings, method);
  if (info === undefined) {
    throw new CapabilityError(method, null, `Cannot handle ${method}: no given protocol revision defines it`);
  }
  if (info.kind !== "request") throw new CapabilityError(method, null, `Cannot handle ${method} as a request: it is a notification`);
  if (info.from === side) throw new CapabilityError(method, null, `Cannot handle ${method} on the ${side}: only the ${side} sends it`);
  if (info.capability !== null && !hasCapability(own, info.capability)) {
    throw new CapabilityError(method, info.capability, `Cannot handle ${method}: this ${side} does not declare the '${info.capability}' capability`);
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
    for (const method of Object.keys(notificationHandlers)) session.setNotificationHandler(method, notificationHandlers[method] as NotificationHandler<any>);
  }
}

export const emptyResult = (): Record<string, never> => ({});
