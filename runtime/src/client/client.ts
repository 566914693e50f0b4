/**
 * `McpClient`, a typed client for any MCP server, manifest or not, and `connectMcpClient`, which
 * opens its session in either era (`connectAnyEra`: the 2026-07-28 probe, else the legacy
 * `initialize` handshake) declaring the capabilities its options imply. One method per server
 * feature: lists follow `nextCursor` (at most MAX_PAGES pages) and are checked entry by entry
 * (ListPolicy), tool calls may run as tasks (client/tasks.ts), `listen` follows changes in either
 * era (legacy-listen.ts for sessions opened by `initialize`). Results are validated by the session
 * against the generated validators of the revision in use. The manifest-aware client
 * (`createMcpClient`) is in manifest-client.ts.
 */
import { ErrorCode, isObject } from "../jsonrpc.js";
import { CapabilityError, InvalidListEntryError, InvalidResultError, McpError } from "../errors.js";
import { describe } from "../describe.js";
import type { Transport } from "../transport.js";
import type { NotificationHandler, Params, RequestContext, RequestOptions, Result } from "../session/types.js";
import type { Capabilities, RequestHandlers } from "../lifecycle/common/types.js";
import { connectAnyEra, type AnyClientSession } from "../lifecycle/modern/client-probe.js";
import type { ListenOptions, Subscription, SubscriptionFilter } from "../lifecycle/modern/client-listen.js";
import { legacyListen, type ChangeListener } from "./legacy-listen.js";
import type {
  CallToolResult,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "../mcp-types.js";
import type { ClientHandlers, McpClientOptions } from "./types.js";
import { TASKS_EXTENSION } from "../lifecycle/modern/wire.js";
import { LegacyTaskReceiver } from "../tasks/legacy-receiver.js";
import type { PollOptions } from "../lifecycle/modern/client-tasks.js";
import { taskHandle, type TaskHandle, type TaskWaitOptions } from "../tasks/handle.js";
import type { TaskSupport } from "../tasks/modern.js";
import { ClientTasks, type TaskRequest } from "./tasks.js";
import { loadValidator } from "../lazy-binding.js";

/** Options of a tool call: a request's, plus whether to ask for a task (see ClientTasks). */
export type ToolCallOptions = RequestOptions & { task?: TaskRequest };

/** Stop following `nextCursor` after this many pages (a server that loops its cursors must not hang us). */
const MAX_PAGES = 10_000;

/** What an entry of each list cannot be used without: what it is addressed by. */
const ADDRESS: { readonly [key: string]: string } = {
  tools: "name",
  prompts: "name",
  resources: "uri",
  resourceTemplates: "uriTemplate",
};

/** How list results are checked (see McpClientOptions.strictLists). */
export interface ListPolicy {
  strict: boolean;
  trustPeer: boolean;
  report: (error: Error) => void;
}

/** The change notifications `listen()` delivers. */
const CHANGE_METHODS = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
];

export class McpClient {
  /**
   * Malformed entries of the most recent list*() call (empty when all were valid): those kept
   * with their defect (`kept`), and those dropped for lacking what they are addressed by.
   */
  listProblems: InvalidListEntryError[] = [];
  private readonly changeListeners = new Set<ChangeListener>();
  private readonly userHandlers = new Map<string, (params: any) => void | Promise<void>>();
  private readonly dispatching = new Set<string>();

  /** @internal task-augmented calls and handles */
  protected readonly tasks: ClientTasks;

  /** @internal use connectMcpClient */
  constructor(
    readonly session: AnyClientSession,
    private readonly lists: ListPolicy = { strict: false, trustPeer: false, report: () => {} },
    poll?: PollOptions,
  ) {
    this.tasks = new ClientTasks(session, poll, (listener) => {
      this.changeListeners.add(listener);
      this.dispatch("notifications/tasks/status");
    });
    if (session.era === "legacy") {
      // Legacy subscriptions are local bookkeeping: they end with the connection.
      const previous = session.onclose;
      session.onclose = () => {
        previous?.();
        for (const sub of this.legacySubscriptions) void sub.close();
      };
    }
  }

