/**
 * The Mcp-Param-* check as a server is given it (features.ts): an import thunk, so the code loads
 * with a server's first 2026-07-28 connection (a chunk of its own in the Node build) and a bundle
 * of a server not given it carries none of it.
 */
import type { ToolHeadersModule } from "./features.js";

export const serveToolHeaders = (): Promise<ToolHeadersModule> => import("./header-params.js");
