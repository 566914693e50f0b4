/**
 * What a server serves beyond tools, handed to it by whoever creates it: the generated
 * server passes the features its manifest uses (createMcpServerWith, ABI 8), so code of a feature
 * a manifest does not use is reachable from nothing it imports and a bundle of it leaves that code
 * out (docs/bundling.md); createMcpServer passes them all. A server whose capabilities declare a
 * feature it was not given refuses to start, naming it.
 */
import type { ResourceRouter } from "./resources.js";
import type { complete } from "./completion.js";
import type { PromptTable } from "./prompts.js";
import type { LocalBroadcast } from "./broadcast.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities } from "../lifecycle/common/types.js";
import type { McpDefinition } from "./types.js";

/** The MRTR code (inputs.ts). */
export type InputsModule = typeof import("./inputs.js");

/** The Mcp-Param-* check (header-params.ts). */
export type ToolHeadersModule = typeof import("./header-params.js");

/** The features ServerCore serves (core.ts); McpServer's ServerFeatures (server.ts) add the legacy era. */
export interface CoreFeatures {
  /** The manifest's prompts (prompts.ts): the `prompts` capability. */
  readonly prompts?: typeof PromptTable;
  /** `resources/read` routing (resources.ts: static URIs, RFC 6570 templates): resources, templates or skills. */
  readonly resources?: typeof ResourceRouter;
  /** `completion/complete` (completion.ts): the `completions` capability. */
  readonly completion?: typeof complete;
  /**
   * Asking the client for input in 2026-07-28 (inputs.ts), imported before the first 2026-07-28
   * connection: handlers that ask (the manifest's `clientRequests`, every kind by default) and
   * tools that may run as tasks.
   */
  readonly inputs?: () => Promise<InputsModule>;
  /**
   * The `Mcp-Param-*` check of 2026-07-28 `tools/call`s (header-params.ts), imported before the
   * first 2026-07-28 connection: a tool's input schema names `x-mcp-header`.
   */
  readonly toolHeaders?: () => Promise<ToolHeadersModule>;
  /**
   * Telling connections and listens of changes (broadcast.ts), read by McpServer: `listChanged` of
   * a list, `resources.subscribe` or tools that may run as tasks. The legacy era brings its own
   * (legacy-era.ts: its sessions are told of changes and `log`).
   */
  readonly changes?: typeof LocalBroadcast;
}

/** What createMcpServerWith throws when the server serves `feature` but was not given its code. */
export function missingFeature(feature: keyof CoreFeatures): TypeError {
  return new TypeError(
    `createMcpServer: the server serves ${feature} but was given no \`${feature}\` feature (createMcpServerWith): regenerate it with this runtime's mcpgen`,
  );
}

/**
 * Whether a published tool may mirror arguments in headers: its input schema names `x-mcp-header`
 * anywhere (a superset of the tools headerParams finds annotations in: none of those goes
 * unchecked). The generator decides with the same test whether to hand the feature over
 * (generator/emit/manifest/server.ts); without it the server is refused (core.ts).
 */
export function mirrorsHeaders(tool: { readonly inputSchema?: unknown }): boolean {
  return JSON.stringify(tool.inputSchema ?? null).includes('"x-mcp-header"');
}

/**
 * Whether a 2026-07-28 server needs the `changes` feature (the legacy era brings its own): it
 * announces a list's changes or resource updates, or has tools that may run as tasks (its definition
 * has the task code: core.ts refuses task tools without it). The generator decides with the same
 * test whether to hand it over (generator/emit/manifest/server.ts).
 */
export function announcesChanges(capabilities: Capabilities, definition: McpDefinition): boolean {
  return (
    definition.tasks !== undefined ||
    hasCapability(capabilities, "resources.subscribe") ||
    ["tools", "prompts", "resources"].some((list) => hasCapability(capabilities, `${list}.listChanged`))
  );
}
