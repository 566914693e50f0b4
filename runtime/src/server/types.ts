/**
 * What generated server modules hand to `createMcpServer`: the manifest's data (list payloads
 * per revision, validators, identifier tables) and the user's handlers. Generated code narrows
 * the handler types; the runtime sees them through these open shapes.
 */
import type { MemoryTaskStore, TaskStore } from "../tasks/store.js";
import type { LegacyTasks } from "../tasks/legacy.js";
import type {
  ModernTasksOptions,
  TaskRunContext,
  TaskSupport,
  TasksExtension,
  withTaskMethods,
} from "../tasks/modern.js";
import type { callMaybeTask, taskHandlers, withTaskCapabilities } from "../tasks/legacy-server.js";
import type { ProtocolBinding, Validator } from "../abi.js";
import type { resultBrand } from "./result-brand.js";
import type { RequestId } from "../jsonrpc.js";
import type { AuthInfo } from "../auth/principal.js";
import type { Params, ProgressOptions, RequestContext, RequestOptions, Result } from "../session/types.js";
import type { Capabilities, Implementation } from "../lifecycle/common/types.js";
import type { RequestStateCodec, RequestStateOptions } from "../lifecycle/modern/request-state.js";
import type { ListenLimits } from "../lifecycle/modern/listen.js";
import type { ServerSession } from "../lifecycle/legacy/server.js";
import type { ModernServerSession } from "../lifecycle/modern/server.js";
import type { ChangeBus } from "./change-bus.js";
import type { RunningBytesLimits } from "../session/running-bytes.js";
import type {
  CallToolResult,
  CompleteResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  ElicitSchema,
  ElicitUrlParams,
  GetPromptResult,
  LoggingLevel,
  Meta,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
  Root,
} from "../mcp-types.js";
import type * as Wire from "../wire/legacy.js";

type JsonObject = { readonly [key: string]: unknown };

/** One revision's `published` entry of the generated `lists.ts`. */
export interface PublishedLists {
  readonly serverInfo: JsonObject;
  readonly capabilities: JsonObject;
  readonly instructions?: string;
  readonly tools: readonly JsonObject[];
  readonly resources: readonly JsonObject[];
  readonly resourceTemplates: readonly JsonObject[];
  readonly prompts: readonly JsonObject[];
}

/** MCP name -> generated member name (`get_forecast` -> `getForecast`), per section. */
export interface MemberTables {
  readonly tools: { readonly [name: string]: string };
  readonly prompts: { readonly [name: string]: string };
  readonly resources: { readonly [name: string]: string };
  readonly resourceTemplates: { readonly [name: string]: string };
}

/** Caching hints of 2026-07-28 results (`ttlMs`, `cacheScope`), from the manifest's `cache`. */
export interface CacheSettings {
  readonly ttlMs?: number;
  readonly scope?: "public" | "private";
}

/** The manifest's caching settings: the lists' and discover's default, and per resource reads. */
export interface CacheDefinition extends CacheSettings {
  /** By resource URI. */
  readonly resources?: { readonly [uri: string]: CacheSettings };
  /** By resource template name. */
  readonly resourceTemplates?: { readonly [name: string]: CacheSettings };
}

/** The data a generated module passes to the facades (ABI: generated code builds this object). */
/**
 * The validators of every tool by MCP name (`output` is null without an outputSchema), and
 * `defaults`: what a server hands the tool's handler instead of valid arguments, a copy with the
 * inputSchema's `default`s filled in (absent when the schema has none that apply).
 */
export type ToolValidators = {
  readonly [tool: string]: {
    readonly input: Validator;
    readonly output: Validator | null;
    readonly defaults?: (input: never) => unknown;
  };
};

