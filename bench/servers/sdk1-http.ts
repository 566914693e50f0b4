/**
 * SDK v1 Streamable HTTP server on node:http: one StreamableHTTPServerTransport + McpServer per
 * session, JSON responses. Usage: sdk1-http.js <variant>; prints {"port":N} once listening.
 */
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { parseVariant } from "../workload.js";
import { createSdk1Server } from "./sdk1-server.js";

const variant = parseVariant(process.argv[2]);
const sessions = new Map<string, StreamableHTTPServerTransport>();

const server = createServer(async (req, res) => {
  const sid = req.headers["mcp-session-id"];
  let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
  if (!transport) {
    if (sid !== undefined) {
      res.writeHead(404).end();
      return;
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, created),
    });
    created.onclose = () => {
      if (created.sessionId) sessions.delete(created.sessionId);
    };
    await createSdk1Server(variant).connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(JSON.stringify({ port: typeof addr === "object" && addr ? addr.port : 0 }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
