/**
 * `createMcpServer`: one server definition (generated data + user handlers) served over any
 * number of connections (`connect` per transport; Streamable HTTP makes one per MCP session, and
 * one per 2026-07-28 POST). A connection is served in the eras the manifest's revisions offer:
 * a legacy ServerSession (initialize, sessions), a 2026-07-28 ModernServerSession (per-request
 * `_meta`), or both at once behind an EraRouter.
 */
import type { ProtocolBinding } from "../abi.js";
import { ErrorCode } from "../jsonrpc.js";
import { nodeCrypto } from "../node-crypto.js";
import { McpError } from "../errors.js";
import { describe, ownValue } from "../describe.js";
import type { Transport } from "../transport.js";
import type { Params, RequestContext } from "../session/types.js";
import { ServerSession } from "../lifecycle/legacy/server.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities, Implementation, RequestHandlers } from "../lifecycle/common/types.js";
import type { ModernServerCore, ModernServerSession, Description } from "../lifecycle/modern/server.js";
import { ListenHub } from "../lifecycle/modern/listen.js";
import { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import type { CacheHint } from "../lifecycle/modern/results.js";
import { headerParams } from "../lifecycle/modern/wire.js";
import { EraRouter } from "./era-router.js";
import { LoadGate } from "../session/load-gate.js";
import { RunningBytes, type SessionBytes } from "../session/running-bytes.js";
import { MAX_RUNNING_REQUESTS } from "../limits.js";
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { ToolHeaders } from "./header-params.js";
import type { ServerCore } from "./modern.js";
import type { TaskSupport } from "../tasks/modern.js";
import type { LegacyTasks } from "../tasks/legacy.js";
import type { CompleteResult, LoggingLevel } from "../mcp-types.js";
import { createContext, levelIndex, shouldLog, type Connection } from "./context.js";
import { page } from "./pagination.js";
import { promptResult } from "./results.js";
import { ResourceRouter } from "./resources.js";
import { callTool, type ToolEntry } from "./tools.js";
import type { CacheSettings, Completer, CompletionContext, HandlerContext, McpDefinition, McpServerHandlers, McpServerOptions, PromptHandler, PublishedLists, ServerModernTasks, ServerTasksModule, ToolValidators } from "./types.js";
import type { Validator } from "../abi.js";
import { checkScopes } from "./scopes.js";

interface PromptEntry {
  readonly member: string;
  readonly handler: PromptHandler;
  readonly required: readonly string[];
}

export interface ConnectOptions {
  /**
   * Serve without a handshake (stateless Streamable HTTP); see ServerOptions.stateless. At a
   * legacy revision, or none (2025-03-26), the connection is legacy even when the manifest also
   * offers 2026-07-28.
   */
  stateless?: { protocolVersion?: string };
  /**
   * Who owns the 2025-11-25 tasks this connection creates when a request carries no OAuth
   * principal. Default: the transport's `peerIdentity` when it has one, else a fresh id per
   * connection, so its tasks die with it. A stdio server has one client for its whole life (whoever
   * may start it may read its files): StdioServerTransport's identity is "stdio", so with a durable
   * task store that client resumes its tasks after a restart. Ignored when stateless.
   */
  taskOwner?: string;
}

/** What `connect` resolves to: the connection's legacy ServerSession, or its 2026-07-28 session. */
export type ServerConnection = ServerSession | ModernServerSession;

const MAX_COMPLETIONS = 100;

// The 2026-07-28 path loads on first use (a dynamic import, cached per process): a server whose
// peers speak the legacy era never evaluates it. Tasks load from the definition's `tasks`, which
// the generated server adds only when some tool may run as a task.
type ModernPath = typeof import("./modern-path.js");
/** A module imported on first use; `value` once loaded. A failed import is tried again by the next `get`. */
class LazyModule<T> {
  value: T | undefined;
  #loading: Promise<T> | undefined;
  constructor(private readonly load: () => Promise<T>) {}
  get(): Promise<T> {
    return (this.#loading ??= this.load().then(
      (m) => (this.value = m),
      (e: unknown) => {
        this.#loading = undefined;
        throw e;
      },
    ));
  }
}
const modernPathModule = new LazyModule<ModernPath>(() => import("./modern-path.js"));

