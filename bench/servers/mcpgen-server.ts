/**
 * The workload on mcpgen's runtime: a legacy-lifecycle server session over any transport, with
 * the bindings a generated output carries (every bundled revision, each loaded when a connection
 * first speaks it; the client negotiates 2025-11-25) validating every inbound request.
 * The tool's own argument check stands in for what a generated server carries for inputSchema
 * {a:number, b:number} (the same test ajv standalone emits for it; no ajv at run time).
 */
import { createServerSession, type RequestHandlers, type ServerSession, type Transport } from "@mcpgen/runtime";
import { bindings } from "../../examples/weather/src/mcp/bindings.js";
import { SERVER_INFO, addResult, addToolDefinition, type Variant } from "../workload.js";

interface AddArgs {
  a: number;
  b: number;
}

function isAddArgs(x: unknown): x is AddArgs {
  return typeof x === "object" && x !== null && typeof (x as AddArgs).a === "number" && typeof (x as AddArgs).b === "number";
}

function handlers(variant: Variant): RequestHandlers {
  const tools = { tools: [addToolDefinition(variant)] };
  return {
    "tools/list": () => tools,
    "tools/call": (params: { name: string; arguments?: unknown }) => {
      if (params.name !== "add") return { content: [{ type: "text", text: `unknown tool ${params.name}` }], isError: true };
      const args = params.arguments;
      if (!isAddArgs(args)) return { content: [{ type: "text", text: "add takes {a:number, b:number}" }], isError: true };
      return addResult(variant, args.a, args.b);
    },
  };
}

export function createMcpgenServer(transport: Transport, variant: Variant): Promise<ServerSession> {
  return createServerSession({
    transport,
    bindings,
    serverInfo: SERVER_INFO,
    capabilities: { tools: {} },
    handlers: handlers(variant),
  });
}
