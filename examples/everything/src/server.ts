/**
 * One generated "everything" server per connection. Each HTTP session gets its own instance so
 * its handlers can reach that session's transport (test_reconnection closes its own SSE stream).
 */
import type { ServerSession, Transport } from "@mcpgen/runtime";
import { createEverythingServer } from "./mcp/server.js";
import { createHandlers } from "./handlers.js";

export interface ServeOptions {
  /** Server bugs and session problems (default: one line on stderr). */
  onerror?: (error: Error) => void;
}

/** Serve one connection (a stdio pipe, an in-memory pair, or one Streamable HTTP session). */
export function serveSession(transport: Transport, options: ServeOptions = {}): Promise<ServerSession> {
  const handlers = createHandlers({ closeStream: transport.closeStream?.bind(transport) });
  const server = createEverythingServer(handlers, options.onerror ? { onerror: options.onerror } : {});
  return server.connect(transport);
}
