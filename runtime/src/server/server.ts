/**
 * `createMcpServer`: one server definition (generated data + user handlers) served over any
 * number of connections (`connect` per transport; Streamable HTTP makes one per MCP session, and
 * one per 2026-07-28 POST). McpServer connects, routes eras, loads lazily and broadcasts: the
 * definition's entries, lists and task support are its ServerCore (core.ts), which each era's side
 * serves its way: a legacy ServerSession (legacy.ts: initialize, sessions), a 2026-07-28
 * ModernServerSession (modern.ts: per-request `_meta`), or both at once behind an EraRouter.
 */
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { Transport } from "../transport.js";
import { LoadGate } from "../session/load-gate.js";
import { afterIo } from "../after-io.js";
import { RunningBytes, type SessionBytes } from "../session/running-bytes.js";
import type { ServerSession } from "../lifecycle/legacy/server.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities, Implementation } from "../lifecycle/common/types.js";
import type { ModernServerCore, ModernServerSession } from "../lifecycle/modern/server.js";
import { ListenHub } from "../lifecycle/modern/listen.js";
import { MAX_RUNNING_REQUESTS } from "../limits.js";
import type { LoggingLevel } from "../mcp-types.js";
import type { LegacyTasks } from "../tasks/legacy.js";
import type { Connection } from "./context.js";
import { ServerCore, servedBindings } from "./core.js";
import type { LocalBroadcast } from "./broadcast.js";
import { LazyModule } from "./lazy-module.js";
import { loadModernPath } from "#on-first-use";
import { noLegacyEra, type ServerLegacyEra } from "./legacy-era.js";
import { announcesChanges, missingFeature, type CoreFeatures } from "./features.js";
import type {
  ConnectOptions,
  McpDefinition,
  McpServerHandlers,
  McpServerOptions,
  ServerConnection,
  ServerModernTasks,
} from "./types.js";

export type { ConnectOptions, ServerConnection } from "./types.js";

// The 2026-07-28 path loads on first use on Node (a dynamic import, cached per process): a server
// whose peers speak the legacy era never evaluates it; bundlers get it statically (`#on-first-use`,
// runtime/package.json "imports"). Tasks load from the definition's `tasks`, which
// the generated server adds only when some tool may run as a task.
type ModernPath = typeof import("./modern-path.js");
const modernPathModule = new LazyModule<ModernPath>(loadModernPath);

export class McpServer {
  private readonly connections = new Set<Connection>();
  private readonly modernConnections = new Set<ModernServerSession>();
  /** The definition's entries, lists and task support, which both eras serve. */
  private readonly core: ServerCore;
  /** Every revision served, preferred first (`server/discover`, -32022). */
  readonly supportedVersions: readonly string[];
  /** Open `subscriptions/listen` requests of every connection. */
  readonly listens: ListenHub;
  /** The byte budget of the requests running on every connection (`used`: bytes charged now). */
  readonly runningBytes: RunningBytes;
  /** What `initialize` answers with: the newest legacy revision's view of the manifest. */
  readonly serverInfo: Implementation;
  readonly capabilities: Capabilities;
  readonly instructions: string | undefined;
  private modernCore: ModernServerCore | undefined;
  /** What this instance's connections and listens are told of a change; none when it announces none. */
  private readonly told: LocalBroadcast | undefined;
  private readonly detach: (() => void) | undefined;
  /** @internal The legacy era's code, given when a legacy revision is served (legacy-era.ts). */
  readonly legacyEra: ServerLegacyEra | undefined;

  /** @internal use createMcpServer */
  constructor(
    readonly definition: McpDefinition,
    handlers: McpServerHandlers,
    private readonly options: McpServerOptions,
    /** @internal What it serves beyond tools, the legacy era included (features.ts). */
    features: ServerFeatures,
  ) {
    const { legacy, modern, served } = servedBindings(definition, options);
    this.legacyEra = features.legacyEra;
    if (legacy.length > 0 && this.legacyEra === undefined) throw noLegacyEra(legacy);
    this.supportedVersions = served;
    this.core = new ServerCore(
      definition,
      handlers,
      options,
      legacy,
      modern,
      (task) => void this.told?.taskChanged(task),
      features,
    );
    this.serverInfo = this.core.serverInfo;
    this.capabilities = this.core.capabilities;
    this.instructions = this.core.instructions;
    this.listens = new ListenHub(this.core.report, options.listens);
    this.runningBytes = new RunningBytes(options.runningBytes);
    const Changes = features.changes ?? this.legacyEra?.changes;
    if (Changes === undefined && announcesChanges(this.capabilities, definition)) throw missingFeature("changes");
    this.told = Changes && new Changes(() => this.ready(), this.listens, this.core.report);
    // A server that announces no change has nothing to hear from other instances either.
    this.detach = options.bus && this.told?.hear(options.bus, this.capabilities, () => this.core.tasks);
  }

