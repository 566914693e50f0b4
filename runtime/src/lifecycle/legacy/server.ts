/**
 * Server side of the legacy lifecycle: answers `initialize` with the client's revision when it
 * speaks it (else its newest), switches validation to that revision, holds back everything but
 * ping and logging until `notifications/initialized`, and tracks resource subscriptions.
 */
import type { ProtocolBinding } from "../../abi.js";
import { tablesReady } from "../../lazy-binding.js";
import { LoadGate } from "../../session/load-gate.js";
import { MAX_RUNNING_REQUESTS } from "../../limits.js";
import type { JSONRPCMessage } from "../../jsonrpc.js";
import type { Transport } from "../../transport.js";
import type { RequestId } from "../../jsonrpc.js";
import { ConnectionClosedError, LifecycleError } from "../../errors.js";
import { Session } from "../../session/session.js";
import type {
  NotificationHandler,
  Params,
  RequestContext,
  RequestHandler,
  RequestOptions,
  Result,
} from "../../session/types.js";
import { checkHandler, emptyResult, registerAll } from "./handlers.js";
import { LegacyPolicy } from "./policy.js";
import { hasCapability } from "../common/capabilities.js";
import type { ServerOptions } from "./types.js";
import type { Capabilities, Implementation } from "../common/types.js";
import { findBinding, legacyBindings } from "./versions.js";

export class ServerSession {
  onclose?: () => void;
  /** Resolves when `notifications/initialized` arrives; rejects if the connection closes first. */
  readonly initialized: Promise<void>;
  /** Set once `initialize` was answered. */
  protocolVersion: string | undefined;
  clientCapabilities: Capabilities | undefined;
  clientInfo: Implementation | undefined;
  readonly capabilities: Capabilities;

  private readonly session: Session;
  private readonly policy: LegacyPolicy;
  private readonly bindings: ProtocolBinding[];
  private readonly options: ServerOptions;

  /** @internal use createServerSession */
  constructor(options: ServerOptions) {
    this.options = options;
    this.bindings = legacyBindings(options.bindings, "createServerSession");
    this.capabilities = options.capabilities ?? {};
    const session = new Session({
      transport: options.transport,
      side: "server",
      binding: this.bindings[0]!,
      timeout: options.timeout,
      trustPeer: options.trustPeer,
      onerror: options.onerror,
      runningBytes: options.runningBytes,
    });
    this.session = session;
    this.policy = new LegacyPolicy(
      "server",
      this.capabilities,
      () => session.binding,
      (e) => session.onerror?.(e),
    );
    session.setPolicy(this.policy);
    // initialize is checked against the revision it will negotiate, so only that one is loaded
    // (a stateless connection answers initialize at any time: it negotiates there too).
    this.policy.bindingFor = (method, params) =>
      method === "initialize" && (this.policy.phase === "new" || this.policy.stateless)
        ? this.negotiate(params?.protocolVersion)
        : session.binding;
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    this.initialized = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.initialized.catch(() => {}); // nobody has to await it
    let settled = false;
    this.policy.oninitialized = () => {
      settled = true;
      resolve();
    };
    session.onclose = () => {
      // Built only while initialization is still awaited: a stateless HTTP session closes after
      // every POST, and an error with a captured stack per request is measurable there.
      if (!settled) reject(new ConnectionClosedError("Connection closed before initialization completed"));
      settled = true;
      this.onclose?.();
    };
    session.setRequestHandler("initialize", (params: Params) => this.initialize(params));
    session.setRequestHandler("ping", emptyResult);
    if (hasCapability(this.capabilities, "resources.subscribe")) {
      // Subscriptions are tracked even without user handlers, so updates can be checked against them.
      session.setRequestHandler("resources/subscribe", this.tracking(undefined, true));
      session.setRequestHandler("resources/unsubscribe", this.tracking(undefined, false));
    }
    registerAll(
      session,
      (m, h) => this.register(m, h, options.handlersChecked !== true),
      options.handlers,
      options.notificationHandlers,
    );
    if (options.stateless) this.startStateless(options.stateless.protocolVersion);
  }

  private startStateless(header: string | undefined): void {
    const binding = findBinding(this.bindings, header ?? "2025-03-26") ?? this.bindings[0]!;
    this.session.setBinding(binding);
    this.options.transport.hints?.setProtocolVersion?.(binding.revision);
    this.protocolVersion = binding.revision;
    this.policy.stateless = true;
    this.policy.peer = {};
    this.policy.phase = "ready";
    this.policy.oninitialized?.();
  }

  get binding(): ProtocolBinding {
    return this.session.binding;
  }

  /** Requests this side sent that await a response (see SessionOptions.maxPendingRequests). */
  get pendingCount(): number {
    return this.session.pendingCount;
  }

