/**
 * Where the CPU of one Streamable HTTP `tools/call` goes, layer by layer (16 in flight, the `text`
 * variant, 2025-11-25 sessions). Each row is one client stack against one server child; rounds
 * rotate the rows; medians of CPU µs per call for this process (client) and the child (server):
 *   raw → raw          the baseline pair of `npm run bench` (node:http both ends)
 *   raw → mcpgen       the raw client against the generated server on createStreamableHttpServer:
 *                      the server's cost with the client held fixed
 *   transport → mcpgen StreamableHttpClientTransport with a bare id map (no session, no validation):
 *                      the HTTP client transport's cost
 *   typed → mcpgen     the generated typed client (what users run): the client session, lifecycle,
 *                      result/output validation and typed facade on top of the transport
 * The client's garbage collection per phase is printed beside: scavenge time per call and
 * mark-compacts (a client that promotes short-lived objects shows both; see README).
 * Usage: node dist/bench/http-layers.js [callsPerPhase=20000] [rounds=3]
 */
import type { ChildProcess } from "node:child_process";
import { PerformanceObserver, constants, type PerformanceEntry } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import { raw, rawHttpClient } from "./impl/raw.js";
import { mcpgen } from "./impl/mcpgen.js";
import { cpuMicros } from "./proc.js";
import { killAllChildrenOnExit, startHttpServer, stopChild } from "./children.js";
import { CLIENT_INFO, PROTOCOL_VERSION } from "./workload.js";
import type { Harness } from "./harness.js";
import { median } from "./stats.js";

killAllChildrenOnExit();
const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const IN_FLIGHT = 16;

/** The raw bench client pointed at any server child (the raw implementation owns its child). */
async function rawAgainst(server: "raw-http" | "mcpgen-http"): Promise<Harness> {
  if (server === "raw-http") return raw.http!({ variant: "text" });
  return rawHttpClient(await startHttpServer(server, ["text"]), "text");
}

/** Our client transport with a bare id map: no session layer, no validation. */
async function transportAgainstMcpgen(): Promise<Harness> {
  const server = await startHttpServer("mcpgen-http", ["text"]);
  const t = new StreamableHttpClientTransport({ url: server.url });
  // Slots by id, not a Map: a long-lived Map churned once per call promotes what it holds (see
  // InflightList in runtime/src/http-client/request.ts), which would charge the harness's garbage
  // to the transport. Ids are sequential and at most IN_FLIGHT are awaited at once.
  const waiting: (((m: { result?: { content?: { text?: string }[] }; error?: unknown }) => void) | undefined)[] =
    new Array(1024).fill(undefined);
  t.onmessage = (m) => {
    const msg = m as JSONRPCMessage & { id: number };
    const w = waiting[msg.id % 1024];
    waiting[msg.id % 1024] = undefined;
    w?.(msg as never);
  };
  await t.start();
  let nextId = 0;
  const rpc = (method: string, params: Record<string, unknown>) =>
    new Promise<{ result?: { content?: { text?: string }[] }; error?: unknown }>((resolve, reject) => {
      const id = ++nextId;
      waiting[id % 1024] = resolve;
      t.send({ jsonrpc: "2.0", id, method, params }).catch(reject);
    });
  await rpc("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
  t.setProtocolVersion(PROTOCOL_VERSION);
  await t.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    serverPid: server.child.pid,
    async call(a, b) {
      const r = await rpc("tools/call", { name: "add", arguments: { a, b } });
      const text = r.result?.content?.[0]?.text;
      if (text === undefined) throw new Error(`bad result ${JSON.stringify(r)}`);
      return Number(text);
    },
    async close() {
      await t.close();
      await stopChild(server.child as ChildProcess);
    },
  };
}