  private readonly legacySubscriptions = new Set<Subscription>();
  /** 2026-07-28: the listen stream behind each subscribeResource(uri). */
  private readonly resourceListens = new Map<string, Subscription>();

  /** Which lifecycle the server speaks: `modern` (2026-07-28, stateless) or `legacy` (initialize). */
  get era(): "modern" | "legacy" {
    return this.session.era;
  }

  get protocolVersion(): string {
    return this.session.protocolVersion;
  }
  get serverCapabilities(): Capabilities {
    return this.session.serverCapabilities;
  }
  get serverInfo() {
    return this.session.serverInfo;
  }
  get instructions(): string | undefined {
    return this.session.instructions;
  }

  protected request<R>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.session.request(method, params, options) as Promise<R>;
  }

  private async all<T>(method: string, key: string, options?: RequestOptions): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    const lenient = !this.lists.strict && !this.lists.trustPeer;
    this.listProblems = [];
    /** Entries the server sent on earlier pages: a problem names an entry by its place in the whole list. */
    let before = 0;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const params = cursor === undefined ? undefined : { cursor };
      let r: { nextCursor?: string; [k: string]: unknown };
      if (lenient) {
        const sent = await this.request<{ [k: string]: unknown }>(method, params, { ...options, skipValidation: true });
        r = await this.keepValid(method, key, sent, before);
        const entries = sent[key];
        if (Array.isArray(entries)) before += entries.length;
      } else r = await this.request<{ nextCursor?: string } & { [k: string]: unknown }>(method, params, options);
      out.push(...((r[key] as T[] | undefined) ?? []));
      // 2026-07-28: only an absent (or null) cursor ends a listing; "" is a valid cursor there.
      if (typeof r.nextCursor !== "string" || (r.nextCursor === "" && this.session.era === "legacy")) return out;
      if (seen.has(r.nextCursor))
        throw new McpError(ErrorCode.InternalError, `${method}: the server repeated cursor ${describe(r.nextCursor)}`);
      seen.add(r.nextCursor);
      cursor = r.nextCursor;
    }
    throw new McpError(ErrorCode.InternalError, `${method}: more than ${MAX_PAGES} pages`);
  }

  /**
   * Lenient list checking: servers publish malformed entries (a tool whose inputSchema lacks
   * `type`, say) that still work when called. Such an entry is kept, as sent, and its defect
   * reported; only one that lacks what it is addressed by (a tool's name, a resource's uri) is
   * dropped. A malformed envelope still fails whole. Each entry is checked with the revision's
   * own result validator, as a one-entry list.
   */
  private async keepValid(
    method: string,
    key: string,
    r: { [k: string]: unknown },
    before: number,
  ): Promise<{ nextCursor?: string; [k: string]: unknown }> {
    const validate = await loadValidator(this.session.binding, "results", method);
    if (validate === undefined) return r;
    // Called as a plain predicate: the type guard would narrow `r` to never on failure.
    const valid = (v: unknown): boolean => validate(v);
    if (valid(r)) return r;
    const entries = r[key];
    if (!Array.isArray(entries) || !valid({ ...r, [key]: [] }))
      throw new InvalidResultError(method, validate.errors ?? [], r);
    const usable: unknown[] = [];
    const address = ADDRESS[key]!;
    entries.forEach((entry, i) => {
      if (valid({ ...r, [key]: [entry] })) return void usable.push(entry);
      const index = before + i;
      const name = isObject(entry) && typeof entry.name === "string" ? entry.name : undefined;
      const issues = (validate.errors ?? []).map((i) => ({
        ...i,
        instancePath: i.instancePath.replace(/^\/[^/]+\/0/, `/${key}/${index}`),
      }));
      const kept = isObject(entry) && typeof entry[address] === "string";
      if (kept) usable.push(entry);
      else
        issues.unshift({
          instancePath: `/${key}/${index}/${address}`,
          schemaPath: "",
          keyword: "type",
          params: {},
          message: "must be a string: the entry cannot be used without it",
        });
      const problem = new InvalidListEntryError(method, index, name, issues, kept);
      this.listProblems.push(problem);
      this.lists.report(problem);
    });
    return { ...r, [key]: usable };
  }

  /** Every tool, following pagination (each tool's `execution.taskSupport` is remembered for callTool). */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools = await this.all<Tool>("tools/list", "tools", options);
    for (const t of tools) {
      const support = (t as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
      if (support === "forbidden" || support === "optional" || support === "required")
        this.tasks.support.set(t.name, support);
    }
    return tools;
  }
  /**
   * `tools/call`. When the call becomes a task (legacy: the tool's taskSupport is `required`, or
   * `options.task` asks; 2026-07-28: the server chose) this waits for the task's result.
   */
  callTool(name: string, args?: { [key: string]: unknown }, options?: ToolCallOptions): Promise<CallToolResult> {
    return this.tasks.call(
      name,
      args === undefined ? { name } : { name, arguments: args },
      options,
      this.lists.trustPeer,
    ) as Promise<CallToolResult>;
  }
  /** @internal callTool with the result turned into `map`'s value as it is read (typed facades). */
  callToolAs<T>(
    name: string,
    args: { [key: string]: unknown },
    options: ToolCallOptions | undefined,
    map: (result: CallToolResult) => T,
  ): Promise<T> {
    return this.tasks.call(
      name,
      { name, arguments: args },
      options,
      this.lists.trustPeer,
      map as (result: Result) => T,
    );
  }
  /** Starts `tools/call` as a task and returns a handle on it (see TaskHandle). */
  async startToolTask(
    name: string,
    args?: { [key: string]: unknown },
    options?: ToolCallOptions,
  ): Promise<TaskHandle<CallToolResult>> {
    const backend = await this.tasks.start(
      name,
      args === undefined ? { name } : { name, arguments: args },
      options,
      this.lists.trustPeer,
    );
    return taskHandle(backend, (r) => r as CallToolResult);
  }
  /** A handle on a task started earlier (by this client or by another one before a restart). */
  async resumeTask(taskId: string, options?: TaskWaitOptions): Promise<TaskHandle<CallToolResult>> {
    return taskHandle(await this.tasks.resume(taskId, this.lists.trustPeer, options), (r) => r as CallToolResult);
  }
  /** @internal the backend of a task-started call (typed handles are built by the facade) */
  startTask(name: string, params: Params, options?: ToolCallOptions) {
    return this.tasks.start(name, params, options, this.lists.trustPeer);
  }
  /** @internal */
  reattach(taskId: string, options?: TaskWaitOptions) {
    return this.tasks.resume(taskId, this.lists.trustPeer, options);
  }
  /** @internal what the generated definition says about tools' task support */
  learnTaskSupport(support: { [tool: string]: TaskSupport }): void {
    for (const [name, s] of Object.entries(support)) if (!this.tasks.support.has(name)) this.tasks.support.set(name, s);
  }
  listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return this.all("prompts/list", "prompts", options);
  }
  getPrompt(name: string, args?: { [key: string]: string }, options?: RequestOptions): Promise<GetPromptResult> {
    return this.request("prompts/get", args === undefined ? { name } : { name, arguments: args }, options);
  }
  listResources(options?: RequestOptions): Promise<Resource[]> {
    return this.all("resources/list", "resources", options);
  }
  listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return this.all("resources/templates/list", "resourceTemplates", options);
  }
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options);
  }
  /**
   * `notifications/resources/updated` for `uri` to the `on(...)` handler. Legacy:
   * `resources/subscribe`. 2026-07-28 (which has no such method): a `subscriptions/listen` stream
   * for that URI, kept until `unsubscribeResource` (refused when the server does not honour it).
   */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    if (this.session.era === "legacy") {
      await this.request("resources/subscribe", { uri }, options);
      return;
    }
    if (this.resourceListens.has(uri)) return;
    const sub = this.session.listen({ resourceSubscriptions: [uri] });
    this.resourceListens.set(uri, sub);
    void sub.ended.then(() => {
      if (this.resourceListens.get(uri) === sub) this.resourceListens.delete(uri);
    });
    const granted = await sub.acknowledged.catch(async (e: unknown) => {
      await sub.close();
      throw e;
    });
    if (!granted.resourceSubscriptions?.includes(uri)) {
      await sub.close();
      throw new CapabilityError(
        "subscriptions/listen",
        "resources.subscribe",
        `The server does not offer updates of ${JSON.stringify(uri)}`,
      );
    }
  }
  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    if (this.session.era === "legacy") {
      await this.request("resources/unsubscribe", { uri }, options);
      return;
    }
    const sub = this.resourceListens.get(uri);
    this.resourceListens.delete(uri);
    await sub?.close();
  }
  /**
   * Change notifications for what `filter` asks, until `close()`. 2026-07-28: a
   * `subscriptions/listen` stream. Legacy: the list changes the server's capabilities promise
   * plus `resources/subscribe` for each URI (unsubscribed on close), delivered the same way.
   */
  listen(filter: SubscriptionFilter, options?: ListenOptions): Subscription {
    if (this.session.era === "modern") return this.session.listen(filter, options);
    for (const m of CHANGE_METHODS) this.dispatch(m);
    const sub = legacyListen(this.session, filter, options ?? {}, this.changeListeners, this.lists.report);
    this.legacySubscriptions.add(sub);
    void sub.ended.then(() => this.legacySubscriptions.delete(sub));
    return sub;
  }

  /** Legacy era: one session handler per method feeding both `on()` and the `listen()` subscriptions. */
  private dispatch(method: string): void {
    if (this.dispatching.has(method) || this.session.era === "modern") return;
    this.dispatching.add(method);
    this.session.setNotificationHandler(method, (params: Params | undefined) => {
      for (const l of this.changeListeners) l(method, params);
      return this.userHandlers.get(method)?.(params);
    });
  }
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: { [name: string]: string } },
    options?: RequestOptions,
  ): Promise<CompleteResult["completion"]> {
    const params: Params = { ref, argument };
    if (context !== undefined && this.protocolVersion >= "2025-06-18") params.context = context;
    return (await this.request<CompleteResult>("completion/complete", params, options)).completion;
  }
  /** Legacy: `logging/setLevel`. 2026-07-28: the level rides in `_meta` of every later request. */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    if (this.session.era === "modern") return this.session.setLoggingLevel(level);
    await this.request("logging/setLevel", { level }, options);
  }
  /** Legacy: `ping`. 2026-07-28 has no ping: an uncached `server/discover` checks liveness instead. */
  async ping(options?: RequestOptions): Promise<void> {
    if (this.session.era === "legacy") return this.session.ping(options);
    this.session.clearCache();
    await this.session.request("server/discover", {}, options);
  }
  /** Legacy: `notifications/roots/list_changed`. 2026-07-28 asks for roots per request, so nothing is sent. */
  async notifyRootsListChanged(): Promise<void> {
    if (this.session.era === "legacy") await this.session.notify("notifications/roots/list_changed");
  }
  /** One handler per notification method (`notifications/message`, `notifications/resources/updated`, ...). */
  on<P extends Params = Params>(method: string, handler: (params: P) => void | Promise<void>): void {
    if (this.session.era === "modern")
      return this.session.setNotificationHandler(method, handler as NotificationHandler<any>);
    this.userHandlers.set(method, handler as (params: any) => void | Promise<void>);
    this.dispatch(method);
  }
  close(): Promise<void> {
    return this.session.close();
  }
}