/** A legacy revision whose schema has core tasks (2025-11-25). */
const hasCoreTasks = (binding: ProtocolBinding): boolean => binding.methods["tasks/result"] !== undefined;
const LIST_TTL_MS = 60_000;

/** A tool's input validator until the definition's are imported (toolsReady runs before any call). */
const validatorNotLoaded = (tool: string): Validator =>
  (() => {
    throw new Error(`mcpgen runtime: the input validator of tool ${JSON.stringify(tool)} was used before the tool validators were loaded`);
  }) as unknown as Validator;

export class McpServer implements ServerCore {
  private readonly connections = new Set<Connection>();
  private readonly modernConnections = new Set<ModernServerSession>();
  private readonly bindings: ProtocolBinding[];
  /** 2026-era bindings the manifest speaks. */
  private readonly modern: ProtocolBinding[];
  /** Every revision served, preferred first (`server/discover`, -32022). */
  readonly supportedVersions: readonly string[];
  /** @internal */
  readonly tools = new Map<string, ToolEntry>();
  /** @internal */
  readonly prompts = new Map<string, PromptEntry>();
  /** @internal */
  readonly router = new ResourceRouter();
  /** @internal */
  readonly codec: RequestStateCodec;
  /** Open `subscriptions/listen` requests of every connection. */
  readonly listens: ListenHub;
  /** The byte budget of the requests running on every connection (`used`: bytes charged now). */
  readonly runningBytes: RunningBytes;
  private readonly headerCache = new Map<string, ToolHeaders>();
  private modernTable: RequestHandlers | undefined;
  /** @internal */
  readonly report: (e: Error) => void;
  /** What `initialize` answers with: the newest legacy revision's view of the manifest. */
  readonly serverInfo: Implementation;
  readonly capabilities: Capabilities;
  readonly instructions: string | undefined;

  /** @internal use createMcpServer */
  constructor(
    readonly definition: McpDefinition,
    private readonly handlers: McpServerHandlers,
    private readonly options: McpServerOptions,
  ) {
    this.report = options.onerror ?? ((e) => console.error(`[mcpgen server] ${e.name}: ${e.message}`));
    this.toolsValidated = typeof definition.toolValidators !== "function";
    const spoken = new Set(definition.revisions);
    const given = options.bindings ?? definition.bindings ?? [];
    this.bindings = given.filter((b) => b.era === "legacy" && spoken.has(b.revision));
    this.modern = given.filter((b) => b.era === "modern" && spoken.has(b.revision));
    if (this.bindings.length === 0 && this.modern.length === 0) {
      throw new TypeError(`createMcpServer: none of the given bindings (${given.map((b) => b.revision).join(", ") || "none"}) is a revision the manifest speaks (${definition.revisions.join(", ")})`);
    }
    const served = new Set([...this.bindings, ...this.modern].map((b) => b.revision));
    this.supportedVersions = definition.revisions.filter((r) => served.has(r));
    // initialize answers with the newest legacy revision's view; a modern-only server with its own.
    const base = this.bindings.length > 0 ? this.bindings : this.modern;
    const newest = [...base].sort((a, b) => (a.revision < b.revision ? 1 : -1))[0]!.revision;
    const lists = this.lists(newest);
    this.serverInfo = lists.serverInfo as Implementation;
    this.capabilities = lists.capabilities as Capabilities;
    this.instructions = lists.instructions;
    this.index(lists);
    this.codec = new RequestStateCodec(options.requestState);
    this.listens = new ListenHub(this.report, options.listens);
    this.runningBytes = new RunningBytes(options.runningBytes);
    // Whether a revision's schema has core tasks is in its method table, which loads when a
    // connection first uses the revision: here only which revisions' tools declare task support.
    this.taskToolRevisions = new Set(this.bindings.filter((b) => this.declaresTaskTools(b.revision)).map((b) => b.revision));
    this.modernTaskTools = this.modern.some((b) => this.declaresTaskTools(b.revision));
    if (this.taskToolRevisions.size > 0 || this.modernTaskTools) {
      if (definition.tasks === undefined) {
        const tools = Object.keys(definition.toolTasks ?? {});
        throw new TypeError(
          `createMcpServer: ${tools.length === 1 ? "tool" : "tools"} ${tools.map((t) => JSON.stringify(t)).join(", ")} may run as tasks, but the definition has no ` +
            "`tasks` (the thunk importing @mcpgen/runtime/tasks/server, which the generated create...Server adds): call the generated factory, or regenerate with the mcpgen that matches your runtime",
        );
      }
      this.taskPath = new LazyModule(definition.tasks);
    }
    const t = options.tasks;
    // The store counts what it holds: a given store has its own bounds, which these would silently not change.
    if (t?.store !== undefined && (t.maxTasks !== undefined || t.maxTasksPerOwner !== undefined)) {
      throw new TypeError("createMcpServer: tasks.maxTasks and tasks.maxTasksPerOwner configure the default store; give them to your tasks.store instead");
    }
  }

