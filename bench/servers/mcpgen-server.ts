/**
 * The workload as an mcpgen user ships it: the server generated from bench/add/<variant>.manifest.json
 * (all default revisions, argument and output validation on) with its typed handlers. The
 * structured handler answers through `toolResult` with the same text block the raw server sends,
 * so every implementation puts the same result on the wire.
 *
 * Only the chosen variant's generated server is imported: a user's program has one generated
 * server, and loading both would charge idle RSS for modules it never runs (the SDK servers build
 * their variant from code already loaded, so they pay nothing extra). The stdio children import
 * theirs statically instead (mcpgen-stdio-<variant>.ts), as a program does, since their start is
 * timed. In process and over HTTP the same handlers come from here.
 */
import { toolResult } from "@mcpgen/runtime/facades";
import type { McpServer } from "@mcpgen/runtime/facades";
import type { Variant } from "../workload.js";

export async function createMcpgenServer(variant: Variant): Promise<McpServer> {
  if (variant === "structured") {
    const { createBenchAddServer } = await import("../add/structured/server.js");
    return createBenchAddServer({
      tools: {
        add: ({ a, b }) =>
          toolResult({ structuredContent: { sum: a + b }, content: [{ type: "text", text: String(a + b) }] }),
      },
    });
  }
  const { createBenchAddServer } = await import("../add/text/server.js");
  return createBenchAddServer({ tools: { add: ({ a, b }) => String(a + b) } });
}
