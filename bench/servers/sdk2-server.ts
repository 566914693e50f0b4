/** The workload as an official SDK v2 (@modelcontextprotocol/server 2.4.0) McpServer. */
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { SERVER_INFO, addResult, type Variant } from "../workload.js";

export function createSdk2Server(variant: Variant): McpServer {
  const server = new McpServer(SERVER_INFO);
  const inputSchema = z.object({ a: z.number(), b: z.number() });
  if (variant === "structured") {
    server.registerTool(
      "add",
      { description: "Add two numbers", inputSchema, outputSchema: z.object({ sum: z.number() }) },
      async ({ a, b }) =>
        addResult(variant, a, b) as { content: { type: "text"; text: string }[]; structuredContent: { sum: number } },
    );
  } else {
    server.registerTool("add", { description: "Add two numbers", inputSchema }, async ({ a, b }) =>
      addResult(variant, a, b),
    );
  }
  return server;
}
