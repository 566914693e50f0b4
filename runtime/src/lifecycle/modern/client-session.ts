/**
 * Client side of the 2026-07-28 lifecycle: no handshake; every request carries the client's
 * `_meta` (revision, capabilities, identity, log level); `server/discover` tells what the server
 * offers; results are read by their `resultType`, input-required results are answered through
 * the client's sampling / elicitation / roots handlers and retried (a new JSON-RPC id per round,
 * `requestState` echoed verbatim), and cacheable results are reused while their `ttlMs` lasts.
 */
import { awaitTask, type PollOptions } from "./client-tasks.js";
import type { ProtocolBinding } from "../../abi.js";
import { loadTables } from "../../lazy-binding.js";
import type { RequestId } from "../../jsonrpc.js";
import { ErrorCode } from "../../jsonrpc.js";
import { InvalidResultError, McpError, ProtocolVersionError } from "../../errors.js";
import type { Transport } from "../../transport.js";
import { Session } from "../../session/session.js";
import { ownCopy } from "../../session/own-copy.js";
import { sharedMeta, type SharedMeta } from "../../session/request-text.js";
import type {
  NotificationHandler,
  Params,
  RequestHandler,
  RequestOptions,
  ResponseReader,
  Result,
} from "../../session/types.js";
import type { LoggingLevel } from "../../mcp-types.js";
import type { Capabilities, Implementation, NotificationHandlers, RequestHandlers } from "../common/types.js";
import type * as Modern from "../../wire/modern.js";
import { ResultCache } from "./client-cache.js";
import { Subscription, type ListenOptions, type SubscriptionFilter } from "./client-listen.js";
import { answerInputRequests, InputRoundsExceededError } from "./client-mrtr.js";
import { ModernClientPolicy } from "./client-policy.js";
import { CACHEABLE_METHODS, readResult, resultReady } from "./client-result.js";
import { TASKS_EXTENSION, hasExtension, headerParams, MetaKey, type HeaderParam } from "./wire.js";

/** Send options of a request without options (the session only reads them). */
const SKIP_VALIDATION: RequestOptions = Object.freeze({ skipValidation: true });

/** The caller's options as the session gets them: results are validated here, by resultType. */
function sendOptionsOf(options: RequestOptions | undefined): RequestOptions {
  if (options === undefined) return SKIP_VALIDATION;
  const out = ownCopy(options);
  out.skipValidation = true;
  return out;
}

const SETTLED: Promise<void> = Promise.resolve();

/** A request's first response, handed to the full loop (`run`) when reading it takes more than one step. */
type Outcome = { readonly ok: true; readonly result: Result } | { readonly ok: false; readonly error: unknown };

/**
 * Reads the first response of a request as it arrives (see ResponseReader): a complete result is
 * checked and mapped in the same step, so the common call costs one promise and no async frame;
 * a task, an input round or a retry continues in `run`, exactly as if `run` had sent the request.
 */
class FirstResponse<T> implements ResponseReader<T> {
  constructor(
    private readonly client: ModernClientSession,
    private readonly method: string,
    private readonly params: Params | undefined,
    private readonly options: RequestOptions | undefined,
    private readonly map: ((result: Result) => T) | undefined,
  ) {}

  ok(raw: Result): T | Promise<T> {
    const client = this.client;
    const method = this.method;
    // The result validator may have to load first (the method's first call, or a revision
    // changed since the request went out): `run` waits for it.
    if (
      !(method === "tools/call" && raw.resultType === "task" && client.waitsForTasks) &&
      resultReady(method, client.binding, client.trusted) === undefined &&
      readResult(method, raw, client.binding, client.trusted) === undefined
    ) {
      if (method === "tools/list") client.toolsView(raw);
      return this.map === undefined ? (raw as T) : this.map(raw);
    }
    return this.more({ ok: true, result: raw });
  }

  fail(error: unknown): T | Promise<T> {
    if (!this.client.retries(this.method, error)) throw error;
    return this.more({ ok: false, error });
  }

