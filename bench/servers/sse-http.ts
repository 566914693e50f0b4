/**
 * Stateful Streamable HTTP servers answering every `tools/call` as an SSE stream (one `message`
 * event, then the end), for bench/sse.ts. Usage: sse-http.js raw|mcpgen|mcpgen-nostore; prints
 * {"port":N} once listening on 127.0.0.1.
 * raw: node:http, a session id issued on initialize and checked, the reply written as one SSE event.
 * mcpgen: the generated bench server on createStreamableHttpServer with responseMode "sse" and its
 * defaults (an in-memory event store: a priming event and an event id per message, resumable).
 * mcpgen-nostore: the same without an event store (no priming event, not resumable), as raw.
 */
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { parseVariant } from "../workload.js";
import { createRawHandler } from "./raw-handler.js";
import { createMcpgenServer } from "./mcpgen-server.js";

function ready(port: number): void {
  process.stdout.write(JSON.stringify({ port }) + "\n");
}

const kind = process.argv[2];
if (kind === "raw") {
  const handle = createRawHandler(parseVariant("text"));
  const sessions = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      let sid = req.headers["mcp-session-id"] as string | undefined;
      if (msg.method === "initialize") sessions.add((sid = randomUUID()));
      else if (!sid || !sessions.has(sid)) {
        res.writeHead(404).end();
        return;
      }
      const response = handle(msg);
      if (!response) {
        res.writeHead(202, { "mcp-session-id": sid }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "mcp-session-id": sid });
      res.end(`event: message\ndata: ${JSON.stringify(response)}\n\n`);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => ready((server.address() as { port: number }).port));
} else if (kind === "mcpgen" || kind === "mcpgen-nostore") {
  const server = await createMcpgenServer(parseVariant("text"));
  const http = createStreamableHttpServer({
    host: "127.0.0.1",
    port: 0,
    responseMode: "sse",
    ...(kind === "mcpgen-nostore" ? { eventStore: false } : {}),
    onsession: async (transport) => void (await server.connect(transport)),
  });
  http.server.keepAliveTimeout = 60_000;
  const url = await http.listen();
  ready(Number(url.port));
} else {
  throw new Error(`usage: sse-http.js raw|mcpgen|mcpgen-nostore (got ${JSON.stringify(kind)})`);
}
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