/** Capabilities the client's handlers imply, merged into what the caller declared. */
export function impliedCapabilities(options: McpClientOptions): Capabilities {
  const caps: Capabilities = { ...options.capabilities };
  const h = options.handlers ?? {};
  if (h.sampling) caps.sampling = options.samplingTools ? { tools: {} } : {};
  if (h.elicitation || h.elicitationUrl) {
    caps.elicitation = h.elicitationUrl ? { ...(h.elicitation ? { form: {} } : {}), url: {} } : {};
  }
  if (h.roots) caps.roots = options.rootsListChanged ? { listChanged: true } : {};
  if (options.tasks) {
    // Legacy core tasks: requestor of tools/call tasks, receiver of sampling / elicitation tasks.
    const requests: Capabilities = {};
    if (h.sampling) requests.sampling = { createMessage: {} };
    if (h.elicitation || h.elicitationUrl) requests.elicitation = { create: {} };
    caps.tasks = {
      list: {},
      cancel: {},
      ...(Object.keys(requests).length > 0 ? { requests } : {}),
      ...(caps.tasks as Capabilities | undefined),
    };
    // 2026-07-28: the tasks extension (the legacy `tasks` means nothing there).
    caps.extensions = { ...(caps.extensions as Capabilities | undefined), [TASKS_EXTENSION]: {} };
  }
  return caps;
}

