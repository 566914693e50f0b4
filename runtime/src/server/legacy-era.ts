/**
 * What a server serving a legacy revision (2024-11-05 … 2025-11-25) takes from the legacy era. The
 * generated server of a manifest listing a legacy revision hands `legacyEra` (abi/v8.ts) to
 * createMcpServer; without it nothing of that era's sessions is reachable from McpServer, so the
 * bundle of a server of 2026-07-28 alone leaves them out (docs/bundling.md).
 */
import type { ProtocolBinding } from "../abi.js";
import type { Transport } from "../transport.js";
import type { EraRouter } from "./era-router.js";
import type { connectLegacy } from "./legacy.js";
import type { LocalBroadcast } from "./broadcast.js";

export interface ServerLegacyEra {
  /** A connection's legacy session, served and counted among the server's connections (legacy.ts). */
  readonly session: typeof connectLegacy;
  /** A connection served in both eras at once (era-router.ts). */
  router(base: Transport, prepareModern: () => Promise<void> | undefined): EraRouter;
  /**
   * The era's side of Streamable HTTP (http-server/legacy-http.ts: legacy sessions, their event
   * store, the HTTP+SSE handler), which the fetch handler takes from here. Opaque to the server,
   * which knows no HTTP; absent in Node's core (its hosts carry their own, core.ts).
   */
  readonly http?: object;
  /**
   * Telling connections of changes (broadcast.ts: `log`, list changes, resource updates), which
   * every server with legacy sessions needs: the `changes` feature comes with the era.
   */
  readonly changes: typeof LocalBroadcast;
}

/** What createMcpServer throws when given the legacy revisions `legacy` without the legacy era. */
export function noLegacyEra(legacy: readonly ProtocolBinding[]): TypeError {
  return new TypeError(
    `createMcpServer: the server speaks legacy revisions (${legacy.map((b) => b.revision).join(", ")}) but was given no legacy era: regenerate the server with this runtime's mcpgen, or pass \`legacyEra\` of @mcpgen/runtime/abi/v8`,
  );
}
