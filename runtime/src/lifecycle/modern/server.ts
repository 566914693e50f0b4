/**
 * Server side of the 2026-07-28 lifecycle on one connection: no handshake; every request is
 * validated on its own `_meta` (ModernServerPolicy), answered with `resultType`, `serverInfo` and
 * caching hints; `server/discover` and `subscriptions/listen` are served here.
 */
import type { ProtocolBinding } from "../../abi.js";
import type { Transport } from "../../transport.js";
import { AnsweringSession } from "../../session/answering.js";
import type { SessionBytes } from "../../session/running-bytes.js";
import type { Params, RequestContext, RequestHandler, Result } from "../../session/types.js";
import type { Capabilities, Implementation, RequestHandlers } from "../common/types.js";
import { ModernServerPolicy } from "./policy.js";
import { CACHEABLE, isRetry, modernResult, type CacheHint } from "./results.js";
import { honouredFilter, type Listen, type ListenHub, type SubscriptionFilter } from "./listen.js";
import { MetaKey } from "./wire.js";
import { identityOf, requestRevision as revisionOf } from "./meta.js";
import { principalKey } from "../../auth/principal.js";

export interface Description {
  serverInfo: Implementation;
  capabilities: Capabilities;
  instructions?: string | undefined;
}

export interface ModernServerOptions {
  transport: Transport;
  /** The 2026-era bindings served (others are ignored). */
  bindings: readonly ProtocolBinding[];
  /** Every revision this server speaks, preferred first (`server/discover`, `-32022`). */
  supportedVersions: readonly string[];
  /** serverInfo, capabilities and instructions for a revision. */
  describe: (revision: string) => Description;
  /** Handlers by method; their results are completed here. */
  handlers: RequestHandlers;
  /** Caching hint of a cacheable method's complete result. */
  cache: (method: string, params: Params | undefined) => CacheHint;
  /**
   * Methods whose handler returns a new object per call that nothing else holds (McpServer's
   * tools/call builds each result): completed in place instead of copied.
   */
  freshResults?: ReadonlySet<string>;
  /** Open listens of the whole server; without it `subscriptions/listen` is not offered. */
  listens?: ListenHub;
  timeout?: number;
  trustPeer?: boolean;
  onerror?: (error: Error) => void;
}

/**
 * What every connection of one server shares: the policy, the revision table and the request
 * handlers with their results completed. Built once; a stateless HTTP server makes a connection
 * per POST, so nothing per connection is rebuilt.
 */
export class ModernServerCore {
  readonly policy: ModernServerPolicy;
  readonly binding: ProtocolBinding;
  readonly handlers = new Map<string, RequestHandler<any, any>>();

  constructor(readonly options: Omit<ModernServerOptions, "transport">) {
    const modern = options.bindings
      .filter((b) => b.era === "modern")
      .sort((a, b) => (a.revision < b.revision ? 1 : -1));
    if (modern.length === 0) throw new TypeError("ModernServerSession: no 2026-era protocol binding given");
    const byRevision = new Map(modern.map((b) => [b.revision, b] as const));
    this.binding = modern[0]!;
    this.policy = new ModernServerPolicy(
      byRevision,
      options.supportedVersions,
      options.describe(this.binding.revision).capabilities,
    );
    this.register("server/discover", (params) => {
      const d = options.describe(revisionOf(params));
      const result: Result = { supportedVersions: [...options.supportedVersions], capabilities: d.capabilities };
      if (d.instructions !== undefined) result.instructions = d.instructions;
      return result;
    });
    const hub = options.listens;
    // Not through register: its completion would hold the listen's params for as long as it is open.
    if (hub !== undefined)
      this.handlers.set("subscriptions/listen", (params: Params, rc: RequestContext) => this.listen(hub, params, rc));
    for (const method of Object.keys(options.handlers)) this.register(method, options.handlers[method]!);
  }