  /** The rest in `run`, started after this dispatch (it may call handlers and send requests). */
  private more(first: Outcome): Promise<T> {
    const rest = SETTLED.then(() => this.client.run(this.method, this.params, this.options, false, first));
    return this.map === undefined ? (rest as Promise<T>) : rest.then(this.map);
  }
}

/** Rounds of input a request may go through before the client gives up (the server may re-prompt). */
export const DEFAULT_MAX_INPUT_ROUNDS = 16;

export interface ModernClientOptions {
  transport: Transport;
  /** The revisions this side speaks; the modern ones (2026-07-28) are used. */
  bindings: readonly ProtocolBinding[];
  clientInfo: Implementation;
  capabilities?: Capabilities;
  /** Input-request handlers by method (`sampling/createMessage`, `elicitation/create`, `roots/list`). */
  handlers?: RequestHandlers;
  notificationHandlers?: NotificationHandlers;
  /** Ask for this revision instead of the newest modern one given. */
  protocolVersion?: string;
  /** Default per-request timeout in ms (60 000); each round of a multi round-trip request has its own. */
  timeout?: number;
  trustPeer?: boolean;
  onerror?: (error: Error) => void;
  /** Bound on input-required rounds per request (default 16). */
  maxInputRounds?: number;
  /** Reuse cacheable results while their ttlMs lasts (default true). */
  cache?: boolean;
  /** Sent as `_meta` logLevel on every request until changed with `setLoggingLevel`. */
  logLevel?: LoggingLevel;
}

/** The `server/discover` result (2026-07-28); capabilities stay an open record the policy reads. */
export type DiscoverResult = Omit<Modern.DiscoverResult, "capabilities"> & { capabilities: Capabilities } & Result;

export function modernBindings(bindings: readonly ProtocolBinding[]): ProtocolBinding[] {
  return bindings
    .filter((b) => b.era === "modern")
    .sort((a, b) => (a.revision < b.revision ? 1 : a.revision > b.revision ? -1 : 0));
}

/** The server speaks no 2026-era revision of ours; `serverVersions` is what it listed. */
export class NoCommonModernVersionError extends ProtocolVersionError {
  constructor(
    requested: string,
    readonly serverVersions: readonly string[],
    ours: readonly string[],
    detail: string,
  ) {
    super(requested, serverVersions.join(", ") || undefined, ours, detail);
  }
}

function isError(e: unknown, code: number): e is McpError {
  return e instanceof McpError && e.code === code;
}

/** The newest of our modern bindings that the server lists (from a -32022's `data.supported`). */
export function pickSupported(ours: readonly ProtocolBinding[], theirs: unknown): ProtocolBinding | undefined {
  if (!Array.isArray(theirs)) return undefined;
  return ours.find((b) => theirs.includes(b.revision));
}

/** The session and rules of a modern client before `server/discover` has been answered. */
export interface ModernCore {
  readonly session: Session;
  readonly policy: ModernClientPolicy;
  readonly bindings: readonly ProtocolBinding[];
}

export function createModernCore(
  options: ModernClientOptions,
  modern: readonly ProtocolBinding[],
  first: ProtocolBinding,
): ModernCore {
  // oxlint-disable-next-line prefer-const -- the policy's callbacks read it; assigned once the session that takes the policy exists
  let session!: Session;
  const policy = new ModernClientPolicy(
    () => session.binding,
    (e) => session.onerror?.(e),
  );
  session = new Session({
    transport: options.transport,
    side: "client",
    binding: first,
    policy,
    timeout: options.timeout,
    trustPeer: options.trustPeer,
    onerror: options.onerror,
  });
  const nh = options.notificationHandlers;
  if (nh) for (const m of Object.keys(nh)) session.setNotificationHandler(m, nh[m]!);
  return { session, policy, bindings: modern };
}

