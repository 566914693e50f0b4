/**
 * The server core both eras' adapters share (legacy.ts, modern.ts), built once per McpServer: the
 * definition's entries by name with their handlers and validators, its lists per revision,
 * completion, the 2026-07-28 caching hints and tool headers (when given), and task support (which tools may
 * run as tasks, and the task machinery once the definition's `tasks` thunk has loaded it).
 */
import type { ProtocolBinding, Validator } from "../abi.js";
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { ownValue } from "../describe.js";
import type { Params, Result } from "../session/types.js";
import type { Capabilities, Implementation } from "../lifecycle/common/types.js";
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import type { CacheHint } from "../lifecycle/modern/results.js";
import type { TaskSupport } from "../tasks/modern.js";
import type { LegacyTasks } from "../tasks/legacy.js";
import { LazyModule } from "./lazy-module.js";
import type { ResourceRouter } from "./resources.js";
import type { PromptTable } from "./prompts.js";
import {
  mirrorsHeaders,
  missingFeature,
  type CoreFeatures,
  type InputsModule,
  type ToolHeadersModule,
} from "./features.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { ToolEntry } from "./tools.js";
import type {
  McpDefinition,
  McpServerHandlers,
  McpServerOptions,
  PublishedLists,
  ServerModernTasks,
  ServerSkills,
  ServerTasksModule,
  ToolValidators,
} from "./types.js";

const LIST_TTL_MS = 60_000;

/** A tool's input validator until the definition's are imported (toolsReady runs before any call). */
const validatorNotLoaded = (tool: string): Validator =>
  (() => {
    throw new Error(
      `mcpgen runtime: the input validator of tool ${JSON.stringify(tool)} was used before the tool validators were loaded`,
    );
  }) as unknown as Validator;

/** The bindings of the revisions both the definition speaks and the server was given, per era; `served`: those revisions, preferred first. */
export function servedBindings(
  definition: McpDefinition,
  options: McpServerOptions,
): { legacy: ProtocolBinding[]; modern: ProtocolBinding[]; served: string[] } {
  const spoken = new Set(definition.revisions);
  const given = options.bindings ?? definition.bindings ?? [];
  const legacy = given.filter((b) => b.era === "legacy" && spoken.has(b.revision));
  const modern = given.filter((b) => b.era === "modern" && spoken.has(b.revision));
  if (legacy.length === 0 && modern.length === 0) {
    throw new TypeError(
      `createMcpServer: none of the given bindings (${given.map((b) => b.revision).join(", ") || "none"}) is a revision the manifest speaks (${definition.revisions.join(", ")})`,
    );
  }
  const revisions = new Set([...legacy, ...modern].map((b) => b.revision));
  return { legacy, modern, served: definition.revisions.filter((r) => revisions.has(r)) };
}

export class ServerCore {
  readonly tools = new Map<string, ToolEntry>();
  /** The manifest's prompts; undefined when the server was not given the prompts feature (it then declares none). */
  readonly prompts: PromptTable | undefined;
  /** `resources/read` routing; undefined when the server was not given the resources feature (it then declares no resources). */
  readonly router: ResourceRouter | undefined;
  /** `completion/complete`; the handlers are registered only when the server declares completions, which needs the feature. */
  readonly completion: CoreFeatures["completion"];
  /** The MRTR code, once inputsReady() has loaded it; undefined before, and on a server asking clients for nothing. */
  inputs: InputsModule | undefined;
  /** `requestState`'s codec, made when the MRTR code loads. */
  codec: RequestStateCodec | undefined;
  private readonly inputPath: LazyModule<InputsModule> | undefined;
  readonly report: (e: Error) => void;
  /** What `initialize` answers with: the newest legacy revision's view of the manifest. */
  readonly serverInfo: Implementation;
  readonly capabilities: Capabilities;
  readonly instructions: string | undefined;
  /** The 2026-07-28 tasks extension; undefined when no tool declares `execution.taskSupport` (set before the first connection starts). */
  tasks: ServerModernTasks | undefined;
  /** 2025-11-25 core tasks; undefined when no tool of a legacy revision declares `execution.taskSupport` (set before the first connection starts; only revisions that have core tasks use it). */
  legacyTasks: LegacyTasks | undefined;
  /** The `Mcp-Param-*` check of 2026-07-28 `tools/call`s, loaded before the first 2026-07-28 connection; undefined when no tool mirrors an argument. */
  readonly toolHeaders: LazyModule<ToolHeadersModule> | undefined;
  /**
   * Legacy revisions in which some tool declares `execution.taskSupport` (which of them have core
   * tasks: legacy.ts); set with the task machinery, undefined before and on a server without it.
   */
  taskToolRevisions: ReadonlySet<string> | undefined;
  /** The task machinery; undefined when no tool may run as a task. */
  private readonly taskPath: LazyModule<ServerTasksModule> | undefined;
  /** The task machinery is built (server/start-tasks.ts). */
  tasksStarted = false;
  private toolsValidated: boolean;
  private toolsLoading: Promise<void> | undefined;
  /** The definition's all-errors validators, imported the first time a tool's arguments fail. */
  private readonly allErrors: LazyModule<ToolValidators> | undefined;
  /** The manifest's skills; undefined when it declares none (set before the first connection starts). */
  skills: ServerSkills | undefined;

