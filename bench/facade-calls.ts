// Benchmark: the cost of the generated server/client facades per tool call, in process (memory
// transport): the weather example's `searchStations` through the generated client and server
// (argument + output validation, result shaping) against the same call through bare sessions.
// Run: npx tsc -b && node dist/bench/facade-calls.js [calls]
import { createMemoryTransportPair } from "@mcpgen/runtime";
import { connectClient, createServerSession } from "@mcpgen/runtime/internal";
import { bindings } from "../examples/weather/src/mcp/bindings.js";
import { handlers } from "../examples/weather/src/handlers.js";
import { createWeatherExampleClient } from "../examples/weather/src/mcp/client.js";
import { createWeatherExampleServer } from "../examples/weather/src/mcp/server.js";

const calls = Number(process.argv[2] ?? 20_000);
const clientInfo = { name: "bench", version: "1" };

async function timed(label: string, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2000; i++) await call(); // warm up
  const start = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const ms = performance.now() - start;
  const perSecond = (calls / ms) * 1000;
  console.log(`${label}: ${perSecond.toFixed(0)} calls/s (${((ms * 1000) / calls).toFixed(1)} µs/call)`);
  return perSecond;
}

const server = createWeatherExampleServer(handlers);
const [ct, st] = createMemoryTransportPair();
await server.connect(st);
const weather = await createWeatherExampleClient(ct, { clientInfo });
const generated = await timed("generated client -> generated server", () =>
  weather.tools.searchStations({ name: "o" }),
);
// The bare server answers with the very result the generated one sends.
const result = await weather.callTool("search_stations", { name: "o" });
await weather.close();

const [rc, rs] = createMemoryTransportPair();
await createServerSession({
  transport: rs,
  bindings,
  serverInfo: clientInfo,
  capabilities: { tools: {} },
  handlers: { "tools/call": () => result },
});
const raw = await connectClient({ transport: rc, bindings, clientInfo });
const bare = await timed("bare sessions (no facades)", () =>
  raw.request("tools/call", { name: "search_stations", arguments: { name: "o" } }),
);
await raw.close();
console.log(`facades keep ${((generated / bare) * 100).toFixed(0)}% of the bare session throughput`);
