/**
 * The 2026-07-28 stateless HTTP path: 16 concurrent `tools/call` POSTs (modern headers and
 * `_meta`, keep-alive agent) against a raw node:http baseline, mcpgen's server on the node:http
 * handler and on the fetch handler (behind the node:http bridge SDK v2 gets, through
 * toNodeListener, and on @hono/node-server) and SDK v2's web-standard modern path
 * (createMcpHandler, behind the bridge and through its own Node adapter, @modelcontextprotocol/node's
 * toNodeHandler), and the bridge's own floor; then the fetch handler, SDK v2's
 * createMcpHandler and a fixed-answer floor served by Bun.serve (a Bun child process, native
 * Request/Response, the same Node load generator), rounds rotated, medians of calls/s and of server CPU per
 * call, each server warmed until steady (warm-http.ts). The load generator is socket-load.ts (prepared requests on raw keep-alive sockets; its own
 * CPU share is printed per row: near 100% it, not the server, caps calls/s); BENCH_CLIENT=agent
 * uses node:http's client with a keep-alive Agent instead, as earlier runs did.
 * `node dist/bench/stateless.js` (BENCH_ROUNDS, BENCH_PHASE_MS, BENCH_WARM_*, BENCH_KINDS, BENCH_CLIENT).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { socketLoad } from "./socket-load.js";
import { META, MODERN_HEADERS as HEADERS, modernCalls } from "./http-calls.js";
import { median } from "./stats.js";
import { cpuMicros } from "./proc.js";
import { warmUntilSteady } from "./warm-http.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 2000);
const CONCURRENCY = 16;
const serverJs = fileURLToPath(new URL("./servers/stateless-http.js", import.meta.url));
const bunServerJs = fileURLToPath(new URL("./servers/stateless-bun.js", import.meta.url));
/** The bun npm package's binary (a dev dependency), for the rows served by Bun.serve. */
const bunBin = fileURLToPath(new URL("../../node_modules/.bin/bun", import.meta.url));

async function start(kind: string): Promise<{ child: ChildProcess; port: number }> {
  const child = kind.startsWith("bun-")
    ? spawn(bunBin, [bunServerJs, kind.slice("bun-".length)], { stdio: ["pipe", "pipe", "inherit"] })
    : spawn(process.execPath, [serverJs, kind], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (c) => reject(new Error(`${kind} server exited (${c})`)));
  });
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

function call(agent: Agent, port: number, id: number): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "add", arguments: { a: id, b: 1 }, _meta: META },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        agent,
        headers: { ...HEADERS, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const m = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          // resultType is not required here: SDK v2 2.4.0 leaves it out of tools/call results.
          if (m.result?.content?.[0]?.text !== String(id + 1)) reject(new Error(`bad reply ${JSON.stringify(m)}`));
          else resolve();
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const AGENT_CLIENT = process.env.BENCH_CLIENT === "agent";
let nextId = 0;

/** Calls/s over `ms`; `done` is set to the calls answered and `loadCpu` to the load generator's CPU share. */
async function measure(port: number, ms: number): Promise<number> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rate = AGENT_CLIENT ? await measureAgent(port, ms) : await measureSockets(port, ms);
  const used = process.cpuUsage(cpu0);
  loadCpu = (used.user + used.system) / 1000 / (performance.now() - t0);
  return rate;
}

async function measureSockets(port: number, ms: number): Promise<number> {
  done = await socketLoad(modernCalls(port, CONCURRENCY), ms, nextId);
  nextId += done + CONCURRENCY;
  return (done * 1000) / ms;
}

async function measureAgent(port: number, ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let id = 0;
  done = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        await call(agent, port, ++id);
        done++;
      }
    }),
  );
  agent.destroy();
  return (done * 1000) / ms;
}

let done = 0;
let loadCpu = 0;
const ALL_KINDS = [
  "raw",
  "bridge",
  "mcpgen",
  "fetch",
  "fetch-listener",
  "fetch-hono",
  "sdk2",
  "sdk2-node",
  "bun-floor",
  "bun-fetch",
  "bun-sdk2",
] as const;
const KINDS = process.env.BENCH_KINDS
  ? ALL_KINDS.filter((k) => k === "raw" || process.env.BENCH_KINDS!.split(",").includes(k))
  : ALL_KINDS;
