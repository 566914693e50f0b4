/**
 * Client side of the legacy lifecycle: `initialize` with the newest supported revision, accept
 * or refuse the server's choice, `notifications/initialized`, then a typed-by-wrapper facade.
 */
import type { ProtocolBinding } from "../../abi.js";
import { ErrorCode } from "../../jsonrpc.js";
import { InvalidResultError, McpError, ProtocolVersionError } from "../../errors.js";
import { describe, describeText } from "../../describe.js";
import { Session } from "../../session/session.js";
import { loadTables, loadValidator } from "../../lazy-binding.js";
import type {
  NotificationHandler,
  Params,
  Progress,
  RequestHandler,
  RequestOptions,
  Result,
} from "../../session/types.js";
import { checkHandler, emptyResult, registerAll } from "./handlers.js";
import { LegacyPolicy } from "./policy.js";
import type { ClientOptions } from "./types.js";
import type { Capabilities, Implementation } from "../common/types.js";
import type * as Wire from "../../wire/legacy.js";
import { findBinding, legacyBindings } from "./versions.js";

/** The `initialize` result (newest legacy revision); capabilities stay an open record the policy reads. */
export type InitializeResult = Omit<Wire.InitializeResult, "capabilities" | "serverInfo"> & {
  capabilities: Capabilities;
  serverInfo: Implementation;
  [key: string]: unknown;
};

export class ClientSession {
  readonly era = "legacy" as const;
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

  /** @internal See Session.followProgress (2025-11-25 task-augmented calls). */
  followProgress(token: string, onprogress: (progress: Progress) => void): () => void {
    return this.session.followProgress(token, onprogress);
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
  // The handshake may settle on any legacy revision it was given: their tables load now
  // (validators per method); 2026-era ones it never speaks do not.
  const bindings = legacyBindings(options.bindings, "connectClient");
  await loadTables(bindings);
  const first = firstBinding(bindings, options.protocolVersion, "connectClient");
  const session = new Session({
    transport: options.transport,
    side: "client",
    binding: first,
    timeout: options.timeout,
    trustPeer: options.trustPeer,
    onerror: options.onerror,
  });
  const policy = prepareLegacyClient(session, options);
  await options.transport.start();
  return handshake(session, policy, options);
}

function firstBinding(
  bindings: readonly ProtocolBinding[],
  protocolVersion: string | undefined,
  who: string,
): ProtocolBinding {
  if (protocolVersion === undefined) return bindings[0]!;
  const b = findBinding(bindings, protocolVersion);
  if (!b)
    throw new TypeError(
      `${who}: protocolVersion ${protocolVersion} is not among the given bindings (${bindings.map((x) => x.revision).join(", ")})`,
    );
  return b;
}

/**
 * Install the legacy rules, revision and handlers on a session (throws CapabilityError for a
 * handler the declared capabilities do not cover). The dual-era client does this on the session
 * of its failed 2026 probe, so request ids keep counting and a late probe answer is dropped.
 */
export function prepareLegacyClient(session: Session, options: ClientOptions): LegacyPolicy {
  const bindings = legacyBindings(options.bindings, "connectClient");
  const own = options.capabilities ?? {};
  const policy = new LegacyPolicy(
    "client",
    own,
    () => session.binding,
    (e) => session.onerror?.(e),
  );
  session.setPolicy(policy);
  session.setBinding(firstBinding(bindings, options.protocolVersion, "connectClient"));
  session.setRequestHandler("ping", emptyResult);
  registerAll(
    session,
    (m, h) => {
      checkHandler(bindings, "client", own, m);
      session.setRequestHandler(m, h);
    },
    options.handlers,
    options.notificationHandlers,
  );
  return policy;
}

/** The legacy handshake on a prepared session whose transport is started; closes the session on failure. */
export async function handshake(
  session: Session,
  policy: LegacyPolicy,
  options: ClientOptions,
): Promise<ClientSession> {
  const bindings = legacyBindings(options.bindings, "connectClient");
  const supported = bindings.map((b) => b.revision);
  const first = firstBinding(bindings, options.protocolVersion, "connectClient");
  const own = policy.own;
  const initParams = (revision: string): Params => ({
    protocolVersion: revision,
    capabilities: own,
    clientInfo: options.clientInfo,
  });
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
        throw new ProtocolVersionError(
          requested,
          undefined,
          supported,
          `server refused: ${describeText(e.message)}${Array.isArray(theirs) ? `; server supports ${describe(theirs, 300)}` : ""}`,
        );
      }
      requested = retry.revision;
      session.setBinding(retry);
      result = await session.request<InitializeResult>("initialize", initParams(requested), { skipValidation: true });
    }
    const negotiated = findBinding(bindings, result.protocolVersion);
    if (!negotiated) throw new ProtocolVersionError(requested, describeText(result.protocolVersion, 100), supported);
    const validate = options.trustPeer ? undefined : await loadValidator(negotiated, "results", "initialize");
    if (!options.trustPeer && validate !== undefined && !validate(result)) {
      throw new InvalidResultError("initialize", validate.errors ?? [], result);
    }
    session.setBinding(negotiated);
    options.transport.hints?.setProtocolVersion?.(negotiated.revision);
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
