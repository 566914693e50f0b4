/**
 * SDK v2 Streamable HTTP server: one WebStandardStreamableHTTPServerTransport + McpServer per
 * session, JSON responses, behind node:http through the minimal web-bridge.ts (SDK v2's server
 * speaks web-standard Request/Response only).
 * Usage: sdk2-http.js <variant>; prints {"port":N} once listening on 127.0.0.1.
 */
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { parseVariant } from "../workload.js";
import { createSdk2Server } from "./sdk2-server.js";
import { sendResponse, toRequest } from "./web-bridge.js";

const variant = parseVariant(process.argv[2]);
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

const server = createServer(async (req, res) => {
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const sid = req.headers["mcp-session-id"];
  let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
  if (!transport) {
    if (sid !== undefined) {
      res.writeHead(404).end();
      return;
    }
    const created = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, created),
    });
    created.onclose = () => {
      if (created.sessionId) sessions.delete(created.sessionId);
    };
    await createSdk2Server(variant).connect(created);
    transport = created;
  }
  await sendResponse(await transport.handleRequest(await toRequest(req, abort.signal)), res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(JSON.stringify({ port: typeof addr === "object" && addr ? addr.port : 0 }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
