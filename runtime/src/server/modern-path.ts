/**
 * The 2026-07-28 side of McpServer (server.ts): its session, core and request handlers. Loaded
 * the first time a connection needs it, so a server whose peers speak the legacy era never
 * evaluates it (start-up time and idle memory, bench/README.md).
 */
export { ModernServerSession } from "../lifecycle/modern/server.js";
export { modernServerCore } from "./modern.js";
