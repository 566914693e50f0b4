/**
 * The workload as an mcpgen user ships it: the server generated from bench/add/<variant>.manifest.json
 * (all default revisions, argument and output validation on) with its typed handlers. The
 * structured handler answers through `toolResult` with the same text block the raw server sends,
 * so every implementation puts the same result on the wire.
 */
import { toolResult } from "@mcpgen/runtime/facades";
import type { McpServer } from "@mcpgen/runtime/facades";
import { createBenchAddServer as createTextServer } from "../add/text/server.js";
import { createBenchAddServer as createStructuredServer } from "../add/structured/server.js";
import type { Variant } from "../workload.js";

export function createMcpgenServer(variant: Variant): McpServer {
  return variant === "structured"
    ? createStructuredServer({
        tools: { add: ({ a, b }) => toolResult({ structuredContent: { sum: a + b }, content: [{ type: "text", text: String(a + b) }] }) },
      })
    : createTextServer({ tools: { add: ({ a, b }) => String(a + b) } });
}
