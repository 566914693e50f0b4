// The dice example server (MCP Apps) over stdio (`node dist/examples/apps/src/server.js`), or over
// Streamable HTTP on 127.0.0.1 with `--http [port]`. Its tool roll_dice names the view
// ui://dice/roller (ui/roller.html, served from the manifest's `file`).
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { handlers } from "./handlers.js";
import { createDiceServer } from "./mcp/server.js";

const server = createDiceServer(handlers, { onerror: (e) => console.error(`dice: ${e.message}`) });

if (process.argv[2] === "--http") {
  const http = createStreamableHttpServer({ port: Number(process.argv[3] ?? 0), onsession: async (transport) => void (await server.connect(transport)) });
  console.error(`dice example listening on ${(await http.listen()).href}`);
} else {
  const session = await server.connect(new StdioServerTransport());
  session.onclose = () => process.exit(0);
}
