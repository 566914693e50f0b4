/**
 * 2026-07-28 stateless Streamable HTTP servers for the workload's `add` tool (text variant).
 * Usage: stateless-http.js raw|mcpgen; prints {"port":N} once listening on 127.0.0.1.
 * raw: node:http, JSON.parse, answer (no validation, no headers checked). mcpgen: createMcpServer
 * with the generated 2026-07-28 binding (per-request _meta, header and params validation on).
 */
import { createServer } from "node:http";
import { createMcpServer, type McpDefinition, type Validator } from "@mcpgen/runtime";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { binding } from "../../generated/2026-07-28/index.js";
import { SERVER_INFO, addResult, addToolDefinition } from "../workload.js";

const isAddArgs = ((x: unknown) => {
  const ok = typeof x === "object" && x !== null && typeof (x as { a?: unknown }).a === "number" && typeof (x as { b?: unknown }).b === "number";
  isAddArgs.errors = ok ? null : [{ instancePath: "", schemaPath: "#/required", keyword: "required", params: {}, message: "needs numbers a and b" }];
  return ok;
}) as Validator;

function listen(server: { listen: (port: number, host: string, cb: () => void) => unknown; address(): unknown }): void {
  server.listen(0, "127.0.0.1", () => {
    const a = server.address() as { port: number };
    process.stdout.write(JSON.stringify({ port: a.port }) + "\n");
  });
}

const kind = process.argv[2];
if (kind === "raw") {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const args = msg.params.arguments;
      const body = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { ...addResult("text", args.a, args.b), resultType: "complete" } });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  listen(server);
} else if (kind === "mcpgen") {
  const lists = { serverInfo: SERVER_INFO, capabilities: { tools: {} }, tools: [addToolDefinition("text")], resources: [], resourceTemplates: [], prompts: [] };
  const definition: McpDefinition = {
    revisions: ["2026-07-28"],
    pageSize: 100,
    published: { "2026-07-28": lists },
    toolValidators: { add: { input: isAddArgs, output: null } },
    members: { tools: { add: "add" }, prompts: {}, resources: {}, resourceTemplates: {} },
  };
  const mcp = createMcpServer(definition, { tools: { add: (i: { a: number; b: number }) => addResult("text", i.a, i.b) as never } }, { bindings: [binding] });
  const http = createStreamableHttpServer({ onsession: (t) => mcp.connect(t).then(() => {}) });
  http.server.keepAliveTimeout = 60_000;
  listen(http.server);
} else {
  throw new Error(`usage: stateless-http.js raw|mcpgen (got ${JSON.stringify(kind)})`);
}
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
