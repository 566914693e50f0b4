/**
 * SDK v2 Streamable HTTP server: one WebStandardStreamableHTTPServerTransport + McpServer per
 * session, JSON responses, behind node:http. SDK v2's server package speaks web-standard
 * Request/Response only (its Node adapter is a separate package we do not install), so this file
 * carries a minimal node:http <-> Request/Response bridge, as any Node user of v2 needs one.
 * Usage: sdk2-http.js <variant>; prints {"port":N} once listening on 127.0.0.1.
 */
import { createServer, type IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { parseVariant } from "../workload.js";
import { createSdk2Server } from "./sdk2-server.js";

const variant = parseVariant(process.argv[2]);
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    signal,
  });
}

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
  const response = await transport.handleRequest(await toRequest(req, abort.signal));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away mid-stream
  }
  res.end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(JSON.stringify({ port: typeof addr === "object" && addr ? addr.port : 0 }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
