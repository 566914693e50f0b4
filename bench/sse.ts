/**
 * SSE replies on a stateful Streamable HTTP session: 16 concurrent `tools/call` POSTs in one
 * 2025-11-25 session, each answered as an SSE stream (one `message` event), against a raw
 * node:http server that writes the same event; mcpgen with its defaults (an in-memory event
 * store: a priming event and an event id per message) and without an event store. Each server
 * warmed until steady (warm-http.ts), rounds rotated, medians of calls/s and of server CPU per call.
 * Target: mcpgen ≥ 0.75x raw. The load generator is socket-load.ts (its CPU share printed per row);
 * BENCH_CLIENT=agent uses node:http's client instead. `node dist/bench/sse.js` (BENCH_ROUNDS,
 * BENCH_PHASE_MS, BENCH_WARM_*, BENCH_CLIENT).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { CLIENT_INFO, PROTOCOL_VERSION } from "./workload.js";
import { socketLoad } from "./socket-load.js";
import { sessionCalls, sseResponse } from "./http-calls.js";
import { median } from "./stats.js";
import { cpuMicros } from "./proc.js";
import { warmUntilSteady } from "./warm-http.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 2000);
const CONCURRENCY = 16;
const serverJs = fileURLToPath(new URL("./servers/sse-http.js", import.meta.url));
const KINDS = ["raw", "mcpgen", "mcpgen-nostore"] as const;

async function start(kind: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [serverJs, kind], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (c) => reject(new Error(`${kind} server exited (${c})`)));
  });
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

function post(
  agent: Agent,
  port: number,
  message: object,
  sid: string | undefined,
): Promise<{ sid: string | undefined; body: string }> {
  const body = JSON.stringify(message);
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "content-length": Buffer.byteLength(body),
  };
  if (sid !== undefined) headers["mcp-session-id"] = sid;
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ sid: res.headers["mcp-session-id"] as string | undefined, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function session(agent: Agent, port: number): Promise<string> {
  const init = await post(
    agent,
    port,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    },
    undefined,
  );
  if (init.sid === undefined) throw new Error("no session id");
  await post(agent, port, { jsonrpc: "2.0", method: "notifications/initialized" }, init.sid);
  return init.sid;
}

let done = 0;
let loadCpu = 0;
const AGENT_CLIENT = process.env.BENCH_CLIENT === "agent";
let nextId = 1;

/** Calls/s over `ms` in a new session; `done` is set to the calls answered, `loadCpu` to the load generator's CPU share. */
async function measure(port: number, ms: number): Promise<number> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (AGENT_CLIENT) await measureAgent(port, ms);
  else {
    done = await socketLoad(await sessionCalls(port, CONCURRENCY), ms, nextId);
    nextId += done + CONCURRENCY;
  }
  const used = process.cpuUsage(cpu0);
  loadCpu = (used.user + used.system) / 1000 / (performance.now() - t0);
  return (done * 1000) / ms;
}

async function measureAgent(port: number, ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const sid = await session(agent, port);
  let id = 0;
  done = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const n = ++id;
        const r = await post(
          agent,
          port,
          { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "add", arguments: { a: n, b: 1 } } },
          sid,
        );
        const m = sseResponse(r.body);
        if (m.id !== n || m.result?.content?.[0]?.text !== String(n + 1))
          throw new Error(`bad reply ${JSON.stringify(m)}`);
        done++;
      }
    }),
  );
  agent.destroy();
  return (done * 1000) / ms;
}

function verdict(byRate: number, byCpu: number): string {
  const met = [byRate >= 0.75 ? "calls/s" : undefined, byCpu >= 0.75 ? "server CPU" : undefined].filter(Boolean);
  return met.length === 0 ? "neither meets it" : `met by ${met.join(" and ")}`;
}

const rates: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
const cpu: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
const gen: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
const warmed: Record<string, number[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < KINDS.length; k++) {
    const kind = KINDS[(k + r) % KINDS.length]!;
    const { child, port } = await start(kind);
    warmed[kind]!.push(await warmUntilSteady(kind, child.pid!, (ms) => measure(port, ms).then(() => done)));
    const before = cpuMicros(child.pid!);
    rates[kind]!.push(await measure(port, PHASE_MS));
    cpu[kind]!.push((cpuMicros(child.pid!) - before) / done);
    gen[kind]!.push(loadCpu);
    child.stdin!.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}
process.stdout.write(
  `SSE replies, stateful session, ${CONCURRENCY} concurrent tools/call, median of ${ROUNDS} rounds x ${PHASE_MS} ms, load generator ${AGENT_CLIENT ? "node:http Agent" : "socket-load.ts"}\n`,
);
const raw = median(rates.raw!);
const rawCpu = median(cpu.raw!);
const LABELS = { raw: "raw node:http", mcpgen: "mcpgen (event store)", "mcpgen-nostore": "mcpgen (no event store)" };
for (const kind of KINDS) {
  const rate = median(rates[kind]!);
  const us = median(cpu[kind]!);
  const ratio =
    kind === "raw"
      ? ""
      : `  (${(rate / raw).toFixed(2)}x raw calls/s, ${(rawCpu / us).toFixed(2)}x raw by CPU; target ≥ 0.75x: ${verdict(rate / raw, rawCpu / us)})`;
  const load = `  load generator CPU ${(median(gen[kind]!) * 100).toFixed(0)}%, warmed ${(median(warmed[kind]!) / 1000).toFixed(1)} s`;
  process.stdout.write(
    `  ${LABELS[kind].padEnd(24)} ${rate.toFixed(0)} calls/s  server CPU ${us.toFixed(0)} µs/call${ratio}${load}\n`,
  );
}
