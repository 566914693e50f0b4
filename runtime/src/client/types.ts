/** Options and results of the client facades. */
import type { ProtocolBinding } from "../abi.js";
import type { Capabilities, Implementation } from "../lifecycle/common/types.js";
import type { RequestContext, RequestOptions } from "../session/types.js";
import type { EraCache } from "../lifecycle/modern/client-probe.js";
import type { TaskStore } from "../tasks/store.js";
import type {
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitUrlParams,
  LoggingLevel,
  Meta,
  Root,
} from "../mcp-types.js";
import type * as Wire from "../wire/legacy.js";

/** What the client offers the server; each one declares the capability it implies. */
export interface ClientHandlers {
  /** `sampling/createMessage` -> declares `sampling` (plus `sampling.tools` with `samplingTools`). */
  sampling?: (params: CreateMessageParams, ctx: RequestContext) => CreateMessageResult | Promise<CreateMessageResult>;
  /** `elicitation/create` in form mode -> declares `elicitation` (form). */
  elicitation?: (params: ElicitFormParams, ctx: RequestContext) => ClientElicitResult | Promise<ClientElicitResult>;
  /** `elicitation/create` in URL mode (2025-11-25) -> declares `elicitation.url`. */
  elicitationUrl?: (params: ElicitUrlParams, ctx: RequestContext) => ClientElicitResult | Promise<ClientElicitResult>;
  /** `roots/list` -> declares `roots` (with `listChanged`: call `client.notifyRootsListChanged()`). */
  roots?: (ctx: RequestContext) => Root[] | Promise<Root[]>;
}

/** What an elicitation handler answers (newest legacy revision's `ElicitResult`, open to newer fields). */
export type ClientElicitResult = Wire.ElicitResult & { [key: string]: unknown };

export interface McpClientOptions {
  /**
   * Protocol bindings (`binding` of each generated `protocol/<rev>/index.ts`); legacy ones are
   * used. Required by the generic client; a generated client defaults to its definition's.
   */
  bindings?: readonly ProtocolBinding[];
  clientInfo: Implementation;
  /** Extra capabilities (those the handlers imply are added). */
  capabilities?: Capabilities;
  handlers?: ClientHandlers;
  /** Declare `sampling.tools` (the sampling handler accepts `tools` / `toolChoice`). */
  samplingTools?: boolean;
  /** Declare `roots.listChanged`. */
  rootsListChanged?: boolean;
  protocolVersion?: string;
  timeout?: number;
  trustPeer?: boolean;
  /**
   * list*() fail whole on one malformed entry (default false: the entry is kept as sent, or
   * dropped when it lacks its name (a resource its uri, a template its uriTemplate), and reported
   * through `onerror` as an InvalidListEntryError, also kept in `client.listProblems`).
   */
  strictLists?: boolean;
  onerror?: (error: Error) => void;
  /**
   * Which lifecycle to speak. `auto` (default) probes when the bindings include 2026-07-28 and a
   * legacy revision, stays modern when the server can, and falls back to `initialize` otherwise.
   */
  era?: "auto" | "modern" | "legacy";
  /** Bound on the era probe in ms (default 10 000). */
  probeTimeout?: number;
  /** Where the probe's outcome is remembered per server (default: one process-wide cache); false: never. */
  eraCache?: EraCache | false;
  /** 2026-07-28: bound on input-required rounds per request (default 16). */
  maxInputRounds?: number;
  /** 2026-07-28: reuse cacheable results while their ttlMs lasts (default true). */
  cache?: boolean;
  /** 2026-07-28: `_meta` logLevel sent with every request (absent: the server sends no log messages). */
  logLevel?: LoggingLevel;
  /**
   * Tasks (docs/server-client.md, "Tasks for client users"). `true` declares them: 2025-11-25
   * `capabilities.tasks` (task-augmented tools/call; sampling / elicitation run as tasks when the
   * server asks, kept in `store`), 2026-07-28 the `io.modelcontextprotocol/tasks` extension.
   */
  tasks?: boolean | { store?: TaskStore };
  /** Bounds on task polling in ms, whatever `pollInterval` the server suggests (default 20 .. 30 000). */
  pollIntervalMs?: { min?: number; max?: number };
}

/** Per-call options of generated stubs. */
export type CallOptions = Pick<
  RequestOptions,
  "signal" | "timeout" | "onprogress" | "resetTimeoutOnProgress" | "maxTotalTimeout"
>;

/** A tool call's outcome: the typed structured output unless the tool reported an error. */
export type ToolCallResult<O> =
  | { readonly isError: false; readonly structured: O; readonly content: ContentBlock[]; readonly _meta?: Meta }
  | { readonly isError: true; readonly structured: undefined; readonly content: ContentBlock[]; readonly _meta?: Meta };
/** A call of a tool without outputSchema: content blocks (and `structuredContent` if the server sent one). */
export interface ContentCallResult {
  readonly isError: boolean;
  readonly structured: { [key: string]: unknown } | undefined;
  readonly content: ContentBlock[];
  readonly _meta?: Meta;
}

/** Already-resolved arguments passed as completion context. */
export type CompletionArguments = { readonly [name: string]: string };