  /** The task machinery; undefined when no tool may run as a task. */
  private readonly taskPath: LazyModule<ServerTasksModule> | undefined;
  /** The task machinery, once prepare() has loaded it (only servers with task tools call this). */
  private get taskModule(): ServerTasksModule {
    return this.taskPath!.value!;
  }

  /** Some tool declares `execution.taskSupport` in a 2026-07-28 revision. */
  private readonly modernTaskTools: boolean;
  private tasksStarted = false;

  /**
   * What must load before a connection (modern: one that serves 2026-07-28) can start; undefined
   * once everything is loaded, so a connection per stateless HTTP request pays nothing.
   */
  private prepare(modern: boolean): Promise<void> | undefined {
    const taskPath = this.tasksStarted ? undefined : this.taskPath;
    if (taskPath?.value !== undefined) this.startTasks(taskPath.value);
    const needTasks = taskPath !== undefined && !this.tasksStarted;
    const needModern = modern && modernPathModule.value === undefined;
    if (!needTasks && !needModern) return undefined;
    return Promise.all([needTasks ? taskPath.get().then((m) => this.startTasks(m)) : undefined, needModern ? modernPathModule.get() : undefined]).then(() => {});
  }

  private startTasks({ MemoryTaskStore, LegacyTasks, ModernTasks }: ServerTasksModule): void {
    if (this.tasksStarted) return;
    this.tasksStarted = true;
    const options = this.options;
    const definition = this.definition;
    const { store: given, maxTasks, maxTasksPerOwner, graceMs, ...bounds } = options.tasks ?? {};
    // One store for both eras: a task is found by its id whichever flow made it.
    const store = given ?? new MemoryTaskStore({ ...(maxTasks !== undefined ? { maxTasks } : {}), ...(maxTasksPerOwner !== undefined ? { maxTasksPerOwner } : {}) });
    this.legacyTasks = this.taskToolRevisions.size > 0 ? new LegacyTasks({ store, ...bounds, pageSize: definition.pageSize, report: this.report }) : undefined;
    this.tasks = this.modernTaskTools
      ? new ModernTasks(this.codec, {
          store,
          ...(graceMs !== undefined ? { graceMs } : {}),
          ...bounds,
          onchange: (task) => void this.listens.taskChanged(task),
          report: this.report,
        })
      : undefined;
  }

  /** @internal The 2026-07-28 tasks extension; undefined when no tool declares `execution.taskSupport` (set before the first connection starts). */
  tasks: ServerModernTasks | undefined;

  /** @internal 2025-11-25 core tasks; undefined when no tool of a legacy revision declares `execution.taskSupport` (set before the first connection starts; only revisions that have core tasks use it). */
  legacyTasks: LegacyTasks | undefined;

  /** Legacy revisions in which some tool declares `execution.taskSupport`. */
  private readonly taskToolRevisions: ReadonlySet<string>;

