/**
 * The generated bench server on mcpgen's Streamable HTTP server (default options: JSON replies
 * unless a handler sends related messages, Host/Origin checks on; one connection per legacy
 * session and per 2026-07-28 POST, as the generated server's docs say).
 * Usage: mcpgen-http.js <variant>; prints {"port":N} once listening on 127.0.0.1.
 */
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { parseVariant } from "../workload.js";
import { createMcpgenServer } from "./mcpgen-server.js";

const server = await createMcpgenServer(parseVariant(process.argv[2]));
const http = createStreamableHttpServer({
  host: "127.0.0.1",
  port: 0,
  onsession: async (transport) => void (await server.connect(transport)),
});
const url = await http.listen();
process.stdout.write(JSON.stringify({ port: Number(url.port) }) + "\n");
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