  private register(method: string, handler: RequestHandler<any, any>): void {
    const { describe, cache } = this.options;
    const cacheable = CACHEABLE.has(method);
    const fresh = this.options.freshResults?.has(method) === true;
    const finish = (params: Params | undefined, result: Result): Result => {
      const hint = cacheable
        ? isRetry(params)
          ? { ...cache(method, params), ttlMs: 0 }
          : cache(method, params)
        : undefined;
      return modernResult(result, describe(revisionOf(params)).serverInfo, hint, fresh);
    };
    this.handlers.set(method, (params: Params | undefined, rc: RequestContext) => {
      const r = handler(params, rc);
      if (r !== null && typeof r === "object" && typeof (r as PromiseLike<Result>).then === "function") {
        return (r as Promise<Result>).then((v) => finish(params, v ?? {}));
      }
      return finish(params, (r as Result) ?? {});
    });
  }

  /**
   * The acknowledgement first, then change notifications until the client cancels the listen
   * (`notifications/cancelled`, or on HTTP closing the stream, in every era's session) or the
   * connection closes; a server-side end answers the listen request. What stays while the listen is
   * open is its honoured filter, not the request's params.
   */
  private listen(hub: ListenHub, params: Params, rc: RequestContext): Promise<Result> {
    const revision = revisionOf(params);
    const filter = honouredFilter(
      params.notifications,
      this.options.describe(revision).capabilities,
      identityOf(params._meta as Params | undefined).capabilities,
    );
    return this.hold(hub, filter, revision, rc);
  }

  private async hold(
    hub: ListenHub,
    filter: SubscriptionFilter,
    revision: string,
    rc: RequestContext,
  ): Promise<Result> {
    const meta = { [MetaKey.subscriptionId]: rc.requestId };
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const listen: Listen = {
      filter,
      uris: new Set(filter.resourceSubscriptions ?? []),
      send: (method, p) => (rc.cancelled ? Promise.resolve() : rc.sendNotification(method, { ...p, _meta: meta })),
      end,
    };
    // Counted (or refused) before anything is sent; the ack is queued before any notification can be.
    hub.add(listen, { session: rc.connection, principal: principalKey(rc.transportContext?.auth) });
    try {
      // The session cancels it when its HTTP stream closes (cancelWithStream, every request here).
      const acked = rc.sendNotification("notifications/subscriptions/acknowledged", {
        notifications: filter,
        _meta: meta,
      });
      if (rc.cancelled) {
        acked.catch(() => {});
      } else {
        const signal = rc.signal;
        signal.addEventListener("abort", end, { once: true });
        try {
          await acked;
          await ended;
        } finally {
          signal.removeEventListener("abort", end);
        }
      }
    } finally {
      hub.remove(listen);
    }
    return modernResult({ _meta: meta }, this.options.describe(revision).serverInfo, undefined);
  }
}

/**
 * One connection served in the 2026-07-28 era: the answering half of a session (no requests of its
 * own, no batches) over `core`'s policy, revision table and handlers.
 */
export class ModernServerSession extends AnsweringSession {
  /**
   * A connection of `core`'s server, or (given options) of a server of its own. Every request ends
   * when the client closes the stream carrying its reply, also inside a legacy Streamable HTTP
   * session: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports
   */
  constructor(
    options: (ModernServerOptions | { transport: Transport; core: ModernServerCore }) & { runningBytes?: SessionBytes },
  ) {
    const core = "core" in options ? options.core : new ModernServerCore(options);
    const o = core.options;
    super({
      transport: options.transport,
      side: "server",
      binding: core.binding,
      trustPeer: o.trustPeer,
      onerror: o.onerror,
      policy: core.policy,
      runningBytes: options.runningBytes,
      cancelWithStream: true,
      requestHandlers: core.handlers,
    });
    // A stdio client that ended its input can cancel nothing: its listens end, answered, like at shutdown.
    const hub = o.listens;
    if (hub !== undefined && options.transport.hints?.inputEnds === true)
      this.oninputend = () => hub.endSession(this.connectionKey);
  }
}