  /**
   * Whether sessions of legacy `revision` serve core tasks: its schema has them and a tool declares
   * support. Asked once a connection negotiated `revision`, whose table is loaded by then.
   */
  private coreTasks(revision: string): boolean {
    if (!this.taskToolRevisions.has(revision)) return false;
    let has = this.coreTaskCache.get(revision);
    if (has === undefined) {
      const binding = this.bindings.find((b) => b.revision === revision);
      has = binding !== undefined && hasCoreTasks(binding);
      this.coreTaskCache.set(revision, has);
    }
    return has;
  }
  private readonly coreTaskCache = new Map<string, boolean>();

  /** @internal A tool's `execution.taskSupport` (the same in every revision that lists the tool). */
  taskSupport(_revision: string, tool: string): TaskSupport {
    return this.definition.toolTasks?.[tool] ?? "forbidden";
  }

  private declaresTaskTools(revision: string): boolean {
    return this.lists(revision).tools.some((t) => this.taskSupport(revision, t.name as string) !== "forbidden");
  }

  /** @internal */
  get pageSize(): number {
    return this.definition.pageSize;
  }

  /** @internal The `Mcp-Param-*` mirrors of a tool in `revision` (a tool with invalid annotations mirrors none). */
  toolHeaders(revision: string, tool: string): ToolHeaders {
    const key = `${revision}\u0000${tool}`;
    let found = this.headerCache.get(key);
    if (found === undefined) {
      const entry = this.definition.published[revision]?.tools.find((t) => t.name === tool);
      const r = headerParams(entry?.inputSchema);
      found = "params" in r ? r.params : [];
      if ("problem" in r) this.report(new Error(`tool ${JSON.stringify(tool)}: ${r.problem}; its x-mcp-header annotations are ignored`));
      this.headerCache.set(key, found);
    }
    return found;
  }

  /** @internal Caching hint of a 2026-07-28 result (manifest `cache`, else the defaults). */
  cacheHint(method: string, params: Params | undefined): CacheHint {
    const c = this.definition.cache;
    let s: CacheSettings | undefined = c;
    let fallback: CacheHint = { ttlMs: LIST_TTL_MS, cacheScope: "public" };
    if (method === "resources/read") {
      fallback = { ttlMs: 0, cacheScope: "private" };
      const uri = String(params?.uri);
      s = c?.resources?.[uri];
      if (s === undefined && c?.resourceTemplates !== undefined) {
        const t = this.router.templates.find((x) => x.template.match(uri) !== null);
        if (t !== undefined) s = c.resourceTemplates[t.name];
      }
    }
    return { ttlMs: s?.ttlMs ?? fallback.ttlMs, cacheScope: s?.scope ?? fallback.cacheScope };
  }

  /** @internal */
  lists(revision: string): PublishedLists {
    const lists = this.definition.published[revision];
    if (lists === undefined) throw new McpError(ErrorCode.InternalError, `Internal error: no published lists for revision ${revision}`);
    return lists;
  }

  /** Pair every declared entry with its handler; a missing handler is a programming error, found now. */
  private index(lists: PublishedLists): void {
    const { members, toolValidators } = this.definition;
    // Imported tool validators are put in place on the first tools/call (toolsReady).
    const given = typeof toolValidators === "function" ? undefined : toolValidators;
    const missing: string[] = [];
    for (const tool of lists.tools) {
      const name = tool.name as string;
      const handler = this.handlers.tools?.[members.tools[name] ?? ""];
      const validators = given === undefined ? { input: validatorNotLoaded(name), output: null } : given[name];
      if (handler === undefined || validators === undefined) missing.push(`tools.${members.tools[name] ?? name}`);
      else this.tools.set(name, { name, handler, input: validators.input, output: validators.output });
    }
    for (const prompt of lists.prompts) {
      const name = prompt.name as string;
      const member = members.prompts[name] ?? "";
      const handler = this.handlers.prompts?.[member];
      const args = (prompt.arguments ?? []) as { name: string; required?: boolean }[];
      if (handler === undefined) missing.push(`prompts.${member || name}`);
      else this.prompts.set(name, { member, handler, required: args.filter((a) => a.required === true).map((a) => a.name) });
    }
    for (const resource of lists.resources) {
      const member = members.resources[resource.name as string] ?? "";
      const handler = this.handlers.resources?.[member];
      if (handler === undefined) missing.push(`resources.${member || String(resource.name)}`);
      else this.router.addStatic(resource.uri as string, handler as never, resource.mimeType);
    }
    for (const t of lists.resourceTemplates) {
      const name = t.name as string;
      const member = members.resourceTemplates[name] ?? "";
      const handler = this.handlers.resources?.[member];
      if (handler === undefined) missing.push(`resources.${member || name}`);
      else this.router.addTemplate(name, member, t.uriTemplate as string, handler as never, t.mimeType);
    }
    if (missing.length > 0) throw new TypeError(`createMcpServer: no handler for ${missing.join(", ")}`);
  }

