/** The timing loops: sequential calls, N calls in flight, latency percentiles, CPU per call. */
import { performance } from "node:perf_hooks";
import type { Harness } from "./harness.js";
import { cpuMicros } from "./proc.js";

export interface PhaseResult {
  calls: number;
  seconds: number;
  callsPerSec: number;
  p50Us: number;
  p99Us: number;
  /** Client process plus server process (one process in-process), per call. */
  cpuUsPerCall: number;
  clientCpuUsPerCall: number;
  serverCpuUsPerCall: number | null;
}

const MAX_SAMPLES = 1 << 20;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function ownCpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Runs `inFlight` independent call loops until `budgetMs` has passed (inFlight 1 = sequential),
 * or `maxCalls` have been made, then lets the calls already started finish. Every result is checked against a + b.
 */
export async function runPhase(
  h: Harness,
  inFlight: number,
  budgetMs: number,
  maxCalls = MAX_SAMPLES,
): Promise<PhaseResult> {
  const latencies = new Float64Array(MAX_SAMPLES);
  let n = 0;
  let failure: unknown;
  const serverPid = h.serverPid;
  const server0 = serverPid ? cpuMicros(serverPid) : 0;
  const client0 = ownCpuMicros();
  const start = performance.now();
  const deadline = start + budgetMs;

  const loop = async (lane: number) => {
    let i = lane;
    while (performance.now() < deadline && n < maxCalls && failure === undefined) {
      const a = i++;
      const b = 2;
      const t0 = performance.now();
      let sum: number;
      try {
        sum = await h.call(a, b);
      } catch (err) {
        failure ??= err;
        return;
      }
      latencies[n++] = performance.now() - t0;
      if (sum !== a + b) failure ??= new Error(`add(${a}, ${b}) returned ${sum}`);
    }
  };
  const lanes: Promise<void>[] = [];
  for (let lane = 0; lane < inFlight; lane++) lanes.push(loop(lane * 1_000_000));
  await Promise.all(lanes);

  const seconds = (performance.now() - start) / 1000;
  const clientCpu = ownCpuMicros() - client0;
  const serverCpu = serverPid ? cpuMicros(serverPid) - server0 : null;
  if (failure !== undefined) throw failure;
  const sorted = latencies.subarray(0, n).sort();
  return {
    calls: n,
    seconds,
    callsPerSec: n / seconds,
    p50Us: percentile(sorted, 0.5) * 1000,
    p99Us: percentile(sorted, 0.99) * 1000,
    cpuUsPerCall: (clientCpu + (serverCpu ?? 0)) / n,
    clientCpuUsPerCall: clientCpu / n,
    serverCpuUsPerCall: serverCpu === null ? null : serverCpu / n,
  };
}
