/**
 * The factories of McpServer (server.ts): `createMcpServer` gives a server every feature,
 * `createMcpServerWith` (what generated servers call) only those it is handed (features.ts).
 */
import type { McpDefinition, McpServerHandlers, McpServerOptions } from "./types.js";
import type { ServerLegacyEra } from "./legacy-era.js";
import { McpServer, type ServerFeatures } from "./server.js";
import { PromptTable } from "./prompts.js";
import { ResourceRouter } from "./resources.js";
import { complete } from "./completion.js";
import { LocalBroadcast } from "./broadcast.js";
import { serveInputs, serveToolHeaders } from "#on-first-use";

/**
 * A server for a generated definition: `server.connect(transport)` per connection. `legacy`: the
 * legacy era's code (`legacyEra` of `@mcpgen/runtime/abi/v8`), needed when the server speaks a
 * legacy revision; `createMcpServer` of the package root always passes it. Every other feature
 * (prompts, resources, completion, tool headers, changes) comes with it, so a bundle of a program calling this carries them all.
 */
export function createMcpServer(
  definition: McpDefinition,
  handlers: McpServerHandlers,
  options: McpServerOptions,
  legacy?: ServerLegacyEra,
): McpServer {
  return new McpServer(definition, handlers, options, {
    legacyEra: legacy,
    prompts: PromptTable,
    resources: ResourceRouter,
    completion: complete,
    inputs: serveInputs,
    toolHeaders: serveToolHeaders,
    changes: LocalBroadcast,
  });
}

/**
 * A server given only the features it uses (ABI 8, what the generated server calls): a feature
 * not given is reachable from nothing, so a bundler leaves its code out. The server refuses to
 * start when its definition declares a feature it was not given (features.ts).
 */
export function createMcpServerWith(
  definition: McpDefinition,
  handlers: McpServerHandlers,
  options: McpServerOptions,
  features: ServerFeatures,
): McpServer {
  return new McpServer(definition, handlers, options, features);
}