export interface McpDefinition {
  /** Revisions the manifest speaks, preferred first. */
  readonly revisions: readonly string[];
  readonly pageSize: number;
  readonly published: { readonly [revision: string]: PublishedLists };
  /**
   * The validators of every tool, or (generated code) a thunk importing them: a server calls it on
   * its first `tools/call` (nothing before that needs them), a client when it connects.
   */
  readonly toolValidators: ToolValidators | (() => Promise<ToolValidators>);
  /**
   * Validators of the same schemas that find every failure, not only the first, or (generated
   * code) a thunk importing them: used only once a tool's arguments (server) or structured result
   * (client) failed, for the report. Without them a report names the first failure.
   */
  readonly allErrorsValidators?: ToolValidators | (() => Promise<ToolValidators>);
  readonly members: MemberTables;
  /** The protocol bindings generated next to the definition (`bindings.ts`), used when options give none. */
  readonly bindings?: readonly ProtocolBinding[];
  /** 2026-07-28 caching hints (default: lists and discover 60 s public; resource reads 0 ms private). */
  readonly cache?: CacheDefinition;
  /** OAuth scopes per tool (manifest `auth.scopes`); pass it to `createResourceServer({ toolScopes })`. */
  readonly toolScopes?: { readonly [tool: string]: readonly string[] };
  /** Tools that may run as tasks (manifest `execution.taskSupport`; absent = "forbidden"). */
  readonly toolTasks?: { readonly [tool: string]: "optional" | "required" };
  /**
   * Imports the server's task machinery (a thunk importing `@mcpgen/runtime/tasks/server`); required
   * when some tool may run as a task. The generated server adds it only then, so a server
   * without task tools never reaches the module and a bundler leaves it out.
   */
  readonly tasks?: () => Promise<ServerTasksModule>;
  /**
   * Imports the manifest's skills and the code that serves them (`@mcpgen/runtime/skills/server`
   * with the generated `skills.ts`); the generated server adds it only when the manifest declares
   * skills, so every other server and its bundle never carry either.
   */
  readonly skills?: () => Promise<ServerSkills>;
}

/** One file of a skill, as the generator embeds it: its path below the skill root, content, digest and size. */
export interface SkillFile {
  readonly path: string;
  readonly mimeType: string;
  /** UTF-8 content; `blob` (base64) instead for other bytes. */
  readonly text?: string;
  readonly blob?: string;
  /** `sha256:` and 64 lowercase hex digits of the raw bytes. */
  readonly digest: string;
  /** Length of the raw bytes. */
  readonly size: number;
}

/** One skill of the manifest: its `<skill-path>` (served at `skill://<path>/SKILL.md`), SKILL.md frontmatter as JSON, and every file. */
export interface SkillSource {
  readonly path: string;
  readonly frontmatter: { readonly name: string; readonly description: string; readonly [key: string]: unknown };
  readonly files: readonly SkillFile[];
}

/** The served skills (server/skills.ts), as McpServer holds them once loaded. */
export interface ServerSkills {
  /** `skills/list`, `skills/get` and `resources/directory/read`; with `cache` (2026-07-28), the skills results carry it. */
  handlers(
    pageSize: number,
    cache?: { ttlMs: number; cacheScope: string },
  ): { [method: string]: (params: Params) => Result };
  /** A skill file's `resources/read` result; undefined for a URI that is none. */
  readonly read: (uri: string) => ReadResourceResult | undefined;
  /** `own` (a revision's resources) followed by the SKILL.md resources. */
  listed(own: readonly unknown[]): readonly unknown[];
  /** The bindings of both eras with the extension's methods. */
  bindings(served: { legacy: readonly ProtocolBinding[]; modern: readonly ProtocolBinding[] }): {
    legacy: readonly ProtocolBinding[];
    modern: readonly ProtocolBinding[];
  };
}

/** The 2026-07-28 tasks extension as McpServer holds it: task runs get a HandlerContext. */
export type ServerModernTasks = TasksExtension<TaskRunContext & HandlerContext>;

/**
 * What `@mcpgen/runtime/tasks/server` (tasks/server.ts) exports, as McpServer uses it: its
 * ModernTasks runs handlers with the server's 2026-07-28 context, a HandlerContext.
 */
export interface ServerTasksModule {
  readonly MemoryTaskStore: typeof MemoryTaskStore;
  readonly LegacyTasks: typeof LegacyTasks;
  readonly ModernTasks: new (
    codec: RequestStateCodec,
    options: ModernTasksOptions & { bus?: ChangeBus | undefined },
  ) => ServerModernTasks;
  readonly TASKS_EXTENSION: string;
  readonly withTaskMethods: typeof withTaskMethods;
  /**
   * The 2026-07-28 side's task parts (server/modern-tasks.ts), which modern.ts calls once the tasks
   * are started: a revision's capabilities with the tasks extension where its tools may run as
   * tasks, and a `tools/call` run as a task (undefined to run it as any call).
   */
  readonly withTasksExtension: (core: TaskSupportOf, revision: string, capabilities: Capabilities) => Capabilities;
  readonly callAsTask: <T extends { readonly name: string }>(
    core: TaskSupportOf & { readonly tasks: ServerModernTasks | undefined },
    p: Params,
    rc: RequestContext,
    tool: T,
    args: unknown,
    // `tool` and `args` are handed to `run`, so a call needs no closure of its own.
    run: (ctx: TaskRunContext & HandlerContext, tool: T, args: unknown) => Result | Promise<Result>,
  ) => Promise<Result> | undefined;
  readonly callMaybeTask: typeof callMaybeTask;
  readonly taskHandlers: typeof taskHandlers;
  readonly withTaskCapabilities: typeof withTaskCapabilities;
  /** Builds the server's task machinery into `host` once (server/start-tasks.ts). */
  readonly startTasks: (host: TasksHost) => Promise<void>;
}

