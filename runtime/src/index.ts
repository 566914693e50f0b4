/**
 * @mcpgen/runtime: what mcpgen-generated MCP bindings link against.
 *
 * Layers: transport (one small interface; in-memory pair here, stdio/HTTP in their modules) ->
 * Session (correlation, era-agnostic) -> lifecycle (legacy era: `connectClient`,
 * `createServerSession`) -> generated facades. For example:
 *
 *   const [ct, st] = createMemoryTransportPair();
 *   await createServerSession({ transport: st, bindings, serverInfo, capabilities: { tools: {} },
 *     handlers: { "tools/call": (params, ctx) => ({ content: [] }) } });
 *   const client = await connectClient({ transport: ct, bindings, clientInfo });
 *   await client.request("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, { timeout: 5_000 });
 */
export type * from "./jsonrpc.js";
export { ErrorCode } from "./jsonrpc.js";
export type * from "./transport.js";
export type { ProtocolBinding, MethodInfo, MethodTable, Validator, ValidationIssue, Era, Side } from "./abi.js";
export { lazyBinding, lazyRevision, loadBindings, loadTables, type RevisionHead, type RevisionInfo } from "./lazy-binding.js";

export {
  McpError, ConnectionClosedError, RequestTimeoutError, InvalidResultError, CapabilityError, LifecycleError,
  ProtocolVersionError, UnreadableResponseError, LimitError, PeerRequestError, InvalidListEntryError,
} from "./errors.js";
export { FrameError } from "./framing/frame-error.js";
export * as limits from "./limits.js";
export { describe as describeValue } from "./describe.js";

export { Session } from "./session/session.js";
export { RunningBytes, SessionBytes, type RunningBytesLimits, type RunningBytesLimit } from "./session/running-bytes.js";
export type {
  Params, Result, Progress, ProgressOptions, RequestOptions, RequestContext, RequestHandler, NotificationHandler,
  SessionPolicy, SessionOptions,
} from "./session/types.js";

export { connectClient, ClientSession, type InitializeResult } from "./lifecycle/legacy/client.js";
export { createServerSession, ServerSession } from "./lifecycle/legacy/server.js";
export type { ClientOptions, ServerOptions } from "./lifecycle/legacy/types.js";
export type { Implementation, Capabilities, RequestHandlers, NotificationHandlers } from "./lifecycle/common/types.js";
export { hasCapability } from "./lifecycle/common/capabilities.js";

export { createMemoryTransportPair, MemoryTransport } from "./transports/memory.js";

// The stdio and HTTP transports live behind their own entry points, `@mcpgen/runtime/stdio` and
// `@mcpgen/runtime/http`, so a server loads only the transport it uses.

export type * from "./mcp-types.js";
export { loggingLevels } from "./mcp-types.js";
export { compileUriTemplate, type UriTemplate, type TemplateValue, type TemplateVariables } from "./uri-template.js";

export { createMcpServer, McpServer, type ConnectOptions, type ServerConnection } from "./server/server.js";
export { ModernServerSession, ModernServerCore, type ModernServerOptions } from "./lifecycle/modern/server.js";
export { ModernServerPolicy } from "./lifecycle/modern/policy.js";
export { checkRequestMeta, declaresModern } from "./lifecycle/modern/meta.js";
export { RequestStateCodec, MemoryNonceClaims, paramsDigest, type RequestStateOptions, type NonceClaims } from "./lifecycle/modern/request-state.js";
export type { ChangeBus, Change, ChangeList } from "./server/change-bus.js";
export { ListenHub, honouredFilter, type ListenLimits, type ListenOwner } from "./lifecycle/modern/listen.js";
export type { InputRequiredResult, InputRequest } from "./lifecycle/modern/mrtr.js";
export { toolResult, toolError } from "./server/results.js";
export { InvalidToolOutputError } from "./server/tools.js";
export type {
  McpDefinition, ToolValidators, MemberTables, PublishedLists, McpServerHandlers, McpServerOptions, HandlerContext, CompletionContext,
  ClientRequests, ClientRequestOptions, CacheSettings, CacheDefinition, ToolReturn, ToolResult, ToolError, ContentReturn, PromptReturn, ResourceReturn, CompletionReturn, Completer,
  ToolHandler, PromptHandler, ResourceHandler, TemplateHandler,
} from "./server/types.js";

export { McpClient, connectMcpClient, type ToolCallOptions } from "./client/client.js";
export { createMcpClient, DefinedMcpClient, ToolOutputError, type McpClientBase, type TaskTool } from "./client/manifest-client.js";
export type { TaskRequest } from "./client/tasks.js";
export { taskHandle, type TaskHandle, type TaskBackend, type TaskWaitOptions } from "./tasks/handle.js";
export { awaitLegacyTask, statusChanges, RELATED_TASK, type TaskInfo, type LegacyTaskIo, type StatusSource } from "./tasks/legacy-client.js";
export { LegacyTaskReceiver, type TaskReceiverOptions } from "./tasks/legacy-receiver.js";
export type { CompletionArguments, ClientHandlers, ClientElicitResult, McpClientOptions, CallOptions, ToolCallResult, ContentCallResult } from "./client/types.js";

export {
  connectModernClient, ModernClientSession, NoCommonModernVersionError, DEFAULT_MAX_INPUT_ROUNDS, type ModernClientOptions, type DiscoverResult,
} from "./lifecycle/modern/client-session.js";
export { connectAnyEra, EraCache, defaultEraCache, DEFAULT_PROBE_TIMEOUT_MS, type AnyClientSession, type AnyEraOptions, type ClientEra } from "./lifecycle/modern/client-probe.js";
export { Subscription, SubscriptionAckError, type ListenOptions } from "./lifecycle/modern/client-listen.js";
export { InputRoundsExceededError } from "./lifecycle/modern/client-mrtr.js";
export { ResultCache } from "./lifecycle/modern/client-cache.js";
export {
  MetaKey, Header, nameField, encodeHeaderValue, decodeHeaderValue, headerParams, argumentAt, type SubscriptionFilter, type HeaderParam, type HeaderParamsResult,
} from "./lifecycle/modern/wire.js";

export { MemoryTaskStore, TaskLimitError, TERMINAL, grantTtl, newTaskId, type TaskStore, type TaskRecord, type TaskStatus, type TaskChange, type MemoryTaskStoreOptions } from "./tasks/store.js";
export { TASKS_EXTENSION, declaresTasks, detailed, type TaskSupport, type ModernTasksOptions } from "./tasks/modern.js";
export { ModernTasks } from "./server/modern-tasks.js";
export { awaitTask, pollDelay, TaskCancelledError, type TaskIo, type PollOptions } from "./lifecycle/modern/client-tasks.js";