const results: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
/** Server CPU µs per call: steadier than calls/s on a shared machine. */
const cpu: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
/** The load generator's CPU share during each phase (1 = a whole core). */
const gen: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
const warmed: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  // Rotate the order each round, so no implementation always runs first.
  for (let k = 0; k < KINDS.length; k++) {
    const kind = KINDS[(k + r) % KINDS.length]!;
    const { child, port } = await start(kind);
    warmed[kind]!.push(await warmUntilSteady(kind, child.pid!, (ms) => measure(port, ms).then(() => done)));
    const before = cpuMicros(child.pid!);
    results[kind]!.push(await measure(port, PHASE_MS));
    cpu[kind]!.push((cpuMicros(child.pid!) - before) / done);
    gen[kind]!.push(loadCpu);
    child.stdin!.end();
    await new Promise((r) => child.once("exit", r));
  }
}
process.stdout.write(
  `stateless 2026-07-28 HTTP, ${CONCURRENCY} concurrent tools/call, median of ${ROUNDS} rounds x ${PHASE_MS} ms, load generator ${AGENT_CLIENT ? "node:http Agent" : "socket-load.ts"}\n`,
);
const raw = median(results.raw!);
const rawCpu = median(cpu.raw!);
const LABELS: Record<(typeof ALL_KINDS)[number], string> = {
  raw: "raw node:http",
  bridge: "bridge floor (fixed answer)",
  mcpgen: "mcpgen node:http handler",
  fetch: "mcpgen fetch handler (bridge)",
  "fetch-listener": "mcpgen fetch handler (toNodeListener)",
  "fetch-hono": "mcpgen fetch handler (@hono/node-server)",
  sdk2: "SDK v2 2.4.0 web-standard (bridge)",
  "sdk2-node": "SDK v2 2.4.0 web-standard (its toNodeHandler)",
  "bun-floor": "Bun.serve floor (fixed answer)",
  "bun-fetch": "mcpgen fetch handler (Bun.serve)",
  "bun-sdk2": "SDK v2 2.4.0 web-standard (Bun.serve)",
};
for (const kind of KINDS) {
  const rate = median(results[kind]!);
  const us = median(cpu[kind]!);
  const ratio =
    kind === "raw" ? "" : `  (${(rate / raw).toFixed(2)}x raw calls/s, ${(rawCpu / us).toFixed(2)}x raw by CPU)`;
  const load = `  load generator CPU ${(median(gen[kind]!) * 100).toFixed(0)}%, warmed ${(median(warmed[kind]!) / 1000).toFixed(1)} s`;
  process.stdout.write(
    `  ${LABELS[kind].padEnd(42)} ${rate.toFixed(0)} calls/s  server CPU ${us.toFixed(0)} µs/call${ratio}${load}\n`,
  );
}
// The issue's targets, same run: the fetch handler against SDK v2's web-standard server behind the
// same bridge, and the fetch handler on Node against the node:http handler. Each by calls/s and by
// server CPU per call (the steadier reading on a shared machine), saying which meets the target.
const rateOf = (k: string) => (results[k] ? median(results[k]!) : NaN);
const cpuOf = (k: string) => (cpu[k] ? median(cpu[k]!) : NaN);
const line = (what: string, a: string, b: string, target: number) => {
  const r = rateOf(a) / rateOf(b);
  const c = cpuOf(b) / cpuOf(a);
  if (!Number.isFinite(r)) return;
  const met = [r >= target ? "calls/s" : undefined, c >= target ? "server CPU" : undefined].filter(Boolean);
  const verdict = met.length === 0 ? "neither meets it" : `met by ${met.join(" and ")}`;
  process.stdout.write(
    `  ${what}: ${r.toFixed(2)}x by calls/s, ${c.toFixed(2)}x by server CPU (target ≥ ${target}x: ${verdict})\n`,
  );
};
line("fetch handler (bridge) / SDK v2 web-standard (bridge)", "fetch", "sdk2", 5);
line("fetch handler / SDK v2 web-standard, both on Bun.serve", "bun-fetch", "bun-sdk2", 5);
// On Node each as its own docs host it: mcpgen's toNodeListener, SDK v2's @modelcontextprotocol/node.
line("fetch handler (toNodeListener) / SDK v2 web-standard (its toNodeHandler)", "fetch-listener", "sdk2-node", 5);
for (const k of ["fetch", "fetch-listener", "fetch-hono"])
  line(`${LABELS[k as "fetch"]} / node:http handler`, k, "mcpgen", 0.85);
// What each pays above the bridge, by server CPU: the handlers' own cost, without the host's.
const floor = cpuOf("bridge");
const above = (cpuOf("sdk2") - floor) / (cpuOf("fetch") - floor);
// On a loaded machine the floor's own spread can exceed what the handler adds: then there is no ratio to tell.
if (Number.isFinite(above) && cpuOf("fetch") > floor)
  process.stdout.write(`  server CPU above the bridge floor, SDK v2 / fetch handler: ${above.toFixed(2)}x\n`);
else if (Number.isFinite(above))
  process.stdout.write(
    "  server CPU above the bridge floor: not measurable in this run (the floor's spread exceeds the handler's cost)\n",
  );