export class ModernClientSession {
  readonly era = "modern" as const;
  onclose?: () => void;
  readonly serverCapabilities: Capabilities;
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  /** What `server/discover` listed. */
  readonly supportedVersions: readonly string[];
  readonly capabilities: Capabilities;
  private version: ProtocolBinding;
  private level: LoggingLevel | undefined;
  /** The `_meta` of a request that brings none of its own, shared (frozen) until the version or level changes. */
  private metaShared: SharedMeta | undefined;
  private readonly session: Session;
  private readonly policy: ModernClientPolicy;
  private readonly bindings: readonly ProtocolBinding[];
  private readonly clientInfo: Implementation;
  private readonly handlers: Map<string, RequestHandler<any, any>>;
  private readonly maxRounds: number;
  private readonly trust: boolean;
  private readonly cache: ResultCache | undefined;
  private readonly transport: Transport;
  private readonly report: (e: Error) => void;
  private readonly headers = new Map<string, readonly HeaderParam[]>();
  /** Bounds on task polling (set by the client facade from its options). */
  taskPoll: PollOptions | undefined;

  /** @internal use connectModernClient or the dual-era connect */
  constructor(core: ModernCore, options: ModernClientOptions, binding: ProtocolBinding, discovered: DiscoverResult) {
    this.session = core.session;
    this.policy = core.policy;
    this.bindings = core.bindings;
    this.version = binding;
    this.transport = options.transport;
    this.clientInfo = options.clientInfo;
    this.capabilities = options.capabilities ?? {};
    this.handlers = new Map(Object.entries(options.handlers ?? {}));
    this.maxRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    this.trust = options.trustPeer === true;
    this.level = options.logLevel;
    this.report = (e) => options.onerror?.(e);
    this.cache = options.cache === false ? undefined : new ResultCache();
    this.policy.cache = this.cache;
    this.policy.peer = discovered.capabilities ?? {};
    this.serverCapabilities = discovered.capabilities ?? {};
    this.supportedVersions = discovered.supportedVersions;
    this.instructions = typeof discovered.instructions === "string" ? discovered.instructions : undefined;
    const meta = discovered._meta as Record<string, unknown> | undefined;
    const info = meta?.[MetaKey.serverInfo] ?? discovered.serverInfo;
    this.serverInfo = (typeof info === "object" && info !== null ? info : { name: "", version: "" }) as Implementation;
    this.session.setBinding(binding);
    this.transport.hints?.setProtocolVersion?.(binding.revision);
    this.session.onclose = () => {
      for (const sub of this.policy.subscriptions.values()) sub.finish(undefined);
      this.policy.subscriptions.clear();
      this.onclose?.();
    };
  }

  get protocolVersion(): string {
    return this.version.revision;
  }

  get binding(): ProtocolBinding {
    return this.version;
  }

  get closed(): boolean {
    return this.session.closed;
  }

  /** Requests sent and not yet answered (input rounds included). */
  get pendingCount(): number {
    return this.session.pendingCount;
  }

  /** The log level sent with every request (undefined: the server must not send log messages). */
  get logLevel(): LoggingLevel | undefined {
    return this.level;
  }

  setLoggingLevel(level: LoggingLevel | undefined): void {
    this.level = level;
    this.metaShared = undefined;
  }

  /** The `_meta` every request of this client carries, merged over the caller's own `_meta`. */
  /** `fresh`: `params` is a new object the caller made for this request, completed in place instead of copied. */
  private params(
    params: Params | undefined,
    extra?: { inputResponses?: Record<string, Result>; requestState?: string },
    fresh = false,
  ): Params {
    const own = params?._meta as Params | undefined;
    // Most requests bring no `_meta`: theirs is one shared object, frozen so that no receiver in
    // the same process (the memory transport passes objects by reference) can change the next one.
    const meta = own === undefined ? this.sharedMeta().value : this.meta(own);
    const out: Params = fresh && params !== undefined ? params : ownCopy(params);
    out._meta = meta;
    if (extra !== undefined) {
      if (extra.inputResponses !== undefined) out.inputResponses = extra.inputResponses;
      if (extra.requestState !== undefined) out.requestState = extra.requestState;
    }
    return out;
  }

