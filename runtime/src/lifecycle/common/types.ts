/**
 * What both protocol eras' lifecycles share: who a side is (`Implementation`), what it can do
 * (`Capabilities`, read with capabilities.ts) and its handler tables by method.
 */
import type * as Wire from "../../wire/legacy.js";
import type { NotificationHandler, RequestHandler } from "../../session/types.js";

/** `Implementation` (clientInfo / serverInfo) of the newest legacy revision, open to newer fields. */
export type Implementation = Wire.Implementation & { [key: string]: unknown };

/** Capabilities object as exchanged in `initialize` (open: unknown keys are kept). */
export type Capabilities = Record<string, unknown>;

export type RequestHandlers = Record<string, RequestHandler<any, any>>;
export type NotificationHandlers = Record<string, NotificationHandler<any>>;