function requestHandlers(h: ClientHandlers, receiver: LegacyTaskReceiver | undefined): RequestHandlers {
  const out: RequestHandlers = {};
  if (h.sampling) out["sampling/createMessage"] = h.sampling;
  if (h.elicitation || h.elicitationUrl) {
    out["elicitation/create"] = (params: Params, ctx: RequestContext) => {
      const handler = params.mode === "url" ? h.elicitationUrl : h.elicitation;
      if (handler === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: elicitation mode ${describe(params.mode ?? "form")} is not supported`,
        );
      return handler(params as never, ctx);
    };
  }
  if (h.roots) {
    const roots = h.roots;
    out["roots/list"] = async (_: unknown, ctx: RequestContext) => ({ roots: await roots(ctx) });
  }
  if (receiver !== undefined) {
    for (const m of ["sampling/createMessage", "elicitation/create"]) if (out[m]) out[m] = receiver.wrap(out[m]);
    Object.assign(out, receiver.handlers());
  }
  return out;
}

/** Connect and run the handshake; resolves to a client for any server. */
export async function connectMcpClient(transport: Transport, options: McpClientOptions): Promise<McpClient> {
  return new McpClient(await openSession(transport, options), listPolicy(options), pollOptions(options));
}

/** @internal */
export function pollOptions(options: McpClientOptions): PollOptions | undefined {
  const p = options.pollIntervalMs;
  return p === undefined
    ? undefined
    : { ...(p.min !== undefined ? { minMs: p.min } : {}), ...(p.max !== undefined ? { maxMs: p.max } : {}) };
}

/** @internal */
export function listPolicy(options: McpClientOptions): ListPolicy {
  return {
    strict: options.strictLists === true,
    trustPeer: options.trustPeer === true,
    report: options.onerror ?? (() => {}),
  };
}

/**
 * Connect in the server's era: with both a 2026-07-28 binding and a legacy one the client probes
 * (server/discover) and stays modern when it can, else runs the legacy handshake; `options.era`
 * pins one.
 */
export async function openSession(transport: Transport, options: McpClientOptions): Promise<AnyClientSession> {
  const bindings = options.bindings;
  if (bindings === undefined || bindings.length === 0) {
    throw new TypeError("connectMcpClient: options.bindings must list at least one protocol binding");
  }
  // The receiver exists before the session (its handlers are registered at connect) and notifies through it after.
  // oxlint-disable-next-line prefer-const -- the receiver may notify during connect, before the assignment, and must see undefined
  let session: AnyClientSession | undefined;
  const tasks = typeof options.tasks === "object" ? options.tasks : {};
  const receiver = options.tasks
    ? new LegacyTaskReceiver(async (method, params) => {
        if (session?.era === "legacy") await session.notify(method, params);
      }, tasks)
    : undefined;
  session = await connectAnyEra({
    transport,
    bindings,
    clientInfo: options.clientInfo,
    capabilities: impliedCapabilities(options),
    handlers: requestHandlers(options.handlers ?? {}, receiver),
    ...(options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }),
    timeout: options.timeout,
    trustPeer: options.trustPeer,
    onerror: options.onerror,
    era: options.era,
    probeTimeout: options.probeTimeout,
    eraCache: options.eraCache,
    maxInputRounds: options.maxInputRounds,
    cache: options.cache,
    logLevel: options.logLevel,
  });
  return session;
}
