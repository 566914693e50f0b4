/**
 * Two builds of one server measured at the same moments, for a change too small to see on a shared
 * machine otherwise: servers A and B (the same bench server script of two checkouts, e.g. one built
 * before a change) run side by side, each loaded by its own socket-load.ts generator at once, for
 * `BENCH_PHASES` (10) phases of `BENCH_PHASE_MS` (1000); per phase, each server's CPU µs per call
 * (/proc/<pid>/task/*\/schedstat) and B/A. Whatever else loads the machine loads both alike, so the
 * median of B/A holds where the two rows' own figures swing by 2x.
 *   node dist/bench/paired.js stateless|sse <kind> <A/dist/bench/servers/x.js> <B/...x.js> [bun]
 * stateless: 2026-07-28 tools/call (stateless-http.js, stateless-bun.js); sse: a 2025-11-25 session
 * answered as SSE (sse-http.js). `bun` runs the servers with the bun dev dependency's binary.
 * `<kind A>,<kind B>` runs two kinds of one script against each other (`sse raw,mcpgen x.js x.js`:
 * mcpgen's SSE replies against raw node:http's, at the same moments).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { socketLoad, type SocketLoadOptions } from "./socket-load.js";
import { modernCalls, sessionCalls } from "./http-calls.js";
import { cpuMicros } from "./proc.js";
import { median } from "./stats.js";

const [workload, kind, serverA, serverB, runtime] = process.argv.slice(2);
if ((workload !== "stateless" && workload !== "sse") || !kind || !serverA || !serverB)
  throw new Error("usage: paired.js stateless|sse <kind> <server A .js> <server B .js> [bun]");
const PHASES = Number(process.env.BENCH_PHASES ?? 10);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 1000);
const CONCURRENCY = 16;
const bin =
  runtime === "bun" ? fileURLToPath(new URL("../../node_modules/.bin/bun", import.meta.url)) : process.execPath;

const [kindA, kindB = kindA] = kind.split(",") as [string, string?];

async function start(script: string, kind: string): Promise<{ child: ChildProcess; calls: SocketLoadOptions }> {
  const child = spawn(bin, [script, kind], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (c) => reject(new Error(`${script} exited (${c})`)));
  });
  const port = (JSON.parse(line) as { port: number }).port;
  const calls = workload === "sse" ? await sessionCalls(port, CONCURRENCY) : modernCalls(port, CONCURRENCY);
  return { child, calls };
}

const a = await start(serverA, kindA);
const b = await start(serverB, kindB!);
try {
  let id = 1;
  // Warm-up: both compilers settle before anything is counted.
  await Promise.all([socketLoad(a.calls, 1500, id), socketLoad(b.calls, 1500, 1e9)]);
  const usA: number[] = [];
  const usB: number[] = [];
  for (let p = 0; p < PHASES; p++) {
    const a0 = cpuMicros(a.child.pid!);
    const b0 = cpuMicros(b.child.pid!);
    id += 1e6;
    const [doneA, doneB] = await Promise.all([
      socketLoad(a.calls, PHASE_MS, id),
      socketLoad(b.calls, PHASE_MS, id + 1e9),
    ]);
    usA.push((cpuMicros(a.child.pid!) - a0) / doneA);
    usB.push((cpuMicros(b.child.pid!) - b0) / doneB);
  }
  const ratios = usB.map((x, i) => x / usA[i]!);
  const range = (xs: number[], d: number) => `${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)}`;
  process.stdout.write(
    `${workload} ${kind}${runtime === "bun" ? " on Bun" : ""}, ${PHASES} phases x ${PHASE_MS} ms, server CPU µs/call: ` +
      `A ${median(usA).toFixed(1)} [${range(usA, 1)}], B ${median(usB).toFixed(1)} [${range(usB, 1)}]; ` +
      `B/A median ${median(ratios).toFixed(3)} [${range(ratios, 2)}]\n`,
  );
} finally {
  for (const s of [a, b]) s.child.stdin!.end();
}
