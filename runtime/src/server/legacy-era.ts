/**
 * What a server serving a legacy revision (2024-11-05 … 2025-11-25) takes from the legacy era. The
 * generated server of a manifest listing a legacy revision hands `legacyEra` (abi/v8.ts) to
 * createMcpServer; without it nothing of that era is reachable from McpServer or the fetch
 * handler, so the bundle of a server of 2026-07-28 alone leaves the era out (docs/bundling.md).
 */
import type { Transport } from "../transport.js";
import type { EraRouter } from "./era-router.js";
import type { legacySession } from "./legacy.js";

export interface ServerLegacyEra {
  /** A connection's legacy session (legacy.ts). */
  readonly session: typeof legacySession;
  /** A connection served in both eras at once (era-router.ts). */
  router(base: Transport, prepareModern: () => Promise<void> | undefined): EraRouter;
  /**
   * The 2024-11-05 HTTP+SSE transport (http-server/legacy-sse.ts) for the fetch handler's
   * `legacySse`, imported on first use. Typed by its user (http-server/fetch.ts): the server's room
   * does not import the HTTP server's, which imports it.
   */
  sse(): Promise<unknown>;
}
