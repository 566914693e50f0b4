/**
 * `@mcpgen/runtime`: what a user's own code names next to the generated server and client. The
 * facades (`createMcpServer`, `createMcpClient`, `connectMcpClient`, `McpServer`, `McpClient`),
 * their option and result types, the errors they throw, the in-memory transport, task stores and
 * handles, and the MCP wire types. Every name here is listed in docs/runtime-entries.md, and a
 * test holds the two equal: a new root export is a deliberate act.
 *
 * Elsewhere: the stdio and HTTP transports behind `@mcpgen/runtime/stdio` and `/http` (a server
 * loads only the transport it uses), OAuth behind `/auth`, the durable task store behind
 * `/tasks/sqlite`; what generated code links behind the versioned `/abi/v8`; sessions, era
 * machinery and wire helpers behind `/internal` (no compatibility promise).
 */
export type * from "./jsonrpc.js";
export { ErrorCode } from "./jsonrpc.js";
export type * from "./transport.js";
export type { ProtocolBinding, Validator, ValidationIssue, Era, Side } from "./abi.js";

export {
  McpError,
  ConnectionClosedError,
  RequestTimeoutError,
  InvalidResultError,
  CapabilityError,
  LifecycleError,
  ProtocolVersionError,
  UnreadableResponseError,
  LimitError,
  PeerRequestError,
  InvalidListEntryError,
} from "./errors.js";
export { FrameError } from "./framing/frame-error.js";
export * as limits from "./limits.js";

export type { Params, Result, Progress, ProgressOptions, RequestOptions } from "./session/types.js";
export type { Implementation, Capabilities } from "./lifecycle/common/types.js";
// The sessions' classes are internal; their types are what connections and clients expose.
export type { ClientSession } from "./lifecycle/legacy/client.js";
export type { ServerSession } from "./lifecycle/legacy/server.js";
export type { ModernServerSession } from "./lifecycle/modern/server.js";
export type { ModernClientSession } from "./lifecycle/modern/client-session.js";
export type { AnyClientSession, ClientEra } from "./lifecycle/modern/client-probe.js";

export { createMemoryTransportPair, MemoryTransport } from "./transports/memory.js";

export type * from "./mcp-types.js";
export { loggingLevels } from "./mcp-types.js";
export { compileUriTemplate, type UriTemplate, type TemplateValue, type TemplateVariables } from "./uri-template.js";

export { McpServer, type ConnectOptions, type ServerConnection } from "./server/server.js";
import type { McpServer } from "./server/server.js";
import { createMcpServer as createServer } from "./server/create-server.js";
import type { McpDefinition, McpServerHandlers, McpServerOptions } from "./server/types.js";
import type { ServerLegacyEra } from "./server/legacy-era.js";
import { legacyEra } from "./abi/v8.js";

/**
 * A server for a generated definition (`server.connect(transport)` per connection), able to serve
 * every revision it is given: this entry evaluates the whole runtime anyway, so it hands the
 * server the legacy era itself. The generated server links `@mcpgen/runtime/abi/v8`'s, which
 * takes the legacy era only from a server whose manifest lists a legacy revision.
 */
export function createMcpServer(
  definition: McpDefinition,
  handlers: McpServerHandlers,
  options: McpServerOptions,
  legacy: ServerLegacyEra = legacyEra,
): McpServer {
  return createServer(definition, handlers, options, legacy);
}
export type { InputRequiredResult, InputRequest } from "./lifecycle/modern/mrtr.js";
export { toolResult, toolError } from "./server/results.js";
export { InvalidToolOutputError } from "./server/tools.js";
export type {
  McpDefinition,
  ToolValidators,
  MemberTables,
  PublishedLists,
  McpServerHandlers,
  McpServerOptions,
  HandlerContext,
  CompletionContext,
  ClientRequests,
  ClientRequestOptions,
  CacheSettings,
  CacheDefinition,
  ToolReturn,
  ToolResult,
  ToolError,
  ContentReturn,
  PromptReturn,
  ResourceReturn,
  CompletionReturn,
  Completer,
  ToolHandler,
  PromptHandler,
  ResourceHandler,
  TemplateHandler,
} from "./server/types.js";

export { McpClient, connectMcpClient, type ToolCallOptions } from "./client/client.js";
// The facades' createMcpClient: the client side's own would name how it loads the MCP Apps reader.
export { createMcpClient } from "./facades.js";
export { DefinedMcpClient, ToolOutputError, type McpClientBase, type TaskTool } from "./client/manifest-client.js";
export type { TaskRequest } from "./client/tasks.js";
export type {
  CompletionArguments,
  ClientHandlers,
  ClientElicitResult,
  McpClientOptions,
  CallOptions,
  ToolCallResult,
  ContentCallResult,
} from "./client/types.js";
export { NoCommonModernVersionError, type DiscoverResult } from "./lifecycle/modern/client-session.js";
export { Subscription, SubscriptionAckError, type ListenOptions } from "./lifecycle/modern/client-listen.js";
export { InputRoundsExceededError } from "./lifecycle/modern/client-mrtr.js";

export { TaskCancelledError } from "./lifecycle/modern/client-tasks.js";
export { taskHandle, type TaskHandle, type TaskBackend, type TaskWaitOptions } from "./tasks/handle.js";
// The seams shared state plugs into (one process by default; @mcpgen/runtime/redis for many).
export { MemoryNonceClaims, type NonceClaims, type RequestStateOptions } from "./lifecycle/modern/request-state.js";
export type { ChangeBus, Change, ChangeList, ChangeTarget } from "./server/change-bus.js";
export {
  MemoryTaskStore,
  TaskLimitError,
  TERMINAL,
  grantTtl,
  newTaskId,
  type TaskStore,
  type TaskRecord,
  type TaskStatus,
  type TaskChange,
  type MemoryTaskStoreOptions,
} from "./tasks/store.js";
