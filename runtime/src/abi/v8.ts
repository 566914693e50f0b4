/**
 * `@mcpgen/runtime/abi/v8`: everything code generated for ABI 8 imports, and nothing else user
 * code needs (users import `@mcpgen/runtime` and its transport entries). The version is in the
 * path, so generated code and a runtime that do not match fail when the import resolves (tsc
 * reports it at compile time), and a later runtime can keep serving this ABI beside the next one.
 * The protocol bindings, validators and `bindings.ts` use the ABI proper (abi.ts); the generated
 * server, client and definition link the facades (facades.ts), re-exported here whole, their
 * types included, so declarations of a user module that exports a generated value can name them.
 */
export * from "../abi.js";
export * from "../facades.js";
// The server features a generated server hands to createMcpServerWith when its manifest uses them
// (server/features.ts): not named by a manifest, not in its bundle.
export { createMcpServerWith } from "../server/create-server.js";
export { PromptTable as servePrompts } from "../server/prompts.js";
export { ResourceRouter as serveResources } from "../server/resources.js";
export { complete as serveCompletion } from "../server/completion.js";
export { LocalBroadcast as serveChanges } from "../server/broadcast.js";
import { LocalBroadcast } from "../server/broadcast.js";
import { EraRouter } from "../server/era-router.js";
import { connectLegacy } from "../server/legacy.js";
import type { ServerLegacyEra } from "../server/legacy-era.js";
import { legacyHttp } from "../http-server/legacy-http.js";
import * as inputs from "../server/inputs.js";
import * as toolHeaders from "../server/header-params.js";
import type { InputsModule, ToolHeadersModule } from "../server/features.js";

/**
 * The legacy era's server code (2024-11-05 … 2025-11-25), which the generated server of a manifest
 * listing a legacy revision hands to createMcpServer (ABI 8), with its side of Streamable HTTP
 * (sessions, event store, HTTP+SSE) for the fetch handler. Nothing else of the runtime names it, so
 * a server of 2026-07-28 alone, and its bundle, carry none of it. Node is served core.ts's instead.
 */
// Spelled out rather than spread from legacy-era-core.ts: esbuild does not take a spread as pure,
// so an unused `legacyEra` would keep the legacy era in every bundle.
export const legacyEra: ServerLegacyEra = {
  session: connectLegacy,
  router: (base, prepareModern) => new EraRouter(base, prepareModern),
  http: legacyHttp,
  changes: LocalBroadcast,
};

/**
 * The MRTR feature (server/features.ts) as bundlers get it: imported statically, since a Worker is
 * one file anyway and a dynamic import would only wrap the same code in lazy-init glue. Node's
 * core (core.ts) gives it as a chunk loaded with the first 2026-07-28 connection instead.
 */
export const serveInputs = (): Promise<InputsModule> => Promise.resolve(inputs);

/** The Mcp-Param-* check (server/features.ts) as bundlers get it, static as `serveInputs` is. */
export const serveToolHeaders = (): Promise<ToolHeadersModule> => Promise.resolve(toolHeaders);
