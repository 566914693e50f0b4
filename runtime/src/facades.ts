/**
 * `@mcpgen/runtime/facades`: the server and client facades and the helpers of handler modules
 * (`toolResult`, `toolError`, `McpError`), without the rest of the runtime: the root entry
 * evaluates the whole runtime, client included (about 1.7 MiB of RSS and 5 ms at start). The
 * generated server, client and definition reach these names through the versioned ABI entry
 * (`@mcpgen/runtime/abi/v8` re-exports this module), which the same bundle file serves, so a
 * server's start resolves one runtime file (docs/bundling.md). Keep it small.
 */
export { type McpServer } from "./server/server.js";
export { createMcpServer } from "./server/create-server.js";
export { toolResult, toolError } from "./server/results.js";
export { McpError } from "./errors.js";
export type {
  McpDefinition,
  ToolValidators,
  McpServerHandlers,
  McpServerOptions,
  HandlerContext,
  ToolReturn,
  ContentReturn,
  PromptReturn,
  ResourceReturn,
  Completer,
} from "./server/types.js";
export type { McpClientBase, TaskTool } from "./client/manifest-client.js";
export type { AppView } from "./client/apps.js";
import type { McpDefinition } from "./server/types.js";
import type { McpClientOptions } from "./client/types.js";
import type { Transport } from "./transport.js";
import { loadApps, loadManifestClient } from "#on-first-use";

/**
 * The client side (sessions of both eras, task polling, list caches) loads on the first
 * `createMcpClient`: a generated server imports this entry too and never needs it, and stdio
 * start-up pays for every module it evaluates. Bundlers get it by a static import
 * (`#on-first-use`, runtime/package.json "imports"), which a server's bundle drops unused.
 */
export async function createMcpClient(
  definition: McpDefinition,
  transport: Transport,
  options: McpClientOptions,
): ReturnType<typeof import("./client/manifest-client.js").createMcpClient> {
  return (await loadManifestClient()).createMcpClient(definition, transport, options, loadApps);
}
export type { TaskHandle } from "./tasks/handle.js";
export type {
  CallOptions,
  CompletionArguments,
  McpClientOptions,
  ToolCallResult,
  ContentCallResult,
} from "./client/types.js";
export type { CompleteResult, GetPromptResult, ReadResourceResult } from "./mcp-types.js";
export type { Transport } from "./transport.js";
// Types that values of the facades' API carry (connect() resolves to a ServerSession, list calls
// to MCP wire types), re-exported so a user module that exports such a value compiles under
// `declaration: true` when it imports only the generated code (TS2742/TS2883 otherwise).
export type { ServerSession } from "./lifecycle/legacy/server.js";
export type { ClientSession } from "./lifecycle/legacy/client.js";
export type { ConnectOptions, ServerConnection } from "./server/server.js";
export type { ModernServerSession } from "./lifecycle/modern/server.js";
export type { ModernClientSession } from "./lifecycle/modern/client-session.js";
export type { AnyClientSession } from "./lifecycle/modern/client-probe.js";
export type * from "./mcp-types.js";
