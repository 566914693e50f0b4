/**
 * The handler context of a 2026-07-28 request: identity, capabilities and log level come from the
 * request's own `_meta`; `ctx.client.*` calls are input requests of the current run (see
 * lifecycle/modern/mrtr.ts), so handlers read the same in both eras.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { LoggingLevel } from "../mcp-types.js";
import type { ProgressOptions, RequestContext } from "../session/types.js";
import { identityOf, type RequestIdentity } from "../lifecycle/modern/meta.js";
import type { InputRound } from "../lifecycle/modern/mrtr.js";
import type { InputClient } from "./input-client.js";
import { MetaKey } from "../lifecycle/modern/wire.js";
import { levelIndex } from "./context.js";
import type { ClientRequests, HandlerContext } from "./types.js";

/** What a context takes of the MRTR code (inputs.ts), named here so that code may build contexts. */
export interface ContextInputs {
  readonly InputRound: typeof InputRound;
  readonly InputClient: typeof InputClient;
}

const NO_ANSWERS: Readonly<Record<string, unknown>> = Object.freeze({});

export class ModernContext implements HandlerContext {
  protected run: AbortController | undefined;
  protected unlink: (() => void) | undefined;
  private who: RequestIdentity | undefined;
  private current: InputRound | undefined;

  /**
   * `identity` and `round` may be left out: they are then made when first needed (from the
   * request's `_meta`, and from `answers`, `allowed` and `method`). Most calls read neither, and
   * a call's objects are most of what the per-request path allocates. Without `inputs` (a server
   * whose handlers ask the client nothing) there are no rounds and `ctx.client` refuses every call.
   */
  constructor(
    protected rc: RequestContext,
    identity: RequestIdentity | undefined,
    round: InputRound | undefined,
    private readonly inputs: ContextInputs | undefined,
    private readonly answers: Readonly<Record<string, unknown>> = NO_ANSWERS,
    private readonly allowed = false,
    private readonly method = "",
  ) {
    this.who = identity;
    this.current = round;
  }

  private get identity(): RequestIdentity {
    return (this.who ??= identityOf(this.rc.meta));
  }

  /** The input bookkeeping of this run (made on first use). */
  get round(): InputRound {
    return (this.current ??= new this.inputs!.InputRound(
      this.answers,
      this.identity.capabilities,
      this.allowed,
      this.method,
      undefined,
    ));
  }

  set round(round: InputRound) {
    this.current = round;
  }

  /** Whether the run made input requests it was not given answers to (false when it made none). */
  get isBlocked(): boolean {
    return this.current !== undefined && this.current.isBlocked;
  }

  /** A call that cannot become a task goes on as it is (the tasks extension's context: modern-tasks.ts). */
  runAsTask(): Promise<void> {
    return Promise.resolve();
  }

  /** Only a task has a status (the tasks extension's context: modern-tasks.ts). */
  setStatusMessage(_message: string): Promise<void> {
    return Promise.resolve();
  }

  protected link(run: AbortController): void {
    const outer = this.rc.signal;
    if (outer.aborted) return run.abort(outer.reason);
    const onabort = () => run.abort(outer.reason);
    outer.addEventListener("abort", onabort, { once: true });
    this.unlink = () => outer.removeEventListener("abort", onabort);
  }

  get requestId() {
    return this.rc.requestId;
  }
  /** Aborted when the request is cancelled, or when this run is abandoned for input. */
  get signal(): AbortSignal {
    if (this.run === undefined) {
      const run = new AbortController();
      this.run = run;
      this.link(run);
    }
    return this.run.signal;
  }
  get revision() {
    // What identityOf reads, without making the identity: every tool call asks.
    if (this.who !== undefined) return this.who.protocolVersion;
    const v = this.rc.meta?.[MetaKey.protocolVersion];
    return typeof v === "string" ? v : String(v ?? "");
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
    const wanted = this.identity.logLevel;
    // No level in _meta: no notifications/message for this request
    // (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging#per-request-log-level).
    if (wanted === undefined || levelIndex(level) < levelIndex(wanted)) return;
    await this.rc.sendNotification(
      "notifications/message",
      logger === undefined ? { level, data } : { level, data, logger },
    );
  }
  get client(): ClientRequests {
    const inputs = this.inputs;
    return inputs === undefined ? new NoInputs(this.identity) : new inputs.InputClient(this.identity, () => this.round);
  }
  closeStream(): boolean {
    return false;
  }
  /** The run was abandoned for input: stop whatever the handler still has in flight. */
  abandon(): void {
    this.run?.abort(new Error("input required: this run of the handler was abandoned"));
  }
}

const noInputs = (): Promise<never> =>
  Promise.reject(
    new McpError(
      ErrorCode.InternalError,
      "Internal error: this server asks clients for no input (its manifest's clientRequests is empty)",
    ),
  );

/** `ctx.client` of a server that asks clients for nothing: who the client is, no requests. */
class NoInputs implements ClientRequests {
  constructor(private readonly identity: RequestIdentity) {}
  get capabilities() {
    return this.identity.capabilities;
  }
  get info() {
    return this.identity.clientInfo;
  }
  createMessage = noInputs;
  elicit = noInputs;
  elicitUrl = noInputs;
  listRoots = noInputs;
}
