/**
 * `#on-first-use` on Node, Bun and Deno (and any host without a condition of its own), which load
 * the runtime's files as they are: what a program may never need, each imported the first time it
 * is. McpServer's 2026-07-28 side (server/modern-path.ts), so a server whose peers speak the legacy
 * era never evaluates it; the MRTR feature (server/inputs.ts) and the Mcp-Param-* check
 * (server/header-params.ts), with a server's first 2026-07-28 connection; the client side, on the first `createMcpClient`, so a generated server (which
 * imports the facades too) never evaluates it; a client's MCP Apps view reader, on its first `ui()`. Each is a chunk of the Node build (the Mcp-Param-*
 * check rides in the 2026-07-28 path's), and stdio start-up pays for every module it evaluates.
 */
import type * as ModernPath from "../server/modern-path.js";
import type * as ManifestClient from "../client/manifest-client.js";
import type * as Apps from "../client/apps.js";

export const loadModernPath = (): Promise<typeof ModernPath> => import("../server/modern-path.js");
export { serveInputs } from "../server/serve-inputs.js";
export { serveToolHeaders } from "../server/serve-tool-headers.js";
export const loadManifestClient = (): Promise<typeof ManifestClient> => import("../client/manifest-client.js");
export const loadApps = (): Promise<typeof Apps> => import("../client/apps.js");