  /** What finds every failure of a tool's refused arguments; undefined without all-errors validators (a failed import is reported, then the first failure serves). */
  private allErrorsOf(tool: string): ToolEntry["allErrors"] {
    const all = this.allErrors;
    if (all === undefined) return undefined;
    return () =>
      all.get().then(
        (validators) => ownValue(validators, tool)?.input,
        (e: unknown) => {
          this.report(
            new Error(
              `the all-errors tool validators could not be loaded (invalid arguments name their first failure): ${e instanceof Error ? e.message : String(e)}`,
            ),
          );
          return undefined;
        },
      );
  }

  /** `legacy` and `modern`: the bindings served of each era (one of them not empty). */
  constructor(
    readonly definition: McpDefinition,
    readonly handlers: McpServerHandlers,
    readonly options: McpServerOptions,
    /** The legacy revisions' bindings served. */
    readonly legacy: readonly ProtocolBinding[],
    /** The 2026-era revisions' bindings served. */
    readonly modern: readonly ProtocolBinding[],
    /** A task changed (for `notifications/tasks` on listens). */
    readonly ontaskchange: (task: Result) => void,
    features: CoreFeatures,
  ) {
    this.report = options.onerror ?? ((e) => console.error(`[mcpgen server] ${e.name}: ${e.message}`));
    this.toolsValidated = typeof definition.toolValidators !== "function";
    const allErrors = definition.allErrorsValidators;
    this.allErrors =
      allErrors === undefined
        ? undefined
        : new LazyModule(async () => (typeof allErrors === "function" ? allErrors() : allErrors));
    // initialize answers with the newest legacy revision's view; a modern-only server with its own.
    const base = legacy.length > 0 ? legacy : modern;
    const newest = [...base].sort((a, b) => (a.revision < b.revision ? 1 : -1))[0]!.revision;
    const lists = this.lists(newest);
    this.serverInfo = lists.serverInfo as Implementation;
    this.capabilities = lists.capabilities as Capabilities;
    this.instructions = lists.instructions;
    // Resources, templates and skills are read through the router.
    const Router = features.resources;
    if (
      Router === undefined &&
      (hasCapability(this.capabilities, "resources") ||
        definition.skills !== undefined ||
        lists.resources.length + lists.resourceTemplates.length > 0)
    )
      throw missingFeature("resources");
    this.router = Router === undefined ? undefined : new Router();
    if (features.completion === undefined && hasCapability(this.capabilities, "completions"))
      throw missingFeature("completion");
    this.completion = features.completion;
    const Prompts = features.prompts;
    if (Prompts === undefined && (hasCapability(this.capabilities, "prompts") || lists.prompts.length > 0))
      throw missingFeature("prompts");
    this.prompts = Prompts === undefined ? undefined : new Prompts();
    this.index(lists);
    const Headers = features.toolHeaders;
    if (Headers === undefined && modern.some((b) => this.lists(b.revision).tools.some(mirrorsHeaders)))
      throw missingFeature("toolHeaders");
    this.toolHeaders = Headers === undefined ? undefined : new LazyModule(Headers);
    this.inputPath = features.inputs === undefined ? undefined : new LazyModule(features.inputs);
    // Which revisions' tools declare task support the task machinery works out as it starts
    // (server/start-tasks.ts); here only whether any does.
    const modernTaskTools = modern.some((b) => this.declaresTaskTools(b.revision));
    // A 2026-07-28 call that may become a task gathers input first (and a task's input after).
    if (modernTaskTools && features.inputs === undefined) throw missingFeature("inputs");
    if (modernTaskTools || legacy.some((b) => this.declaresTaskTools(b.revision))) {
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
      throw new TypeError(
        "createMcpServer: tasks.maxTasks and tasks.maxTasksPerOwner configure the default store; give them to your tasks.store instead",
      );
    }
  }

