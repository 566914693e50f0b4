/**
 * 2026-07-28 stateless Streamable HTTP servers for the workload's `add` tool (text variant).
 * Usage: stateless-http.js raw|mcpgen|fetch|fetch-listener|fetch-hono|sdk2|sdk2-node; prints {"port":N} once
 * listening on 127.0.0.1. raw: node:http, JSON.parse, answer (no validation, no headers checked).
 * mcpgen: createMcpServer with the generated 2026-07-28 binding (per-request _meta, header and
 * params validation on) on the node:http handler. fetch: the same server's createFetchHandler
 * behind the same node:http bridge as sdk2 (a Request and a Response per call); fetch-listener:
 * it through toNodeListener (node's objects straight to the endpoint); fetch-hono: it served by
 * @hono/node-server. sdk2: SDK v2's createMcpHandler (its web-standard modern path) behind the
 * node:http bridge; sdk2-node: the same through `toNodeHandler` of @modelcontextprotocol/node, the Node
 * adapter SDK v2's docs tell Node users to serve it with. bridge: the bridge alone around a fetch handler that parses the body and answers
 * a fixed result (what any fetch handler behind it pays before doing anything).
 */
import { createServer } from "node:http";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { toNodeListener } from "@mcpgen/runtime/node";
import { serve } from "@hono/node-server";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { addResult } from "../workload.js";
import { createStatelessMcp } from "./stateless-mcp.js";
import { createSdk2Server } from "./sdk2-server.js";
import { sendResponse, toRequest } from "./web-bridge.js";

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
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: msg.id,
        result: { ...addResult("text", args.a, args.b), resultType: "complete" },
      });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  listen(server);
} else if (kind === "mcpgen" || kind?.startsWith("fetch")) {
  const mcp = createStatelessMcp();
  if (kind === "mcpgen") {
    const http = createStreamableHttpServer({ onsession: (t) => mcp.connect(t).then(() => {}) });
    http.server.keepAliveTimeout = 60_000;
    listen(http.server);
  } else {
    const handler = createFetchHandler(mcp);
    if (kind === "fetch-hono") {
      const server = serve({ fetch: handler, port: 0, hostname: "127.0.0.1" }, (info) =>
        process.stdout.write(JSON.stringify({ port: info.port }) + "\n"),
      );
      (server as { keepAliveTimeout?: number }).keepAliveTimeout = 60_000;
    } else {
      const server = createServer(
        kind === "fetch-listener"
          ? toNodeListener(handler)
          : async (req, res) => {
              const abort = new AbortController();
              res.on("close", () => abort.abort());
              await sendResponse(await handler(await toRequest(req, abort.signal)), res);
            },
      );
      server.keepAliveTimeout = 60_000;
      listen(server);
    }
  }
} else if (kind === "bridge") {
  const server = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = await toRequest(req, abort.signal);
    const msg = (await request.json()) as { id: number; params: { arguments: { a: number; b: number } } };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: msg.id,
      result: { ...addResult("text", msg.params.arguments.a, msg.params.arguments.b), resultType: "complete" },
    });
    await sendResponse(new Response(body, { headers: { "content-type": "application/json" } }), res);
  });
  server.keepAliveTimeout = 60_000;
  listen(server);
} else if (kind === "sdk2") {
  const handler = createMcpHandler(() => createSdk2Server("text"));
  const server = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    await sendResponse(await handler.fetch(await toRequest(req, abort.signal)), res);
  });
  server.keepAliveTimeout = 60_000;
  listen(server);
} else if (kind === "sdk2-node") {
  const server = createServer(toNodeHandler(createMcpHandler(() => createSdk2Server("text"))));
  server.keepAliveTimeout = 60_000;
  listen(server);
} else {
  throw new Error(
    `usage: stateless-http.js raw|bridge|mcpgen|fetch|fetch-listener|fetch-hono|sdk2|sdk2-node (got ${JSON.stringify(kind)})`,
  );
}
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