  private toolsValidated: boolean;
  private toolsLoading: Promise<void> | undefined;

  /**
   * @internal What must load before a `tools/call` runs: the tool validators when the definition
   * imports them (once per process; a failed import is tried again by the next call); undefined
   * once they are in place.
   */
  toolsReady(): Promise<void> | undefined {
    if (this.toolsValidated) return undefined;
    const load = this.definition.toolValidators as () => Promise<ToolValidators>;
    return (this.toolsLoading ??= load().then(
      (loaded) => {
        for (const [name, entry] of this.tools) {
          const v = typeof loaded === "object" && loaded !== null && Object.hasOwn(loaded, name) ? loaded[name] : undefined;
          if (v === undefined) throw new Error(`the module has no validators for tool ${JSON.stringify(name)}; regenerate the output`);
          this.tools.set(name, { ...entry, input: v.input, output: v.output });
        }
        this.toolsValidated = true;
        this.toolsLoading = undefined;
      },
    ).catch((e: unknown) => {
      this.toolsLoading = undefined;
      const error = new McpError(ErrorCode.InternalError, `Internal error: the tool validators could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
      this.report(error);
      throw error;
    }));
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
   * A transport that says which era it carries (`era`, set by the HTTP server per POST) gets only
   * that era's session; otherwise each era the manifest offers is served, chosen per message.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ServerConnection> {
    // A stateless HTTP POST serves without a handshake unless the caller said how.
    if (options.stateless === undefined && transport.hints?.statelessRequest !== undefined) options = { ...options, stateless: transport.hints.statelessRequest };
    const era = transport.hints?.era ?? (options.stateless !== undefined ? this.statelessEra(options.stateless.protocolVersion) : undefined);
    // A legacy-only server answers modern traffic from its legacy session (a non-modern error).
    const legacy = this.bindings.length > 0 && (era !== "modern" || this.modern.length === 0);
    const modern = this.modern.length > 0 && era !== "legacy";
    // Loaded before the session is built: the first message finds the tasks (and, for a modern
    // connection, the 2026-07-28 path) in place.
    const loading = this.prepare(!legacy);
    if (loading === undefined) return this.serve(transport, options, legacy, modern);
    // A transport may deliver before connect() resolves (the HTTP server hands the request over
    // right after onsession, which need not wait for connect): its messages wait, in order.
    let ready!: { resolve: () => void; reject: (e: unknown) => void };
    const built = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));
    let holding = true;
    const gate = new LoadGate(
      () => (holding ? built : undefined),
      (m, context) => transport.onmessage?.(m as JSONRPCMessage | JSONRPCMessage[], context),
      (_m, _context, e) => this.report(e),
      MAX_RUNNING_REQUESTS,
    );
    transport.onmessage = (m, context) => gate.receive(m, context);
    try {
      await loading;
    } catch (e) {
      transport.onmessage = undefined;
      gate.clear();
      ready.reject(e);
      throw e;
    }
    // Building the session replaces transport.onmessage; held messages then go to it.
    const session = this.serve(transport, options, legacy, modern);
    holding = false;
    ready.resolve();
    return session;
  }

  /**
   * A stateless connection at a legacy revision (none given is 2025-03-26, see
   * https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#protocol-version-header)
   * is legacy: its requests carry no 2026-07-28 `_meta`, whatever else the manifest offers.
   */
  private statelessEra(revision: string | undefined): "legacy" | undefined {
    for (const b of this.modern) if (b.revision === revision) return undefined;
    return "legacy";
  }

  private async serve(transport: Transport, options: ConnectOptions, legacy: boolean, modern: boolean): Promise<ServerConnection> {
    // One share of the byte budget per connection, whichever eras it is served in.
    const bytes = this.runningBytes.session();
    if (!legacy) {
      const session = this.modernSession(transport, bytes);
      await transport.start();
      return session;
    }
    if (!modern) return this.legacySession(transport, options, bytes);
    // Both eras on one connection: the 2026-07-28 path loads when the first modern message
    // arrives, which waits for it (and what follows queues behind it, in order).
    const router = new EraRouter(transport, () => this.prepare(true));
    router.onmodern = () => void this.modernSession(router.modern, bytes);
    return this.legacySession(router.legacy, options, bytes);
  }

  private modernCore: ModernServerCore | undefined;

  /** Only once prepare(true) has loaded the 2026-07-28 path. */
  private modernSession(transport: Transport, runningBytes: SessionBytes): ModernServerSession {
    const { FRESH_RESULTS, ModernServerCore, ModernServerSession, modernHandlers } = modernPathModule.value!;
    const described = new Map<string, Description>();
    // Every result asks, nearly always for the revision the last one asked for.
    let lastRevision: string | undefined;
    let lastDescription: Description | undefined;
    const core = (this.modernCore ??= new ModernServerCore({
      bindings: this.tasks === undefined ? this.modern : this.modern.map(this.taskModule.withTaskMethods),
      supportedVersions: this.supportedVersions,
      // Every result names the server: look its description up once per revision.
      describe: (revision) => {
        if (revision === lastRevision) return lastDescription!;
        let d = described.get(revision);
        if (d === undefined) {
          const lists = this.lists(revision);
          let capabilities = lists.capabilities as Capabilities;
          if (this.tasks !== undefined && this.declaresTaskTools(revision)) {
            const extensions = (capabilities as { extensions?: object }).extensions;
            capabilities = { ...capabilities, extensions: { ...extensions, [this.taskModule.TASKS_EXTENSION]: {} } };
          }
          d = { serverInfo: lists.serverInfo as Implementation, capabilities, instructions: lists.instructions };
          described.set(revision, d);
        }
        lastRevision = revision;
        lastDescription = d;
        return d;
      },
      handlers: (this.modernTable ??= modernHandlers(this)),
      freshResults: FRESH_RESULTS,
      cache: (method, params) => this.cacheHint(method, params),
      listens: this.listens,
      timeout: this.options.timeout,
      trustPeer: this.options.trustPeer,
      onerror: this.report,
    }));
    const session = new ModernServerSession({ transport, core, runningBytes });
    this.modernConnections.add(session);
    session.onclose = () => void this.modernConnections.delete(session);
    return session;
  }

  private async legacySession(transport: Transport, options: ConnectOptions, runningBytes: SessionBytes): Promise<ServerSession> {
    let conn!: Connection;
    const stateless = options.stateless !== undefined;
    // The session's own capabilities gate inbound methods: tasks/* exist when some revision has them.
    const tasks = this.legacyTasks !== undefined;
    // Built before the transport starts, so the connection exists when the first request arrives.
    const session = new ServerSession({
      transport,
      bindings: this.bindings,
      serverInfo: this.serverInfo,
      capabilities: tasks ? this.taskModule.withTaskCapabilities(this.capabilities, stateless) : this.capabilities,
      ...(this.instructions === undefined ? {} : { instructions: this.instructions }),
      // initialize answers with the negotiated revision's view of the manifest.
      describe: (revision) => {
        const lists = this.lists(revision);
        const caps = lists.capabilities as Capabilities;
        return { serverInfo: lists.serverInfo as Implementation, capabilities: this.coreTasks(revision) ? this.taskModule.withTaskCapabilities(caps, stateless) : caps, instructions: lists.instructions };
      },
      handlers: this.requestHandlers(() => conn, stateless),
      timeout: this.options.timeout,
      trustPeer: this.options.trustPeer,
      onerror: this.report,
      ...(options.stateless ? { stateless: options.stateless } : {}),
      handlersChecked: true,
      runningBytes,
    });
    // A fresh owner names this connection alone: once it closes nobody can reach its tasks again.
    const ownOwner = stateless || options.taskOwner !== undefined || transport.hints?.peerIdentity !== undefined ? undefined : `session:${nodeCrypto().randomUUID()}`;
    conn = { session, logThreshold: levelIndex(this.options.logLevel ?? "info"), ready: false, ...(stateless ? {} : { taskOwner: options.taskOwner ?? transport.hints?.peerIdentity ?? ownOwner }) };
    this.connections.add(conn);
    session.initialized.then(() => (conn.ready = true), () => {});
    session.onclose = () => {
      this.connections.delete(conn);
      // Its tasks stop counting against the store (tasks of a principal stay: it can come back).
      if (ownOwner !== undefined) this.legacyTasks?.release(ownOwner).catch(this.report);
    };
    try {
      await transport.start();
    } catch (e) {
      this.connections.delete(conn);
      throw e;
    }
    return session;
  }

  private requestHandlers(conn: () => Connection, stateless: boolean): RequestHandlers {
    const caps = this.capabilities;
    const h: RequestHandlers = {};
    const revisionOf = () => conn().session.protocolVersion ?? conn().session.binding.revision;
    const ctx = (rc: RequestContext): HandlerContext => createContext(conn(), rc);
    const size = this.definition.pageSize;
    if (hasCapability(caps, "tools")) {
      h["tools/list"] = (p: Params | undefined) => page("tools", this.lists(revisionOf()).tools, p?.cursor, size);
      const call = (p: Params, rc: RequestContext) => {
        const tool = this.tools.get(p.name as string);
        if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown tool ${describe(p.name)}`);
        const c = ctx(rc);
        checkScopes(tool.name, this.definition.toolScopes?.[tool.name], c.auth);
        const revision = revisionOf();
        // Revisions without core tasks ignore params.task and run every tool on the request.
        if (this.legacyTasks === undefined || !this.coreTasks(revision)) return callTool(tool, p.arguments ?? {}, c, this.report);
        return this.taskModule.callMaybeTask(this.legacyTasks, this.taskSupport(revision, tool.name), tool.name, p, rc, conn(), () => callTool(tool, p.arguments ?? {}, c, this.report),
          (taskRc, status) => callTool(tool, p.arguments ?? {}, createContext(conn(), taskRc, status), this.report));
      };
      h["tools/call"] = (p: Params, rc: RequestContext) => {
        const ready = this.toolsReady();
        return ready === undefined ? call(p, rc) : ready.then(() => call(p, rc));
      };
    }
    if (this.legacyTasks !== undefined) Object.assign(h, this.taskModule.taskHandlers(this.legacyTasks, conn, stateless));
    if (hasCapability(caps, "prompts")) {
      h["prompts/list"] = (p: Params | undefined) => page("prompts", this.lists(revisionOf()).prompts, p?.cursor, size);
      h["prompts/get"] = async (p: Params, rc: RequestContext) => {
        const prompt = this.prompts.get(p.name as string);
        if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${describe(p.name)}`);
        const args = (p.arguments ?? {}) as { [name: string]: string };
        const absent = prompt.required.filter((a) => typeof args[a] !== "string");
        if (absent.length > 0) {
          throw new McpError(ErrorCode.InvalidParams, `Invalid params: prompt ${describe(p.name)} requires argument${absent.length > 1 ? "s" : ""} ${absent.map((a) => JSON.stringify(a)).join(", ")}`);
        }
        return promptResult(await (prompt.handler as (a: unknown, c: HandlerContext) => unknown)(args, ctx(rc)));
      };
    }
    if (hasCapability(caps, "resources")) {
      h["resources/list"] = (p: Params | undefined) => page("resources", this.lists(revisionOf()).resources, p?.cursor, size);
      h["resources/templates/list"] = (p: Params | undefined) => page("resourceTemplates", this.lists(revisionOf()).resourceTemplates, p?.cursor, size);
      h["resources/read"] = (p: Params, rc: RequestContext) => this.router.read(p.uri as string, ctx(rc));
    }
    if (hasCapability(caps, "logging")) {
      h["logging/setLevel"] = (p: Params) => {
        conn().logThreshold = levelIndex(p.level as LoggingLevel);
        return {};
      };
    }
    if (hasCapability(caps, "completions")) {
      h["completion/complete"] = (p: Params, rc: RequestContext) => this.complete(p, ctx(rc));
    }
    return h;
  }

  /** @internal */
  async complete(p: Params, ctx: HandlerContext): Promise<CompleteResult> {
    const ref = p.ref as { type?: string; name?: string; uri?: string };
    const argument = p.argument as { name: string; value: string };
    let completer: Completer | undefined;
    if (ref.type === "ref/prompt") {
      const prompt = this.prompts.get(ref.name ?? "");
      if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${describe(ref.name)}`);
      completer = ownValue(ownValue(this.handlers.completions?.prompts, prompt.member), argument.name);
    } else {
      const t = this.router.templateFor(ref.uri ?? "");
      if (t === undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid params: no resource template ${describe(ref.uri)}`);
      completer = ownValue(ownValue(this.handlers.completions?.resources, t.member), argument.name);
    }
    if (completer === undefined) return { completion: { values: [] } };
    const context = p.context as { arguments?: { [name: string]: string } } | undefined;
    // The context's accessors live on its prototype, so extend it rather than spreading it.
    const cctx: CompletionContext = Object.create(ctx, { arguments: { value: context?.arguments ?? {}, enumerable: true } });
    const got = await completer(argument.value, cctx);
    const completion = Array.isArray(got) ? { values: got } : { ...got };
    if (completion.values.length > MAX_COMPLETIONS) {
      completion.total ??= completion.values.length;
      completion.values = completion.values.slice(0, MAX_COMPLETIONS);
      completion.hasMore = true;
    }
    return { completion };
  }

  private ready(): Connection[] {
    return this.open().filter((c) => c.ready);
  }

  /** `notifications/resources/updated` to every connection subscribed to `uri`; resolves to how many were told. */
  async notifyResourceUpdated(uri: string): Promise<number> {
    if (!hasCapability(this.capabilities, "resources.subscribe")) throw new TypeError("notifyResourceUpdated: the manifest does not declare resources.subscribe");
    const targets = this.ready().filter((c) => c.session.subscriptions.has(uri));
    const [listens] = await Promise.all([
      this.listens.resourceUpdated(uri),
      ...targets.map((c) => c.session.notify("notifications/resources/updated", { uri }).catch((e: Error) => this.report(e))),
    ]);
    return targets.length + (listens as number);
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
    if (!hasCapability(this.capabilities, `${kind}.listChanged`)) throw new TypeError(`notify${kind}ListChanged: the manifest does not declare ${kind}.listChanged`);
    await Promise.all([this.broadcast(`notifications/${kind}/list_changed`, undefined, () => true), this.listens.listChanged(kind)]);
  }

  /** `notifications/message` to every connection whose level lets it through. */
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const params = logger === undefined ? { level, data } : { level, data, logger };
    await this.broadcast("notifications/message", params, (c) => shouldLog(c, level));
  }

  private async broadcast(method: string, params: Params | undefined, filter: (c: Connection) => boolean): Promise<void> {
    const targets = this.ready().filter(filter);
    await Promise.all(targets.map((c) => c.session.notify(method, params).catch((e: Error) => this.report(e))));
  }

  /** Close every connection; open listens are answered first. */
  async close(): Promise<void> {
    this.tasks?.close();
    this.legacyTasks?.close();
    const listening = this.listens.size > 0;
    this.listens.endAll();
    // Let the listens' responses go out before their connections close.
    if (listening) await new Promise((r) => setImmediate(r));
    await Promise.all([...this.open().map((c) => c.session.close()), ...[...this.modernConnections].map((s) => s.close())]);
  }
}

/** A server for a generated definition: `server.connect(transport)` per connection. */
export function createMcpServer(definition: McpDefinition, handlers: McpServerHandlers, options: McpServerOptions): McpServer {
  return new McpServer(definition, handlers, options);
}