  private sharedMeta(): SharedMeta {
    return (this.metaShared ??= sharedMeta(this.meta(undefined)));
  }

  private meta(own: Params | undefined): Params {
    // Literal keys (checked against MetaKey) and ownCopy, not spreads: this runs for every request.
    const meta: Params = ownCopy(own);
    meta["io.modelcontextprotocol/protocolVersion" satisfies typeof MetaKey.protocolVersion] = this.version.revision;
    meta["io.modelcontextprotocol/clientCapabilities" satisfies typeof MetaKey.clientCapabilities] = this.capabilities;
    meta["io.modelcontextprotocol/clientInfo" satisfies typeof MetaKey.clientInfo] = this.clientInfo;
    if (this.level !== undefined)
      meta["io.modelcontextprotocol/logLevel" satisfies typeof MetaKey.logLevel] = this.level;
    return meta;
  }

  /**
   * One request, whatever number of round trips it takes: answers input-required results through
   * the handlers (all responses built before the retry), retries once with a version the server
   * lists after -32022, and once with fresh tool headers after -32020 on tools/call.
   */
  request<R extends Result = Result>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.requestAs<R>(method, params, options, undefined);
  }

  /**
   * @internal `request` whose complete result `map` turns into the value the promise settles
   * with, in the step that reads the response (the typed client's tool calls).
   */
  requestAs<T>(
    method: string,
    params: Params | undefined,
    options: RequestOptions | undefined,
    map: ((result: Result) => T) | undefined,
    fresh = false,
  ): Promise<T> {
    // Cacheable requests take the full loop (so does a first response whose validator has yet to load).
    if (this.cache !== undefined && CACHEABLE_METHODS.has(method)) {
      const full = this.run(method, params, options, false, undefined);
      return map === undefined ? (full as Promise<T>) : full.then(map);
    }
    const reader = new FirstResponse(this, method, params, options, map);
    // The shared `_meta` is added by the session, as text where the transport takes text.
    if (params?._meta === undefined) {
      const out = fresh && params !== undefined ? params : ownCopy(params);
      return this.session.requestWith(method, out, sendOptionsOf(options), reader, this.sharedMeta());
    }
    return this.session.requestWith(method, this.params(params, undefined, fresh), sendOptionsOf(options), reader);
  }

  /** @internal Whether tools/call results of resultType "task" are waited for (the tasks extension is declared). */
  get waitsForTasks(): boolean {
    return hasExtension(this.capabilities, TASKS_EXTENSION);
  }

  /** @internal Whether results are taken without schema validation (trustPeer). */
  get trusted(): boolean {
    return this.trust;
  }

  /** @internal Whether `run` answers this failure of a first attempt with a retry. */
  retries(method: string, e: unknown): boolean {
    return (
      isError(e, ErrorCode.UnsupportedProtocolVersion) ||
      (isError(e, ErrorCode.HeaderMismatch) &&
        method === "tools/call" &&
        this.transport.hints?.setToolHeaders !== undefined)
    );
  }

  /**
   * `tools/call` that stops at a CreateTaskResult (`resultType: "task"`, returned as is) instead of
   * waiting for the task; a call the server answered at once resolves to its complete result.
   */
  startToolTask(params: Params, options?: RequestOptions): Promise<Result> {
    return this.run("tools/call", params, options, true, undefined);
  }

  /** One raw `tasks/get` / `tasks/cancel` (the result is read by the caller). */
  taskRequest(method: "tasks/get" | "tasks/cancel", taskId: string, options?: RequestOptions): Promise<Result> {
    return this.session.request(method, this.params({ taskId }), {
      skipValidation: true,
      signal: options?.signal,
      timeout: options?.timeout,
    });
  }

  /** Wait for the task a CreateTaskResult (or `{ taskId }`) names; see client-tasks.ts. */
  waitForTask(created: Result, options?: RequestOptions): Promise<Result> {
    const raw = this.awaitTask(created, options).then((r) => ({ ...r, resultType: "complete" }));
    return raw.then(async (r) => {
      await resultReady("tools/call", this.version, this.trust);
      if (readResult("tools/call", r, this.version, this.trust) !== undefined)
        throw new InvalidResultError(
          "tasks/get",
          [
            {
              instancePath: "/result/resultType",
              schemaPath: "",
              keyword: "enum",
              params: {},
              message: "a task's result must be complete",
            },
          ],
          r,
        );
      return r;
    });
  }

  /**
   * @internal Every round of one request: the cache, retries, tasks and input rounds. `first` is
   * the outcome of a first attempt FirstResponse already sent (then nothing is looked up in the
   * cache: that request was not cacheable).
   */
  async run<R extends Result = Result>(
    method: string,
    params: Params | undefined,
    options: RequestOptions | undefined,
    keepTask: boolean,
    first: Outcome | undefined,
  ): Promise<R> {
    const key = first === undefined ? this.cache?.key(method, params) : undefined;
    if (key !== undefined) {
      const hit = this.cache!.get(key);
      if (hit !== undefined) return hit as R;
    }
    const sendOptions = sendOptionsOf(options);
    let versionRetried = false;
    let headersRetried = false;
    let extra: { inputResponses?: Record<string, Result>; requestState?: string } | undefined;
    for (let round = 0; ;) {
      let raw: Result;
      try {
        if (first !== undefined) {
          const outcome = first;
          first = undefined;
          if (!outcome.ok) throw outcome.error;
          raw = outcome.result;
        } else {
          raw = await this.session.request(method, this.params(params, extra), sendOptions);
        }
      } catch (e) {
        if (isError(e, ErrorCode.UnsupportedProtocolVersion) && !versionRetried) {
          versionRetried = true;
          const next = pickSupported(this.bindings, (e.data as { supported?: unknown } | undefined)?.supported);
          if (next === undefined)
            throw new ProtocolVersionError(
              this.version.revision,
              undefined,
              this.bindings.map((b) => b.revision),
              `server refused: ${e.message}`,
            );
          this.useBinding(next);
          continue;
        }
        if (
          isError(e, ErrorCode.HeaderMismatch) &&
          method === "tools/call" &&
          !headersRetried &&
          this.transport.hints?.setToolHeaders !== undefined
        ) {
          // The tool's x-mcp-header annotations may have changed: learn them again, then retry once.
          headersRetried = true;
          await this.refreshTools(options);
          continue;
        }
        throw e;
      }
      if (method === "tools/call" && raw.resultType === "task" && hasExtension(this.capabilities, TASKS_EXTENSION)) {
        if (keepTask) return raw as R;
        // A client that declared the tasks extension waits for the task's result here.
        raw = { ...(await this.awaitTask(raw, options)), resultType: "complete" };
      }
      const ready = resultReady(method, this.version, this.trust);
      if (ready !== undefined) await ready;
      const input = readResult(method, raw, this.version, this.trust);
      if (input === undefined) {
        if (method === "tools/list") this.toolsView(raw);
        if (key !== undefined && extra === undefined) this.cache!.put(key, method, params, raw);
        return raw as R;
      }
      if (++round > this.maxRounds) throw new InputRoundsExceededError(method, this.maxRounds);
      extra = {};
      if (input.inputRequests.size > 0)
        extra.inputResponses = await answerInputRequests(input, this.handlers, options?.signal);
      if (input.requestState !== undefined) extra.requestState = input.requestState;
    }
  }

  private awaitTask(created: Result, options: RequestOptions | undefined): Promise<Result> {
    const send = (method: string, params: Params) =>
      this.session.request(method, this.params(params), {
        skipValidation: true,
        signal: options?.signal,
        timeout: options?.timeout,
      });
    return awaitTask(created, {
      get: (taskId) => send("tasks/get", { taskId }),
      update: (taskId, inputResponses) => send("tasks/update", { taskId, inputResponses }),
      cancel: (taskId) => this.session.request("tasks/cancel", this.params({ taskId }), { skipValidation: true }),
      answer: (input) => answerInputRequests(input, this.handlers, options?.signal),
      signal: options?.signal,
      poll: this.taskPoll,
    });
  }

  private useBinding(b: ProtocolBinding): void {
    this.version = b;
    this.metaShared = undefined;
    this.session.setBinding(b);
    this.transport.hints?.setProtocolVersion?.(b.revision);
  }

  /** Every page of tools/list, fetched past the cache, to relearn header annotations. */
  private async refreshTools(options: RequestOptions | undefined): Promise<void> {
    this.cache?.dropMethod("tools/list");
    let cursor: unknown;
    for (let pages = 0; pages < 1000; pages++) {
      const r = await this.request("tools/list", cursor === undefined ? {} : { cursor }, {
        signal: options?.signal,
        timeout: options?.timeout,
      });
      cursor = r.nextCursor;
      if (typeof cursor !== "string") return;
    }
  }

  /**
   * Tools whose `x-mcp-header` annotations are invalid leave the client's view (with a warning);
   * the valid annotations go to the transport, which mirrors them into Mcp-Param-* headers.
   */
  /** @internal */
  toolsView(result: Result): void {
    const tools = result.tools;
    if (!Array.isArray(tools)) return;
    const kept: unknown[] = [];
    for (const tool of tools) {
      const name = (tool as { name?: unknown })?.name;
      const found = headerParams((tool as { inputSchema?: unknown })?.inputSchema);
      if ("problem" in found) {
        this.report(new Error(`tool ${JSON.stringify(name)} left out of the tools list: ${found.problem}`));
        continue;
      }
      if (typeof name === "string") {
        const params = found.params.length > 0 ? found.params : undefined;
        if (params === undefined) this.headers.delete(name);
        else this.headers.set(name, params);
        this.transport.hints?.setToolHeaders?.(name, params);
      }
      kept.push(tool);
    }
    result.tools = kept;
  }

  /** The header annotations learned for a tool (for inspection and tests). */
  toolHeaders(name: string): readonly HeaderParam[] | undefined {
    return this.headers.get(name);
  }

  /**
   * Open a `subscriptions/listen` stream. Resolves once the request is sent; the subscription's
   * `acknowledged` tells what the server agreed to, `close()` ends it.
   */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Subscription {
    const controller = new AbortController();
    const id: RequestId = this.session.nextRequestId;
    const sub = new Subscription(id, filter, options, controller, this.report);
    this.policy.subscriptions.set(id, sub);
    this.session
      .request("subscriptions/listen", this.params({ notifications: filter }), {
        signal: controller.signal,
        timeout: 0,
        skipValidation: true,
      })
      .then(
        async (r) => {
          try {
            await resultReady("subscriptions/listen", this.version, this.trust);
            readResult("subscriptions/listen", r, this.version, this.trust);
            this.end(sub, undefined);
          } catch (e) {
            this.end(sub, e);
          }
        },
        (e) => this.end(sub, e),
      );
    return sub;
  }

  private end(sub: Subscription, error: unknown): void {
    if (this.policy.subscriptions.get(sub.id) === sub) this.policy.subscriptions.delete(sub.id);
    sub.finish(error);
  }

  /** Live subscriptions. */
  get subscriptionCount(): number {
    return this.policy.subscriptions.size;
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.session.notify(method, params);
  }

  setRequestHandler<P = Params | undefined, R = Result>(method: string, handler: RequestHandler<P, R>): void {
    this.handlers.set(method, handler as RequestHandler<any, any>);
  }

  setNotificationHandler<P = Params | undefined>(method: string, handler: NotificationHandler<P>): void {
    this.session.setNotificationHandler(method, handler);
  }

  /** Forget every cached result. */
  clearCache(): void {
    this.cache?.clear();
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

/**
 * `server/discover` with the preferred version; after -32022 once more with the newest version the
 * server lists that we speak. Resolves to the binding to use and the discover result.
 */
export async function discover(
  core: ModernCore,
  options: ModernClientOptions,
  first: ProtocolBinding,
  requestOptions?: RequestOptions,
): Promise<{ binding: ProtocolBinding; result: DiscoverResult }> {
  const { session, bindings } = core;
  let binding = first;
  const meta = (b: ProtocolBinding): Params => ({
    _meta: {
      [MetaKey.protocolVersion]: b.revision,
      [MetaKey.clientCapabilities]: options.capabilities ?? {},
      [MetaKey.clientInfo]: options.clientInfo,
    },
  });
  let raw: Result;
  try {
    raw = await session.request("server/discover", meta(binding), { ...requestOptions, skipValidation: true });
  } catch (e) {
    if (!isError(e, ErrorCode.UnsupportedProtocolVersion)) throw e;
    const theirs = (e.data as { supported?: unknown } | undefined)?.supported;
    const next = pickSupported(bindings, theirs);
    if (next === undefined) {
      const listed = Array.isArray(theirs) ? theirs.filter((v): v is string => typeof v === "string") : [];
      throw new NoCommonModernVersionError(
        binding.revision,
        listed,
        bindings.map((b) => b.revision),
        `server refused: ${e.message}`,
      );
    }
    binding = next;
    session.setBinding(binding);
    options.transport.hints?.setProtocolVersion?.(binding.revision);
    raw = await session.request("server/discover", meta(binding), { ...requestOptions, skipValidation: true });
  }
  await resultReady("server/discover", binding, options.trustPeer === true);
  if (readResult("server/discover", raw, binding, options.trustPeer === true) !== undefined)
    throw new InvalidResultError("server/discover", [], raw);
  const result = raw as unknown as DiscoverResult;
  if (!Array.isArray(result.supportedVersions)) {
    throw new InvalidResultError(
      "server/discover",
      [
        {
          instancePath: "/supportedVersions",
          schemaPath: "",
          keyword: "type",
          params: {},
          message: "must be an array",
        },
      ],
      result,
    );
  }
  if (!result.supportedVersions.includes(binding.revision)) {
    const other = pickSupported(bindings, result.supportedVersions);
    if (other === undefined) {
      throw new NoCommonModernVersionError(
        binding.revision,
        result.supportedVersions.filter((v) => typeof v === "string"),
        bindings.map((b) => b.revision),
        "no common 2026-era revision",
      );
    }
    binding = other;
  }
  return { binding, result };
}

/** Connect in the 2026-07-28 era only (no fallback): start the transport and run `server/discover`. */
export async function connectModernClient(options: ModernClientOptions): Promise<ModernClientSession> {
  // No fallback here: only the 2026-era tables load (validators per method).
  const modern = modernBindings(options.bindings);
  if (modern.length === 0)
    throw new TypeError(
      `connectModernClient: no 2026-era protocol binding given (bindings: ${options.bindings.map((b) => b.revision).join(", ") || "none"})`,
    );
  let first = modern[0]!;
  if (options.protocolVersion !== undefined) {
    const b = modern.find((x) => x.revision === options.protocolVersion);
    if (!b)
      throw new TypeError(
        `connectModernClient: protocolVersion ${options.protocolVersion} is not among the given modern bindings (${modern.map((x) => x.revision).join(", ")})`,
      );
    first = b;
  }
  await loadTables(modern);
  const core = createModernCore(options, modern, first);
  await options.transport.start();
  try {
    const { binding, result } = await discover(core, options, first);
    return new ModernClientSession(core, options, binding, result);
  } catch (e) {
    await core.session.close();
    throw e;
  }
}