/** Which tools may run as tasks (ServerCore, core.ts). */
export interface TaskSupportOf {
  /** A tool's `execution.taskSupport` in `revision`. */
  taskSupport(revision: string, tool: string): TaskSupport;
  /** Some tool of `revision` declares `execution.taskSupport`. */
  declaresTaskTools(revision: string): boolean;
}

/**
 * What a server's task machinery is built from, and where it is put (ServerCore, core.ts; built by
 * server/start-tasks.ts, in the tasks module, so a server without task tools carries none of it).
 */
export interface TasksHost {
  /** Its `tasks` (the store and bounds) and `bus`. */
  readonly options: McpServerOptions;
  /** The bindings served of each era. */
  readonly legacy: readonly ProtocolBinding[];
  readonly modern: readonly ProtocolBinding[];
  /** Some tool of `revision` declares `execution.taskSupport`. */
  declaresTaskTools(revision: string): boolean;
  /** Loads the MRTR code, which makes `codec`; undefined once loaded. */
  inputsReady(): Promise<void> | undefined;
  /** Set once the machinery is built. */
  tasksStarted: boolean;
  /** Set to the legacy revisions in which some tool may run as a task. */
  taskToolRevisions: ReadonlySet<string> | undefined;
  /** The requestState codec, made with the MRTR code (loaded first when a 2026-07-28 tool may run as a task). */
  readonly codec: RequestStateCodec | undefined;
  readonly pageSize: number;
  /** A 2026-07-28 task changed (for `notifications/tasks` on listens). */
  readonly ontaskchange: (task: Result) => void;
  readonly report: (e: Error) => void;
  /** The 2026-07-28 tasks extension; undefined where no 2026-07-28 tool may run as a task. */
  tasks: ServerModernTasks | undefined;
  /** 2025-11-25 core tasks; undefined where no legacy tool may run as a task. */
  legacyTasks: LegacyTasks | undefined;
}

// ---- handler results

/** Marks results built with `toolResult` / `toolError`, so a plain object is always structured output. */
export interface Branded {
  readonly [resultBrand]: true;
}
/** A full tool result with structured output (when you also want your own content blocks or `_meta`). */
export interface ToolResult<O> extends Branded {
  readonly structuredContent: O;
  readonly content?: ContentBlock[];
  readonly _meta?: Meta;
}
/** A tool execution error the model should see (`isError: true`); never validated against outputSchema. */
export interface ToolError extends Branded {
  readonly isError: true;
  readonly content: ContentBlock[];
  readonly _meta?: Meta;
}
type MaybePromise<T> = T | Promise<T>;
/** What a handler of a tool with outputSchema returns: the structured output itself, or a branded result. */
export type ToolReturn<O> = MaybePromise<O | ToolResult<O> | ToolError>;
/** What a handler of a tool without outputSchema returns: text, content blocks, or a full result. */
export type ContentReturn = MaybePromise<string | ContentBlock[] | Wire.CallToolResult | ToolError>;
export type PromptReturn = MaybePromise<string | PromptMessage[] | GetPromptResult>;
/** Text (with the resource's URI and mimeType), contents, or a full result. */
export type ResourceReturn = MaybePromise<string | ResourceContents[] | ReadResourceResult>;
export type CompletionReturn = MaybePromise<string[] | CompleteResult["completion"]>;

// ---- handler context

/** Options of a `ctx.client.*` call. */
export interface ClientRequestOptions extends RequestOptions {
  /**
   * 2026-07-28: the key of this input request in `inputRequests` / `inputResponses`. Default: the
   * call's position among the run's client calls (`elicitation-1`, `sampling-2`, `roots-3`), which
   * is stable as long as the handler asks in the same order on every run. Ignored in legacy revisions.
   */
  key?: string;
}

