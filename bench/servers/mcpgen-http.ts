/**
 * mcpgen Streamable HTTP server on node:http (default options: JSON replies unless a handler
 * sends related messages, Host/Origin checks on, one server session per MCP session).
 * Usage: mcpgen-http.js <variant>; prints {"port":N} once listening on 127.0.0.1.
 */
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { parseVariant } from "../workload.js";
import { createMcpgenServer } from "./mcpgen-server.js";

const variant = parseVariant(process.argv[2]);
const server = createStreamableHttpServer({
  host: "127.0.0.1",
  port: 0,
  onsession: async (transport) => void (await createMcpgenServer(transport, variant)),
});
const url = await server.listen();
process.stdout.write(JSON.stringify({ port: Number(url.port) }) + "\n");
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
