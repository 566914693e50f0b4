/**
 * The generated "everything" server with its handlers: one instance serves every connection
 * (each stdio pipe, in-memory pair or Streamable HTTP session gets its own session state).
 */
import type { ChangeBus, McpServer, RequestStateOptions, TaskStore } from "@mcpgen/runtime";
import { createEverythingServer } from "./mcp/server.js";
import { createHandlers } from "./handlers.js";

export interface ServeOptions {
  /** Server bugs and session problems (default: one line on stderr). */
  onerror?: (error: Error) => void;
  /** Where tasks live (default: in memory, lost on restart). */
  taskStore?: TaskStore;
  /** The bus shared with the other instances behind a load balancer (default: none, one process). */
  bus?: ChangeBus;
  /** `requestState` key and claims shared by every instance (default: a random key, claims in memory). */
  requestState?: RequestStateOptions;
}

export function createServer(options: ServeOptions = {}): McpServer {
  // The trigger tools announce list changes through the server they belong to.
  const changes = { tools: () => server.notifyToolsListChanged(), prompts: () => server.notifyPromptsListChanged() };
  const server = createEverythingServer(createHandlers(changes), {
    ...(options.onerror ? { onerror: options.onerror } : {}),
    ...(options.taskStore ? { tasks: { store: options.taskStore } } : {}),
    ...(options.bus ? { bus: options.bus } : {}),
    ...(options.requestState ? { requestState: options.requestState } : {}),
  });
  return server;
}
