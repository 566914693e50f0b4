/**
 * 2026-07-28 stateless Streamable HTTP servers for the workload's `add` tool (text variant).
 * Usage: stateless-http.js raw|mcpgen|sdk2; prints {"port":N} once listening on 127.0.0.1.
 * raw: node:http, JSON.parse, answer (no validation, no headers checked). mcpgen: createMcpServer
 * with the generated 2026-07-28 binding (per-request _meta, header and params validation on).
 * sdk2: SDK v2's createMcpHandler (its modern path) behind the node:http bridge.
 */
import { createServer } from "node:http";
import { createMcpServer, type McpDefinition, type Validator } from "@mcpgen/runtime";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { binding } from "@mcpgen/runtime/protocol/2026-07-28";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { SERVER_INFO, addResult, addToolDefinition } from "../workload.js";
import { createSdk2Server } from "./sdk2-server.js";
import { sendResponse, toRequest } from "./web-bridge.js";

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
} else if (kind === "sdk2") {
  const handler = createMcpHandler(() => createSdk2Server("text"));
  const server = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    await sendResponse(await handler.fetch(await toRequest(req, abort.signal)), res);
  });
  server.keepAliveTimeout = 60_000;
  listen(server);
} else {
  throw new Error(`usage: stateless-http.js raw|mcpgen|sdk2 (got ${JSON.stringify(kind)})`);
}
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