export interface ClientRequests {
  /** The client's declared capabilities (requests it lacks the capability for are refused locally). */
  readonly capabilities: Capabilities;
  readonly info: Implementation | undefined;
  /** `sampling/createMessage` (needs the client's `sampling`; `tools` needs `sampling.tools`). */
  createMessage(params: CreateMessageParams, options?: ClientRequestOptions): Promise<CreateMessageResult>;
  /** `elicitation/create` in form mode, the accepted content typed from `requestedSchema`. */
  elicit<const S extends ElicitSchema>(
    params: ElicitFormParams<S>,
    options?: ClientRequestOptions,
  ): Promise<ElicitResult<S>>;
  /** `elicitation/create` in URL mode (2025-11-25; needs `elicitation.url`). */
  elicitUrl(
    params: ElicitUrlParams,
    options?: ClientRequestOptions,
  ): Promise<{ action: "accept" | "decline" | "cancel" }>;
  /** `roots/list` (needs the client's `roots`). */
  listRoots(options?: ClientRequestOptions): Promise<Root[]>;
}

/** What a handler may ask the client (the manifest's `clientRequests`). */
export type ClientRequestKind = "elicitation" | "sampling" | "roots";

/** `ctx.client` offering the requests of `K` only (who the client is, always). */
export type ClientRequestsOf<K extends ClientRequestKind> = Pick<
  ClientRequests,
  "capabilities" | "info" | { elicitation: "elicit" | "elicitUrl"; sampling: "createMessage"; roots: "listRoots" }[K]
>;

/**
 * What a handler gets with its request. `K`: what it may ask the client (the generated server
 * narrows it to its manifest's `clientRequests`, so an undeclared request is a compile error).
 */
export interface HandlerContext<K extends ClientRequestKind = ClientRequestKind> {
  readonly requestId: RequestId;
  /** Aborted when the client cancels or the connection closes. */
  readonly signal: AbortSignal;
  /** The protocol revision of this request (negotiated on the connection, or the request's own in 2026-07-28). */
  readonly revision: string;
  /** `params._meta` of the request. */
  readonly meta: Meta | undefined;
  /** Who the request's access token speaks for, on an HTTP endpoint protected by an auth guard. */
  readonly auth: AuthInfo | undefined;
  /** Progress for the request (no-op unless the client asked for it); must increase. */
  sendProgress(progress: number, options?: ProgressOptions): Promise<void>;
  /**
   * `notifications/message` at `level` if the client's `logging/setLevel` lets it through (needs
   * `logging`); in 2026-07-28 only when the request's `_meta` log level does.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  readonly client: ClientRequestsOf<K>;
  /**
   * Ends the HTTP stream carrying this request's reply after what was sent so far (Streamable
   * HTTP 2025-11-25 polling); the client resumes with GET and the reply arrives there. False when
   * the transport has no per-request streams (stdio, in-memory).
   */
  closeStream(): boolean;
  /**
   * Let the rest of this tool call run as a task (2026-07-28 `io.modelcontextprotocol/tasks`, for a
   * tool with `execution.taskSupport` and a client that declared the extension): resolves once the
   * task exists and the client has its CreateTaskResult; input asked for before it is gathered
   * synchronously (InputRequiredResult rounds), input asked for after it parks the task in
   * `input_required`. Without this call a task-eligible call becomes a task when it is still
   * running after the server's task grace period. Resolves at once when the call cannot become one.
   */
  runAsTask(): Promise<void>;
  /**
   * The human-readable `statusMessage` of the task this call runs as (both eras: a 2025-11-25
   * task-augmented call, a 2026-07-28 call that became a task); clients see it in `tasks/get` and
   * status notifications. Resolves at once when the call is not a task. At most 1000 characters are kept.
   */
  setStatusMessage(message: string): Promise<void>;
}

export interface CompletionContext extends HandlerContext {
  /** Already-resolved arguments / variables (`context.arguments`, 2025-06-18+). */
  readonly arguments: { readonly [name: string]: string | undefined };
}

export type ToolHandler = (input: never, ctx: HandlerContext) => unknown;
export type PromptHandler = (args: never, ctx: HandlerContext) => PromptReturn;
export type ResourceHandler = (ctx: HandlerContext) => ResourceReturn;
export type TemplateHandler = (vars: never, ctx: HandlerContext) => ResourceReturn;
export type Completer = (value: string, ctx: CompletionContext) => CompletionReturn;

