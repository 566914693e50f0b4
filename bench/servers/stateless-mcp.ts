/**
 * The workload's `add` tool (text variant) as an mcpgen server of 2026-07-28 alone, with the
 * generated binding (per-request _meta, header and params validation on): what stateless-http.ts
 * serves on node:http and stateless-bun.ts on Bun.serve.
 */
import { createMcpServer, type McpDefinition, type McpServer, type Validator } from "@mcpgen/runtime";
import { binding } from "@mcpgen/runtime/protocol/2026-07-28";
import { SERVER_INFO, addResult, addToolDefinition } from "../workload.js";

const isAddArgs = ((x: unknown) => {
  const ok =
    typeof x === "object" &&
    x !== null &&
    typeof (x as { a?: unknown }).a === "number" &&
    typeof (x as { b?: unknown }).b === "number";
  isAddArgs.errors = ok
    ? null
    : [
        {
          instancePath: "",
          schemaPath: "#/required",
          keyword: "required",
          params: {},
          message: "needs numbers a and b",
        },
      ];
  return ok;
}) as Validator;

export function createStatelessMcp(): McpServer {
  const lists = {
    serverInfo: SERVER_INFO,
    capabilities: { tools: {} },
    tools: [addToolDefinition("text")],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  const definition: McpDefinition = {
    revisions: ["2026-07-28"],
    pageSize: 100,
    published: { "2026-07-28": lists },
    toolValidators: { add: { input: isAddArgs, output: null } },
    members: { tools: { add: "add" }, prompts: {}, resources: {}, resourceTemplates: {} },
  };
  return createMcpServer(
    definition,
    { tools: { add: (i: { a: number; b: number }) => addResult("text", i.a, i.b) as never } },
    { bindings: [binding] },
  );
}
