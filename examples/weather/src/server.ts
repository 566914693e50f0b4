// The weather example server over stdio (`node dist/examples/weather/src/server.js`), or over
// Streamable HTTP on 127.0.0.1 with `--http [port]`.
//
// As several instances behind a load balancer (docs/scale-out.md), as examples/everything does
// with `--redis <url>` and `--public-url <url>`: open the shared stores once per instance,
//   const shared = await openRedisStores({ url: "redis://:password@redis:6379", prefix: "weather" });
// pass `tasks: { store: shared.taskStore }, bus: shared.bus` and `requestState: { key, claims:
// shared.nonceClaims }` (one key for all instances, from configuration) to createWeatherExampleServer,
// and `eventStore: shared.eventStore`, `sessionDirectory: shared.sessionDirectory` plus the
// balancer's address as `allowedHosts` / `allowedOrigins` (the public URL clients use) to
// createStreamableHttpServer; once it listens, `shared.sessionDirectory.announce(url)`.
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { handlers } from "./handlers.js";
import { createWeatherExampleServer } from "./mcp/server.js";

const server = createWeatherExampleServer(handlers, { onerror: (e) => console.error(`weather: ${e.message}`) });

if (process.argv[2] === "--http") {
  const http = createStreamableHttpServer({
    port: Number(process.argv[3] ?? 0),
    onsession: async (transport) => void (await server.connect(transport)),
  });
  console.error(`weather example listening on ${(await http.listen()).href}`);
} else {
  const session = await server.connect(new StdioServerTransport());
  // Closes once stdin has ended and the requests read are answered (at most drainTimeoutMs later).
  session.onclose = () => process.exit(0);
}