/** Handlers by generated member name. */
export interface McpServerHandlers {
  readonly tools?: { readonly [member: string]: ToolHandler };
  readonly prompts?: { readonly [member: string]: PromptHandler };
  /** Static resources and templates share one namespace (as in the generated client). */
  readonly resources?: { readonly [member: string]: ResourceHandler | TemplateHandler };
  readonly completions?: {
    readonly prompts?: {
      readonly [member: string]: { readonly [argument: string]: Completer | undefined } | undefined;
    };
    readonly resources?: {
      readonly [member: string]: { readonly [variable: string]: Completer | undefined } | undefined;
    };
  };
}

export interface McpServerOptions {
  /**
   * Protocol bindings (`binding` of each generated `protocol/<rev>/index.ts`); those the manifest
   * speaks are used. Default: the definition's own.
   */
  bindings?: readonly ProtocolBinding[];
  /** Server bugs (invalid tool output, throwing handlers) and session problems; default: console.error. */
  onerror?: (error: Error) => void;
  /** Level below which `ctx.log` drops messages until the client sends `logging/setLevel` (default "info"). */
  logLevel?: LoggingLevel;
  /** Default timeout of requests to the client, ms (60 000). */
  timeout?: number;
  trustPeer?: boolean;
  /** 2026-07-28 `requestState` protection (HMAC key, lifetime, single use); see RequestStateOptions. */
  requestState?: RequestStateOptions;
  /**
   * Tasks for tools declaring `execution.taskSupport`, in both eras: 2025-11-25 task-augmented
   * calls (`params.task`, `tasks/result`) and the 2026-07-28 `io.modelcontextprotocol/tasks`
   * extension, and the bounds on what callers can make the server hold (docs/task-stores.md). An
   * owner is the caller's authorization principal, else its connection (a Streamable HTTP
   * session); 2026-07-28 calls without authorization share one owner. A refusal is -32603 whose
   * `data.limit` names the bound.
   */
  tasks?: {
    /** Where tasks live; default a MemoryTaskStore built from `maxTasks`, `maxTasksPerOwner`, shared by both eras. */
    store?: TaskStore;
    /** How long a 2026-07-28 call may run before it becomes a task, ms (default 100). */
    graceMs?: number;
    /** Polling interval suggested to clients, ms (default 500). */
    pollIntervalMs?: number;
    /** Most task handlers running at once, per era (default 1000): `maxRunning`. */
    maxRunning?: number;
    /** Most of them one owner runs at once (default a tenth of maxRunning): `maxRunningPerOwner`. */
    maxRunningPerOwner?: number;
    /** Retention of a task whose caller asks for none, ms; holds with any store (default: the store's, 1 h for the built-in ones). */
    defaultTtlMs?: number;
    /** Longest retention granted, whatever a caller asks (2025-11-25 `task.ttl`), ms; holds with any store (default: the store's, 24 h). */
    maxTtlMs?: number;
    /** Most tasks the default store holds, any status (default 1000): `maxTasks`. With `store`, give it to the store instead. */
    maxTasks?: number;
    /** Most of them one owner holds (default a tenth of maxTasks): `maxTasksPerOwner`. With `store`, give it to the store instead. */
    maxTasksPerOwner?: number;
  };
  /**
   * How many 2026-07-28 `subscriptions/listen` requests may be open at once: on the server
   * (default 10 000), per session (default 100) and per principal across its sessions (default
   * 1 000; the principal is `principalKey(ctx.auth)`, else the session). More are refused with
   * -32000, `data.limit` naming the option ("listens.perSession", ...).
   */
  listens?: ListenLimits;
  /**
   * Memory the requests running at once may hold, in bytes: each request is charged about what
   * its message takes once parsed (estimated by the HTTP transports as they read it) until it is
   * answered or cancelled, per session (default 64 MiB), per principal across its sessions
   * (default a quarter of `max` but at least `perSession`: 128 MiB; the principal is
   * `principalKey(ctx.auth)`, else the session) and on the whole server (default 512 MiB). More
   * are refused with -32000, `data.limit` "runningBytes.perSession", "runningBytes.perPrincipal"
   * or "runningBytes.max".
   */
  runningBytes?: RunningBytesLimits;
  /**
   * The bus shared with the other instances of this server behind a load balancer
   * (`@mcpgen/runtime/redis`'s RedisChangeBus, docs/scale-out.md): list_changed, resources/updated
   * and task changes raised here reach their sessions and listens, and a `tasks/cancel` or
   * `tasks/update` reaches the instance running the task. Default: none (one process).
   */
  bus?: ChangeBus;
}

export type { CallToolResult };

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
