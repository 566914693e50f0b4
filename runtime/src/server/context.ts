/** The context every server handler receives: cancellation, progress, logging, requests to the client. */
import { loggingLevels, type CreateMessageResult, type LoggingLevel, type Root } from "../mcp-types.js";
import type { RequestContext } from "../session/types.js";
import type { ServerSession } from "../lifecycle/legacy/server.js";
import { hasCapability } from "../lifecycle/legacy/capabilities.js";
import type { ClientRequests, HandlerContext } from "./types.js";

/** Per-connection state the facade keeps beside its ServerSession. */
export interface Connection {
  readonly session: ServerSession;
  /** Index into `loggingLevels` of the least severe level sent. */
  logThreshold: number;
  /** `notifications/initialized` arrived: broadcasts may go out. */
  ready: boolean;
}

export function levelIndex(level: LoggingLevel): number {
  return loggingLevels.indexOf(level);
}

export function shouldLog(conn: Connection, level: LoggingLevel): boolean {
  return hasCapability(conn.session.capabilities, "logging") && levelIndex(level) >= conn.logThreshold;
}

export function createContext(conn: Connection, rc: RequestContext): HandlerContext {
  const session = conn.session;
  const client: ClientRequests = {
    get capabilities() {
      return session.clientCapabilities ?? {};
    },
    get info() {
      return session.clientInfo;
    },
    createMessage: (params, options) => rc.sendRequest<CreateMessageResult>("sampling/createMessage", params, withSignal(rc, options)),
    elicit: (params, options) => rc.sendRequest("elicitation/create", params, withSignal(rc, options)) as never,
    elicitUrl: (params, options) => rc.sendRequest("elicitation/create", params, withSignal(rc, options)) as never,
    listRoots: async (options) => (await rc.sendRequest<{ roots: Root[] }>("roots/list", undefined, withSignal(rc, options))).roots,
  };
  return {
    requestId: rc.requestId,
    get signal() {
      return rc.signal;
    },
    revision: session.protocolVersion ?? session.binding.revision,
    meta: rc.meta,
    sendProgress: (progress, options) => rc.sendProgress(progress, options),
    log: async (level, data, logger) => {
      if (!shouldLog(conn, level)) return;
      await rc.sendNotification("notifications/message", logger === undefined ? { level, data } : { level, data, logger });
    },
    client,
  };
}

/** Requests made on behalf of a handler are cancelled with it unless the caller says otherwise. */
function withSignal(rc: RequestContext, options: Parameters<ClientRequests["listRoots"]>[0]) {
  return options?.signal !== undefined ? options : { ...options, signal: rc.signal };
}