  /** @internal The 2026-07-28 tasks extension (see ServerCore.tasks). */
  get tasks(): ServerModernTasks | undefined {
    return this.core.tasks;
  }

  /** @internal 2025-11-25 core tasks (see ServerCore.legacyTasks). */
  get legacyTasks(): LegacyTasks | undefined {
    return this.core.legacyTasks;
  }

  /**
   * What must load before a connection (modern: one that serves 2026-07-28) can start; undefined
   * once everything is loaded, so a connection per stateless HTTP request pays nothing.
   */
  private prepare(modern: boolean): Promise<void> | undefined {
    const tasks = this.core.tasksReady();
    const skills = this.core.skillsReady();
    const inputs = modern ? this.core.inputsReady() : undefined;
    const check = this.core.toolHeaders;
    const headers = modern && check !== undefined && check.value === undefined ? check.get() : undefined;
    const needModern = modern && modernPathModule.value === undefined;
    if (tasks === undefined && skills === undefined && inputs === undefined && headers === undefined && !needModern)
      return undefined;
    return Promise.all([tasks, skills, inputs, headers, needModern ? modernPathModule.get() : undefined]).then(
      () => {},
    );
  }

  /** Open connections (initialized or not). */
  get sessions(): ServerSession[] {
    return this.open().map((c) => c.session);
  }

  /** Open 2026-07-28 connections: one per stateless POST, one beside each legacy session its client sent 2026-07-28 requests into. */
  get modernSessions(): ModernServerSession[] {
    return [...this.modernConnections];
  }

  /** Live connections; closed ones are dropped here too, in case a user replaced `session.onclose`. */
  private open(): Connection[] {
    const out: Connection[] = [];
    for (const c of this.connections) {
      if (c.session.closed) this.connections.delete(c);
      else out.push(c);
    }
    return out;
  }

  /**
   * Serve one connection; resolves once the transport is started (the client drives everything).
   * A transport that says which era it carries (`hints.era`, set by the HTTP server per POST) gets
   * only that era's session; otherwise each era the manifest offers is served, chosen per message.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ServerConnection> {
    // A stateless HTTP POST serves without a handshake unless the caller said how.
    if (options.stateless === undefined && transport.hints?.statelessRequest !== undefined)
      options = { ...options, stateless: transport.hints.statelessRequest };
    const era =
      transport.hints?.era ??
      (options.stateless !== undefined ? this.statelessEra(options.stateless.protocolVersion) : undefined);
    // A legacy-only server answers modern traffic from its legacy session (a non-modern error).
    const legacy = this.core.legacy.length > 0 && (era !== "modern" || this.core.modern.length === 0);
    const modern = this.core.modern.length > 0 && era !== "legacy";
    // Loaded before the session is built: the first message finds the tasks (and, for a modern
    // connection, the 2026-07-28 path) in place.
    const loading = this.prepare(!legacy);
    if (loading === undefined) return this.serve(transport, options, legacy, modern);
    // A transport may deliver before connect() resolves (the HTTP server hands the request over
    // right after onsession, which need not wait for connect): its messages wait, in order, for
    // `loading`. This function awaits it before any message can arrive, so it resumes first and
    // builds the session before the gate hands the held messages on (or clears them on failure).
    let holding = true;
    const gate = new LoadGate(
      () => (holding ? loading : undefined),
      (m, context) => transport.onmessage?.(m as JSONRPCMessage | JSONRPCMessage[], context),
      (_m, _context, e) => this.core.report(e),
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
    // Building the session replaces transport.onmessage; held messages then go to it.
    const session = this.serve(transport, options, legacy, modern);
    holding = false;
    return session;
  }

  /**
   * A stateless connection at a legacy revision (none given is 2025-03-26, see
   * https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#protocol-version-header)
   * is legacy: its requests carry no 2026-07-28 `_meta`, whatever else the manifest offers.
   */
  private statelessEra(revision: string | undefined): "legacy" | undefined {
    for (const b of this.core.modern) if (b.revision === revision) return undefined;
    return "legacy";
  }

