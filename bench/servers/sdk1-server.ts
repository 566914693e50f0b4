/** The workload as an official SDK v1 (@modelcontextprotocol/sdk) McpServer. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { SERVER_INFO, addResult, type Variant } from "../workload.js";

export function createSdk1Server(variant: Variant): McpServer {
  const server = new McpServer(SERVER_INFO);
  const inputSchema = { a: z.number(), b: z.number() };
  if (variant === "structured") {
    server.registerTool(
      "add",
      { description: "Add two numbers", inputSchema, outputSchema: { sum: z.number() } },
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