const ALL_ROWS: [string, () => Promise<Harness>][] = [
  ["raw → raw", () => rawAgainst("raw-http")],
  ["raw → mcpgen", () => rawAgainst("mcpgen-http")],
  ["transport → mcpgen", transportAgainstMcpgen],
  ["typed → mcpgen", () => mcpgen.http!({ variant: "text" })],
];
// HTTP_LAYERS_ROWS=0,3 keeps some rows (by index), e.g. to see whether one row's figures depend on the others.
const pick = process.env.HTTP_LAYERS_ROWS?.split(",").map(Number);
const ROWS = pick ? ALL_ROWS.filter((_, i) => pick.includes(i)) : ALL_ROWS;

// A full collection right after each row connects, as a long-running process has had by then: it
// moves everything live (the transport's and session's own collections included) to the old
// generation, where a collection churned per call behaves differently (see README, httpgc). Without
// it a row's figures depend on whether a mark-compact happened to run while it was connecting.
setFlagsFromString("--expose-gc");
const fullGc = runInNewContext("gc") as () => void;

/** This process's collections in the current phase: scavenge milliseconds and mark-compact count. */
const gc = { scavengeMs: 0, markCompacts: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.scavengeMs += e.duration;
    else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.markCompacts++;
  }
}).observe({ entryTypes: ["gc"] });

async function phase(
  h: Harness,
  calls: number,
): Promise<{ client: number; server: number; rate: number; gcUs: number; mc: number }> {
  let left = calls;
  const s0 = cpuMicros(h.serverPid!);
  await new Promise((r) => setImmediate(r));
  gc.scavengeMs = 0;
  gc.markCompacts = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) if ((await h.call(1, 2)) !== 3) throw new Error("wrong sum");
    }),
  );
  const ns = Number(process.hrtime.bigint() - t0);
  const c = process.cpuUsage(c0);
  const server = (cpuMicros(h.serverPid!) - s0) / calls;
  // GC entries arrive after the collection, in a later turn of the loop.
  await new Promise((r) => setImmediate(r));
  return {
    client: (c.user + c.system) / calls,
    server,
    rate: (calls / ns) * 1e9,
    gcUs: (gc.scavengeMs * 1000) / calls,
    mc: gc.markCompacts,
  };
}

const results = new Map<string, { client: number[]; server: number[]; rate: number[]; gcUs: number[]; mc: number[] }>();
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < ROWS.length; i++) {
    const [name, open] = ROWS[(i + r) % ROWS.length]!;
    const h = await open();
    fullGc();
    try {
      // node:http needs seconds of calls before CPU per call settles (see README).
      await phase(h, CALLS);
      const m = await phase(h, CALLS);
      const acc = results.get(name) ?? { client: [], server: [], rate: [], gcUs: [], mc: [] };
      acc.gcUs.push(m.gcUs);
      acc.mc.push(m.mc);
      acc.client.push(m.client);
      acc.server.push(m.server);
      acc.rate.push(m.rate);
      results.set(name, acc);
    } finally {
      await h.close();
    }
  }
}

console.log(
  `Streamable HTTP tools/call, ${IN_FLIGHT} in flight, ${CALLS} calls per phase, medians of ${ROUNDS} rounds`,
);
console.log(
  "client → server".padEnd(22),
  "client µs".padStart(10),
  "server µs".padStart(10),
  "calls/s".padStart(9),
  "client scavenge µs".padStart(19),
  "mark-compacts".padStart(14),
  "  (per round: client/server)",
);
for (const [name] of ROWS) {
  const m = results.get(name)!;
  const rounds = m.client.map((c, i) => `${c.toFixed(1)}/${m.server[i]!.toFixed(1)}`).join(" ");
  console.log(
    name.padEnd(22),
    median(m.client).toFixed(1).padStart(10),
    median(m.server).toFixed(1).padStart(10),
    median(m.rate).toFixed(0).padStart(9),
    median(m.gcUs).toFixed(2).padStart(19),
    String(median(m.mc)).padStart(14),
    `  ${rounds}`,
  );
}
process.exit(0);