  private async serve(
    transport: Transport,
    options: ConnectOptions,
    legacy: boolean,
    modern: boolean,
  ): Promise<ServerConnection> {
    // One share of the byte budget per connection, whichever eras it is served in.
    const bytes = this.runningBytes.session();
    if (!legacy) {
      const session = this.modernSession(transport, bytes);
      await transport.start();
      return session;
    }
    // The legacy era's connection (legacy.ts) is one of this.connections until it closes.
    const legacySession = this.legacyEra!.session;
    if (!modern) return legacySession(this.core, this.connections, transport, options, bytes, this.options);
    // Both eras on one connection: the 2026-07-28 path loads when the first modern message
    // arrives, which waits for it (and what follows queues behind it, in order).
    const router = this.legacyEra!.router(transport, () => this.prepare(true));
    router.onmodern = () => void this.modernSession(router.modern, bytes);
    return legacySession(this.core, this.connections, router.legacy, options, bytes, this.options);
  }

  /** Only once prepare(true) has loaded the 2026-07-28 path. */
  private modernSession(transport: Transport, runningBytes: SessionBytes): ModernServerSession {
    const { ModernServerSession, modernServerCore } = modernPathModule.value!;
    const core = (this.modernCore ??= modernServerCore(this.core, this.supportedVersions, this.listens, this.options));
    const session = new ModernServerSession({ transport, core, runningBytes });
    this.modernConnections.add(session);
    session.onclose = () => void this.modernConnections.delete(session);
    return session;
  }

  private ready(): Connection[] {
    return this.open().filter((c) => c.ready);
  }

  /** `notifications/resources/updated` to every connection subscribed to `uri`; resolves to how many were told. */
  async notifyResourceUpdated(uri: string): Promise<number> {
    if (!hasCapability(this.capabilities, "resources.subscribe"))
      throw new TypeError("notifyResourceUpdated: the manifest does not declare resources.subscribe");
    // Declaring it needs the changes feature (the constructor refused a server without it).
    return this.told!.raise(this.options.bus, { kind: "resourceUpdated", uri });
  }

  notifyToolsListChanged(): Promise<void> {
    return this.broadcastListChanged("tools");
  }
  notifyPromptsListChanged(): Promise<void> {
    return this.broadcastListChanged("prompts");
  }
  notifyResourcesListChanged(): Promise<void> {
    return this.broadcastListChanged("resources");
  }

  private async broadcastListChanged(kind: "tools" | "prompts" | "resources"): Promise<void> {
    if (!hasCapability(this.capabilities, `${kind}.listChanged`))
      throw new TypeError(`notify${kind}ListChanged: the manifest does not declare ${kind}.listChanged`);
    await this.told!.raise(this.options.bus, { kind: "listChanged", list: kind });
  }

  /** `notifications/message` to every connection whose level lets it through. */
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    // Without the feature the server has no legacy revision, so no connection logging reaches.
    await this.told?.log(level, data, logger);
  }

  /** Close every connection; open listens are answered first. */
  async close(): Promise<void> {
    this.detach?.();
    this.core.tasks?.close();
    this.core.legacyTasks?.close();
    const listening = this.listens.size > 0;
    this.listens.endAll();
    // Let the listens' responses go out before their connections close.
    if (listening) await new Promise<void>((r) => afterIo(r, undefined));
    await Promise.all([
      ...this.open().map((c) => c.session.close()),
      ...[...this.modernConnections].map((s) => s.close()),
    ]);
  }
}

/** What a server serves beyond tools (features.ts), the legacy era included. */
export interface ServerFeatures extends CoreFeatures {
  /** The legacy era's code (legacy-era.ts): needed when a legacy revision is served. */
  readonly legacyEra?: ServerLegacyEra;
}
