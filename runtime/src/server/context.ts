/**
 * The context every server handler receives: cancellation, progress, logging, requests to the
 * client. A class, so a tool call allocates one small object and no closures (it is on the hot path).
 */
import {
  loggingLevels,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitFormParams,
  type ElicitResult,
  type ElicitSchema,
  type ElicitUrlParams,
  type LoggingLevel,
  type Root,
} from "../mcp-types.js";
import type { ProgressOptions, RequestContext, RequestOptions } from "../session/types.js";
import type { ServerSession } from "../lifecycle/legacy/server.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { ClientRequests, HandlerContext } from "./types.js";
import { InvalidResultError, McpError, PeerRequestError } from "../errors.js";
import { checkElicitContent } from "./elicit-check.js";

/** Per-connection state the facade keeps beside its ServerSession. */
export interface Connection {
  readonly session: ServerSession;
  /** Index into `loggingLevels` of the least severe level sent. */
  logThreshold: number;
  /** `notifications/initialized` arrived: broadcasts may go out. */
  ready: boolean;
  /** Who owns the 2025-11-25 tasks this connection creates when no authorization says (a random per-connection id). */
  readonly taskOwner?: string;
}

export function levelIndex(level: LoggingLevel): number {
  return loggingLevels.indexOf(level);
}

export function shouldLog(conn: Connection, level: LoggingLevel): boolean {
  return hasCapability(conn.session.capabilities, "logging") && levelIndex(level) >= conn.logThreshold;
}

class Context implements HandlerContext {
  constructor(
    private readonly conn: Connection,
    private readonly rc: RequestContext,
    private readonly status?: (message: string) => Promise<void>,
  ) {}
  get requestId() {
    return this.rc.requestId;
  }
  get signal() {
    return this.rc.signal;
  }
  get revision() {
    const s = this.conn.session;
    return s.protocolVersion ?? s.binding.revision;
  }
  get meta() {
    return this.rc.meta;
  }
  get auth() {
    return this.rc.transportContext?.auth;
  }
  sendProgress(progress: number, options?: ProgressOptions): Promise<void> {
    return this.rc.sendProgress(progress, options);
  }
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (!shouldLog(this.conn, level)) return;
    await this.rc.sendNotification(
      "notifications/message",
      logger === undefined ? { level, data } : { level, data, logger },
    );
  }
  get client(): ClientRequests {
    return new Client(this.conn.session, this.rc);
  }
  closeStream(): boolean {
    return this.conn.session.closeStream(this.rc.requestId);
  }
  /** Legacy sessions run the call to its end on the request (2025-11-25 tasks are asked for by the client). */
  runAsTask(): Promise<void> {
    return Promise.resolve();
  }
  setStatusMessage(message: string): Promise<void> {
    return this.status?.(message) ?? Promise.resolve();
  }
}

class Client implements ClientRequests {
  constructor(
    private readonly session: ServerSession,
    private readonly rc: RequestContext,
  ) {}
  get capabilities() {
    return this.session.clientCapabilities ?? {};
  }
  get info() {
    return this.session.clientInfo;
  }
  createMessage(params: CreateMessageParams, options?: RequestOptions): Promise<CreateMessageResult> {
    return this.ask<CreateMessageResult>("sampling/createMessage", params, options);
  }
  async elicit<const S extends ElicitSchema>(
    params: ElicitFormParams<S>,
    options?: RequestOptions,
  ): Promise<ElicitResult<S>> {
    const result = await this.ask<ElicitResult<S>>("elicitation/create", params, options);
    if (result.action === "accept") {
      const issues = checkElicitContent(params.requestedSchema, result.content);
      if (issues.length > 0) throw new InvalidResultError("elicitation/create", issues, result);
    }
    return result as ElicitResult<S>;
  }
  elicitUrl(params: ElicitUrlParams, options?: RequestOptions) {
    return this.ask("elicitation/create", params, options) as never;
  }
  async listRoots(options?: RequestOptions): Promise<Root[]> {
    return (await this.ask<{ roots: Root[] }>("roots/list", undefined, options)).roots;
  }
  /**
   * A request to the client on behalf of the handler. The client's JSON-RPC error comes back as a
   * PeerRequestError, so if the handler lets it escape the server answers for itself (tool error
   * or -32603 naming the client's answer) instead of passing the client's code off as its own.
   */
  private ask<R extends Record<string, unknown>>(
    method: string,
    params: object | undefined,
    options: RequestOptions | undefined,
  ): Promise<R> {
    return this.rc.sendRequest<R>(method, params as never, this.withSignal(options)).catch((e: unknown) => {
      throw e instanceof McpError ? new PeerRequestError(method, e) : e;
    });
  }

  /** Requests made on behalf of a handler are cancelled with it unless the caller says otherwise. */
  private withSignal(options: RequestOptions | undefined): RequestOptions {
    return options?.signal !== undefined ? options : { ...options, signal: this.rc.signal };
  }
}

/** `status` is given when the call runs as a 2025-11-25 task (`ctx.setStatusMessage`). */
export function createContext(
  conn: Connection,
  rc: RequestContext,
  status?: (message: string) => Promise<void>,
): HandlerContext {
  return new Context(conn, rc, status);
}
