/**
 * Raw node:http JSON-RPC server (the HTTP baseline): POST /mcp with one message, JSON reply,
 * 202 for notifications, a session id issued on initialize and checked afterwards.
 * Usage: raw-http.js <variant>; prints {"port":N} on stdout once listening on 127.0.0.1.
 */
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { parseVariant } from "../workload.js";
import { createRawHandler } from "./raw-handler.js";

const handle = createRawHandler(parseVariant(process.argv[2]));
const sessions = new Set<string>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    let sid = req.headers["mcp-session-id"] as string | undefined;
    if (msg.method === "initialize") {
      sid = randomUUID();
      sessions.add(sid);
    } else if (!sid || !sessions.has(sid)) {
      res.writeHead(sid ? 404 : 400).end();
      return;
    }
    const response = handle(msg);
    if (!response) {
      res.writeHead(202).end();
      return;
    }
    const body = JSON.stringify(response);
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "mcp-session-id": sid,
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(JSON.stringify({ port: typeof addr === "object" && addr ? addr.port : 0 }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
// The parent ends our stdin to stop us.
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
