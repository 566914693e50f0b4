// The dice example server (MCP Apps) over stdio (`node dist/examples/apps/src/server.js`), or over
// Streamable HTTP on 127.0.0.1 with `--http [port]`. Its tool roll_dice names the view
// ui://dice/roller (ui/roller.html, served from the manifest's `file`). Over HTTP the same origin
// also serves the dev host page (host/index.html) at `/`, so that a browser renders the view
// without the endpoint accepting any other origin.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createStreamableHttpHandler } from "@mcpgen/runtime/http";
import { handlers } from "./handlers.js";
import { createDiceServer } from "./mcp/server.js";

const server = createDiceServer(handlers, { onerror: (e) => console.error(`dice: ${e.message}`) });

if (process.argv[2] === "--http") {
  // Beside examples/apps/src/ (run as TypeScript) or from dist/examples/apps/src/ (compiled).
  const hostPage = [
    new URL("../host/index.html", import.meta.url),
    new URL("../../../../examples/apps/host/index.html", import.meta.url),
  ].find((u) => existsSync(u))!;
  const mcp = createStreamableHttpHandler({ onsession: async (transport) => void (await server.connect(transport)) });
  const http = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/" || (req.method !== "GET" && req.method !== "HEAD")) return mcp.handle(req, res);
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    res.end(req.method === "HEAD" ? undefined : readFileSync(hostPage));
  });
  http.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
    const { port } = http.address() as { port: number };
    console.error(`dice example listening on http://127.0.0.1:${port}/mcp (dev host page: http://127.0.0.1:${port}/)`);
  });
  const stop = () => void mcp.close().finally(() => http.close(() => process.exit(0)));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
} else {
  const session = await server.connect(new StdioServerTransport());
  session.onclose = () => process.exit(0);
}
