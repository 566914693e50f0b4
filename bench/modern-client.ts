// The 2026-07-28 stateless HTTP client path: 16 concurrent tools/call POSTs on 127.0.0.1 against
// one raw node:http 2026 JSON server, from a raw node:http keep-alive loop (baseline), mcpgen's
// McpClient over ModernHttpClientTransport (request-metadata headers, per-request _meta, result
// validation on), and the official SDK v2 client pinned to 2026-07-28. Medians over rounds.
// Usage: node dist/bench/modern-client.js [requests=4000] [rounds=3]
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { connectMcpClient } from "@mcpgen/runtime";
import { ModernHttpClientTransport } from "@mcpgen/runtime/http";
import { binding as b2026 } from "@mcpgen/runtime/protocol/2026-07-28";
import { median } from "./stats.js";

const N = Number(process.argv[2] ?? 4000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 16;
const VERSION = "2026-07-28";

const DISCOVER = {
  resultType: "complete",
  supportedVersions: [VERSION],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: "public",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw", version: "1" } },
};
const TOOLS = {
  resultType: "complete",
  ttlMs: 0,
  cacheScope: "public",
  tools: [
    { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
  ],
};
const CALL = { resultType: "complete", content: [{ type: "text", text: "3" }] };

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const m = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method: string };
    if (m.id === undefined) return void res.writeHead(202).end();
    const result = m.method === "server/discover" ? DISCOVER : m.method === "tools/list" ? TOOLS : CALL;
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

const meta = { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let rawId = 0;
function raw(): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: ++rawId,
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2 }, _meta: meta },
    });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      "mcp-method": "tools/call",
      "mcp-name": "add",
    };
    const req = http.request(url, { method: "POST", headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        JSON.parse(Buffer.concat(chunks).toString());
        resolve();
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const ours = await connectMcpClient(new ModernHttpClientTransport({ url }), {
  bindings: [b2026],
  clientInfo: { name: "bench", version: "1" },
});
const sdk = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: { pin: VERSION } } });
await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));

const impls: [string, () => Promise<unknown>][] = [
  ["raw node:http", raw],
  ["mcpgen McpClient", () => ours.callTool("add", { a: 1, b: 2 })],
  ["SDK v2 Client", () => sdk.callTool({ name: "add", arguments: { a: 1, b: 2 } })],
];

/** Requests per second, and CPU µs per request of this process (client plus the in-process server; steadier on a busy machine). */
async function rate(fn: () => Promise<unknown>): Promise<{ rps: number; cpuUs: number }> {
  let left = N;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await fn();
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: N / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / N };
}

const samples = new Map<string, { rps: number; cpuUs: number }[]>(impls.map(([name]) => [name, []]));
for (const [, fn] of impls) for (let i = 0; i < 300; i++) await fn();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of impls) samples.get(name)!.push(await rate(fn));
}
const rps = (name: string) => median(samples.get(name)!.map((x) => x.rps));
const cpu = (name: string) => median(samples.get(name)!.map((x) => x.cpuUs));
const base = rps("raw node:http");
process.stdout.write(
  `2026-07-28 stateless HTTP, ${CONCURRENCY} concurrent tools/call, ${N} requests x ${ROUNDS} rounds (median)\n`,
);
for (const [name] of impls) {
  process.stdout.write(
    `  ${name.padEnd(18)} ${rps(name).toFixed(0).padStart(7)} req/s   ${(rps(name) / base).toFixed(2)}x raw   ${cpu(name).toFixed(0).padStart(5)} CPU µs/request (client + server)\n`,
  );
}
await ours.close();
await sdk.close();
agent.destroy();
server.close();
