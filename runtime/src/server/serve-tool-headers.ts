/**
 * The Mcp-Param-* check as a server is given it (features.ts): an import thunk, so the code loads
 * with a server's first 2026-07-28 connection (in the Node build, inside the chunk of the server's
 * 2026-07-28 path, which that connection loads anyway: bin/bundle-runtime.mjs) and a bundle
 * of a server not given it carries none of it.
 */
import type { ToolHeadersModule } from "./features.js";

export const serveToolHeaders = (): Promise<ToolHeadersModule> => import("./header-params.js");