  /** The task machinery, once tasksReady() has loaded it (only servers with task tools call this). */
  get taskModule(): ServerTasksModule {
    return this.taskPath!.value!;
  }

  /** What must load before a connection can start: the task machinery (once, with the MRTR code when a 2026-07-28 tool may run as a task); undefined once loaded, or when no tool may run as a task. */
  tasksReady(): Promise<void> | undefined {
    if (this.tasksStarted || this.taskPath === undefined) return undefined;
    return this.taskPath.get().then((m) => m.startTasks(this));
  }

  /** What must load before a 2026-07-28 connection can start: the MRTR code (once); undefined once loaded, or when the server asks clients for nothing. */
  inputsReady(): Promise<void> | undefined {
    const path = this.inputs === undefined ? this.inputPath : undefined;
    if (path === undefined) return undefined;
    if (path.value === undefined) return path.get().then((m) => this.startInputs(m));
    this.startInputs(path.value);
    return undefined;
  }

  private startInputs(m: InputsModule): void {
    if (this.inputs !== undefined) return;
    this.codec = new m.RequestStateCodec(this.options.requestState);
    this.inputs = m;
  }

  /** What must load before a connection can start: the skills (once; a failed load is tried again); undefined once loaded, or when the manifest declares none. */
  skillsReady(): Promise<void> | undefined {
    // Skills need the router (the constructor refused them without it), which loads them.
    const load = this.definition.skills;
    return load === undefined || this.skills !== undefined ? undefined : this.router!.loadSkills(this, load);
  }

  /** The bindings each era serves (the skills' also know the extension's methods). */
  bindings(): { legacy: readonly ProtocolBinding[]; modern: readonly ProtocolBinding[] } {
    return this.skills?.bindings(this) ?? this;
  }

  /** A tool's `execution.taskSupport` (the same in every revision that lists the tool). */
  taskSupport(_revision: string, tool: string): TaskSupport {
    return this.definition.toolTasks?.[tool] ?? "forbidden";
  }

  /** Some tool of `revision` declares `execution.taskSupport`. */
  declaresTaskTools(revision: string): boolean {
    return this.lists(revision).tools.some((t) => this.taskSupport(revision, t.name as string) !== "forbidden");
  }

  get pageSize(): number {
    return this.definition.pageSize;
  }

  /** Caching hint of a 2026-07-28 result (manifest `cache`, else the defaults). */
  cacheHint(method: string, params: Params | undefined): CacheHint {
    const c = this.definition.cache;
    // Only the router (the resources feature) serves `resources/read`, and knows its resources' hints.
    if (method === "resources/read") return this.router!.cacheHint(c, params);
    return { ttlMs: c?.ttlMs ?? LIST_TTL_MS, cacheScope: c?.scope ?? "public" };
  }

  lists(revision: string): PublishedLists {
    const lists = this.definition.published[revision];
    if (lists === undefined)
      throw new McpError(ErrorCode.InternalError, `Internal error: no published lists for revision ${revision}`);
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
      else
        this.tools.set(name, {
          name,
          handler,
          input: validators.input,
          output: validators.output,
          defaults: validators.defaults as ToolEntry["defaults"],
          allErrors: this.allErrorsOf(name),
        });
    }
    this.prompts?.index(lists, members, this.handlers.prompts, missing);
    // Resources and templates need the router (the constructor refused a server declaring them without it).
    this.router?.index(lists, members, this.handlers.resources, missing);
    if (missing.length > 0) throw new TypeError(`createMcpServer: no handler for ${missing.join(", ")}`);
  }

  /**
   * What must load before a `tools/call` runs: the tool validators when the definition
   * imports them (once per process; a failed import is tried again by the next call); undefined
   * once they are in place.
   */
  toolsReady(): Promise<void> | undefined {
    if (this.toolsValidated) return undefined;
    const load = this.definition.toolValidators as () => Promise<ToolValidators>;
    return (this.toolsLoading ??= load()
      .then((loaded) => {
        for (const [name, entry] of this.tools) {
          const v = ownValue(loaded, name);
          if (v === undefined)
            throw new Error(`the module has no validators for tool ${JSON.stringify(name)}; regenerate the output`);
          this.tools.set(name, {
            ...entry,
            input: v.input,
            output: v.output,
            defaults: v.defaults as ToolEntry["defaults"],
          });
        }
        this.toolsValidated = true;
        this.toolsLoading = undefined;
      })
      .catch((e: unknown) => {
        this.toolsLoading = undefined;
        const error = new McpError(
          ErrorCode.InternalError,
          `Internal error: the tool validators could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
        );
        this.report(error);
        throw error;
      }));
  }
}
