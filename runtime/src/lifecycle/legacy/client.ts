/**
 * Client side of the legacy lifecycle: `initialize` with the newest supported revision, accept
 * or refuse the server's choice, `notifications/initialized`, then a typed-by-wrapper facade.
 */
import type { ProtocolBinding } from "../../abi.js";
import { ErrorCode } from "../../jsonrpc.js";
import { InvalidResultError, McpError, ProtocolVersionError } from "../../errors.js";
import { describe, describeText } from "../../describe.js";
import { Session } from "../../session/session.js";
import type { NotificationHandler, Params, RequestHandler, RequestOptions, Result } from "../../session/types.js";
import { checkHandler, emptyResult, registerAll } from "./handlers.js";
import { LegacyPolicy } from "./policy.js";
import type { Capabilities, ClientOptions, Implementation } from "./types.js";
import { findBinding, legacyBindings } from "./versions.js";

export interface InitializeResult {
  protocolVersion: string;
  capabilities: Capabilities;
  serverInfo: Implementation;
  instructions?: string;
  [key: string]: unknown;
}

export class ClientSession {
  onclose?: () => void;
  /** The negotiated revision and what the server said about itself. */
  readonly protocolVersion: string;
  readonly serverCapabilities: Capabilities;
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly capabilities: Capabilities;

  /** @internal use connectClient */
  constructor(
    private readonly session: Session,
    private readonly policy: LegacyPolicy,
    private readonly bindings: readonly ProtocolBinding[],
    result: InitializeResult,
  ) {
    this.protocolVersion = result.protocolVersion;
    this.serverCapabilities = result.capabilities ?? {};
    this.serverInfo = result.serverInfo;
    this.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
    this.capabilities = policy.own;
    session.onclose = () => this.onclose?.();
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

  request<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    const p = this.session.request<R>(method, params, options);
    if (method === "resources/subscribe" || method === "resources/unsubscribe") {
      const uri = params?.uri;
      return p.then((r) => {
        if (typeof uri === "string") {
          if (method === "resources/subscribe") this.policy.subscriptions.add(uri);
          else this.policy.subscriptions.delete(uri);
        }
        return r;
      });
    }
    return p;
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.session.notify(method, params);
  }

  async ping(options?: RequestOptions): Promise<void> {
    await this.session.request("ping", undefined, options);
  }

  setRequestHandler<P = Params | undefined, R = Result>(method: string, handler: RequestHandler<P, R>): void {
    checkHandler(this.bindings, "client", this.policy.own, method);
    this.session.setRequestHandler(method, handler);
  }

  setNotificationHandler<P = Params | undefined>(method: string, handler: NotificationHandler<P>): void {
    this.session.setNotificationHandler(method, handler);
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

function isUnsupportedVersion(e: unknown): e is McpError {
  if (!(e instanceof McpError) || e.code !== ErrorCode.InvalidParams) return false;
  const data = e.data as { supported?: unknown } | undefined;
  return Array.isArray(data?.supported) || /unsupported protocol version/i.test(e.message);
}

/** Start the transport, run the handshake, and resolve once the session is in operation. */
export async function connectClient(options: ClientOptions): Promise<ClientSession> {
  const bindings = legacyBindings(options.bindings, "connectClient");
  const supported = bindings.map((b) => b.revision);
  let first = bindings[0]!;
  if (options.protocolVersion !== undefined) {
    const b = findBinding(bindings, options.protocolVersion);
    if (!b) throw new TypeError(`connectClient: protocolVersion ${options.protocolVersion} is not among the given bindings (${supported.join(", ")})`);
    first = b;
  }
  const own = options.capabilities ?? {};
  let session!: Session;
  const policy = new LegacyPolicy("client", own, () => session.binding, (e) => session.onerror?.(e));
  session = new Session({ transport: options.transport, side: "client", binding: first, policy, timeout: options.timeout, trustPeer: options.trustPeer, onerror: options.onerror });
  session.setRequestHandler("ping", emptyResult);
  registerAll(session, (m, h) => { checkHandler(bindings, "client", own, m); session.setRequestHandler(m, h); }, options.handlers, options.notificationHandlers);

  await options.transport.start();
  const initParams = (revision: string): Params => ({ protocolVersion: revision, capabilities: own, clientInfo: options.clientInfo });
  let requested = first.revision;
  let result: InitializeResult;
  try {
    try {
      result = await session.request<InitializeResult>("initialize", initParams(requested), { skipValidation: true });
    } catch (e) {
      if (!isUnsupportedVersion(e)) throw e;
      // The error form of a refusal: retry once with the newest revision the server lists, if we speak it.
      const theirs = (e.data as { supported?: unknown } | undefined)?.supported;
      const retry = Array.isArray(theirs) ? bindings.find((b) => theirs.includes(b.revision)) : undefined;
      if (!retry || retry.revision === requested) {
        throw new ProtocolVersionError(requested, undefined, supported, `server refused: ${describeText(e.message)}${Array.isArray(theirs) ? `; server supports ${describe(theirs, 300)}` : ""}`);
      }
      requested = retry.revision;
      session.setBinding(retry);
      result = await session.request<InitializeResult>("initialize", initParams(requested), { skipValidation: true });
    }
    const negotiated = findBinding(bindings, result.protocolVersion);
    if (!negotiated) throw new ProtocolVersionError(requested, describeText(result.protocolVersion, 100), supported);
    const validate = negotiated.results.initialize;
    if (!options.trustPeer && validate !== undefined && !validate(result)) {
      throw new InvalidResultError("initialize", validate.errors ?? [], result);
    }
    session.setBinding(negotiated);
    options.transport.setProtocolVersion?.(negotiated.revision);
    policy.peer = result.capabilities ?? {};
    policy.phase = "ready";
    const client = new ClientSession(session, policy, bindings, result);
    await session.notify("notifications/initialized");
    return client;
  } catch (e) {
    await session.close();
    throw e;
  }
}
