/**
 * One generated "everything" server per connection. Each HTTP session gets its own instance so
 * its handlers can reach that session's transport (test_reconnection closes its own SSE stream).
 */
import type { ServerSession, Transport } from "@mcpgen/runtime";
import { binding as b20241105 } from "../../../generated/2024-11-05/index.js";
import { binding as b20250326 } from "../../../generated/2025-03-26/index.js";
import { binding as b20250618 } from "../../../generated/2025-06-18/index.js";
import { binding as b20251125 } from "../../../generated/2025-11-25/index.js";
import { createEverythingServer } from "./mcp/server.js";
import { createHandlers } from "./handlers.js";

export const bindings = [b20251125, b20250618, b20250326, b20241105];

export interface ServeOptions {
  /** Server bugs and session problems (default: one line on stderr). */
  onerror?: (error: Error) => void;
}

/** Serve one connection (a stdio pipe, an in-memory pair, or one Streamable HTTP session). */
export function serveSession(transport: Transport, options: ServeOptions = {}): Promise<ServerSession> {
  const handlers = createHandlers({ closeStream: transport.closeStream?.bind(transport) });
  const server = createEverythingServer(handlers, {
    bindings,
    ...(options.onerror ? { onerror: options.onerror } : {}),
  });
  return server.connect(transport);
}