  /** Requests from the peer whose handlers are running. */
  get runningCount(): number {
    return this.session.runningCount;
  }

  get closed(): boolean {
    return this.session.closed;
  }

  /** URIs the client is currently subscribed to. */
  get subscriptions(): ReadonlySet<string> {
    return this.policy.subscriptions;
  }

  request<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.session.request<R>(method, params, options);
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.session.notify(method, params);
  }

  /** See Session.closeStream. */
  closeStream(requestId: RequestId): boolean {
    return this.session.closeStream(requestId);
  }

  async ping(options?: RequestOptions): Promise<void> {
    await this.session.request("ping", undefined, options);
  }

  setRequestHandler<P = Params | undefined, R = Result>(method: string, handler: RequestHandler<P, R>): void {
    this.register(method, handler as RequestHandler<any, any>, true);
  }

  private register(method: string, handler: RequestHandler<any, any>, check: boolean): void {
    if (method === "initialize")
      throw new LifecycleError(
        "initialize is answered by the lifecycle; pass serverInfo, capabilities and instructions instead",
      );
    if (check) checkHandler(this.bindings, "server", this.capabilities, method);
    if (method === "resources/subscribe" || method === "resources/unsubscribe") {
      this.session.setRequestHandler(
        method,
        this.tracking(handler as RequestHandler<any, any>, method === "resources/subscribe"),
      );
    } else {
      this.session.setRequestHandler(method, handler);
    }
  }

  setNotificationHandler<P = Params | undefined>(method: string, handler: NotificationHandler<P>): void {
    this.session.setNotificationHandler(method, handler);
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /** The client's revision when this server speaks it, else the newest. */
  private negotiate(requested: unknown): ProtocolBinding {
    return findBinding(this.bindings, requested) ?? this.bindings[0]!;
  }

  private initialize(params: Params): Result {
    const binding = this.negotiate(params.protocolVersion);
    this.session.setBinding(binding);
    this.options.transport.hints?.setProtocolVersion?.(binding.revision);
    this.protocolVersion = binding.revision;
    this.clientCapabilities = (params.capabilities as Capabilities | undefined) ?? {};
    this.clientInfo = params.clientInfo as Implementation | undefined;
    this.policy.peer = this.clientCapabilities;
    if (!this.policy.stateless) this.policy.phase = "initializing";
    const own = this.options.describe?.(binding.revision);
    const result: Result = {
      protocolVersion: binding.revision,
      capabilities: own ? own.capabilities : this.capabilities,
      serverInfo: own ? own.serverInfo : this.options.serverInfo,
    };
    const instructions = own ? own.instructions : this.options.instructions;
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  }

  private tracking(handler: RequestHandler<any, any> | undefined, subscribe: boolean): RequestHandler<Params, Result> {
    const subs = this.policy.subscriptions;
    return async (params: Params, ctx: RequestContext) => {
      const result = handler ? await handler(params, ctx) : {};
      const uri = params.uri;
      if (typeof uri === "string") {
        if (subscribe) subs.add(uri);
        else subs.delete(uri);
      }
      return result ?? {};
    };
  }
}

/** Attach a legacy-era server to a transport and start it; the client drives the handshake. */
export async function createServerSession(options: ServerOptions): Promise<ServerSession> {
  // Handlers are checked against every given revision at registration, so lazy tables load first;
  // a transport may deliver meanwhile (HTTP hands the request over right after onsession): held, in order.
  const loading =
    options.handlersChecked === true ? undefined : tablesReady(options.bindings.filter((b) => b.era === "legacy"));
  const release = loading === undefined ? undefined : await holdWhile(options.transport, loading, options.onerror);
  const server = new ServerSession(options);
  release?.();
  await options.transport.start();
  return server;
}

/**
 * Holds what `transport` delivers while `loading` runs and until the returned release is called;
 * the held messages then go, in order, to `transport.onmessage` as the caller's session set it.
 */
async function holdWhile(
  transport: Transport,
  loading: Promise<void>,
  report: ((e: Error) => void) | undefined,
): Promise<() => void> {
  let ready!: () => void;
  const built = new Promise<void>((resolve) => (ready = resolve));
  let holding = true;
  const gate = new LoadGate(
    () => (holding ? built : undefined),
    (m, context) => transport.onmessage?.(m as JSONRPCMessage | JSONRPCMessage[], context),
    (_m, _context, e) => report?.(e),
    MAX_RUNNING_REQUESTS,
  );
  transport.onmessage = (m, context) => gate.receive(m, context);
  try {
    await loading;
  } catch (e) {
    transport.onmessage = undefined;
    gate.clear();
    throw e;
  }
  return () => {
    holding = false;
    ready();
  };
}
