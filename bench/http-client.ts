// POST round trips on 127.0.0.1: Node's fetch vs node:http with a keep-alive Agent, against a
// raw node:http JSON echo server (and our Streamable HTTP client/server pair for scale).
// Usage: node dist/bench/http-client.js [requests=4000] [rounds=3]
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { createStreamableHttpServer, StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import { median } from "./stats.js";

const N = Number(process.argv[2] ?? 4000);
const ROUNDS = Number(process.argv[3] ?? 3);
const body = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "add", arguments: { a: 1, b: 2 } },
});

const rawServer = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const m = JSON.parse(Buffer.concat(chunks).toString()) as { id: number };
    const out = JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "3" }] } });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(out);
  });
});
await new Promise<void>((r) => rawServer.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(rawServer.address() as AddressInfo).port}/mcp`;

const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function viaFetch(): Promise<void> {
  const r = await fetch(url, { method: "POST", headers, body });
  await r.json();
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function viaHttp(target: string = url, h: Record<string, string> = headers): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method: "POST", headers: h, agent }, (res) => {
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

// Our transports end to end (server answers from a raw JSON-RPC echo "session").
const ours = createStreamableHttpServer({
  onsession: (t) => {
    t.onmessage = (m) => {
      const msg = m as JSONRPCMessage;
      if ("id" in msg && "method" in msg)
        void t.send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "3" }] } });
    };
  },
  keepAliveMs: 0,
});
const oursUrl = await ours.listen();
const client = new StreamableHttpClientTransport({ url: oursUrl, openGetStream: false });
const waiting = new Map<number, () => void>();
client.onmessage = (m) => {
  const id = (m as { id: number }).id;
  waiting.get(id)?.();
  waiting.delete(id);
};
await client.start();
await client.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} });
let nextId = 1;
// The same raw node:http client against our server (isolates the server's cost).
const oursHeaders = { ...headers, "mcp-session-id": client.sessionId!, "mcp-protocol-version": "2025-11-25" };
const viaHttpToOurs = (): Promise<void> => viaHttp(oursUrl.href, oursHeaders);
function viaOurs(): Promise<void> {
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    waiting.set(id, resolve);
    client
      .send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } })
      .catch(reject);
  });
}

async function run(fn: () => Promise<void>, concurrency: number): Promise<number> {
  let left = N;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await fn();
    }),
  );
  return (N / Number(process.hrtime.bigint() - t0)) * 1e9;
}

const rows: [string, number, number][] = [];
for (const [name, fn] of [
  ["fetch (undici)", viaFetch],
  ["node:http keep-alive", () => viaHttp()],
  ["node:http → mcpgen server", viaHttpToOurs],
  ["mcpgen client+server", viaOurs],
] as const) {
  await run(fn, 1); // warm-up
  const seq: number[] = [];
  const par: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    seq.push(await run(fn, 1));
    par.push(await run(fn, 16));
  }
  rows.push([name, median(seq), median(par)]);
}
console.log(`POST round trips on 127.0.0.1, ${N} requests, median of ${ROUNDS} rounds (req/s)`);
console.log("client".padEnd(28), "sequential".padStart(12), "16 in flight".padStart(14));
for (const [name, s, p] of rows) console.log(name.padEnd(28), s.toFixed(0).padStart(12), p.toFixed(0).padStart(14));
const f = rows[0]!;
const h = rows[1]!;
const s = rows[2]!;
const o = rows[3]!;
console.log(`fetch / node:http: sequential ${(f[1] / h[1]).toFixed(2)}x, 16 in flight ${(f[2] / h[2]).toFixed(2)}x`);
console.log(
  `mcpgen server / raw server (same node:http client): sequential ${(s[1] / h[1]).toFixed(2)}x, 16 in flight ${(s[2] / h[2]).toFixed(2)}x`,
);
console.log(
  `mcpgen client+server / raw client+server: sequential ${(o[1] / h[1]).toFixed(2)}x, 16 in flight ${(o[2] / h[2]).toFixed(2)}x`,
);

await client.close();
await ours.close();
agent.destroy();
rawServer.closeAllConnections();
rawServer.close();
