/**
 * The server under fuzz, as its own process: the "everything" example on stdio or Streamable HTTP
 * (127.0.0.1). On SIGUSR2 it collects garbage and writes one `STATS {...}` line to stderr (stdout
 * is the protocol on stdio): memory, open sessions, running and pending requests, open listens,
 * errors logged.
 * Run with --expose-gc.
 */
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createServer } from "../../examples/everything/src/server.js";

const mode = process.argv[2];
let errors = 0;
const mcp = createServer({ onerror: () => void errors++ });
let http: ReturnType<typeof createStreamableHttpServer> | undefined;

process.on("SIGUSR2", () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const sessions = mcp.sessions;
  const stats = {
    rss: process.memoryUsage().rss,
    heap: process.memoryUsage().heapUsed,
    external: process.memoryUsage().external,
    heapTotal: process.memoryUsage().heapTotal,
    sessions: sessions.length,
    httpSessions: http?.sessions.size ?? 0,
    running: sessions.reduce((n, s) => n + s.runningCount, 0),
    pending: sessions.reduce((n, s) => n + s.pendingCount, 0),
    listens: mcp.listens.size,
    errors,
  };
  process.stderr.write(`STATS ${JSON.stringify(stats)}\n`);
});

if (mode === "stdio") {
  await mcp.connect(new StdioServerTransport());
  process.stdin.on("end", () => process.exit(0));
} else {
  http = createStreamableHttpServer({
    onsession: (t) => void mcp.connect(t),
    onerror: () => void errors++,
    keepAliveMs: 0,
  });
  const url = await http.listen();
  process.stdout.write(`listening on ${url.href}\n`);
  process.on("SIGTERM", () => void http!.close().then(() => process.exit(0)));
}
