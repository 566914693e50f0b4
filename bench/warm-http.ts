/**
 * Warm-up until steady for the HTTP benches that start one server process per kind (sse.ts,
 * stateless.ts), as scenario.ts warms its pairs: phases of BENCH_WARM_PHASE_MS (1000), each on new
 * connections as the measured phase is, until at least BENCH_WARM_MIN_MS (3000) have passed and the
 * server CPU per call of the last two phases agrees within 10%, or BENCH_WARM_MS (12 000) have.
 * Why: new connections deoptimise node's HTTP functions (and the runtime's Host check) once, and
 * TurboFan compiles them again over the next thousands of calls; a fixed 1.5 s warm-up then
 * measured the runtime with part of its code still unoptimised: on the SSE bench, mcpgen's CPU per
 * call fell 25-30% over the three phases after it, raw's 15-20%. BENCH_WARM_TRACE=1 prints every
 * phase to stderr.
 */
import { cpuMicros } from "./proc.js";

const MAX_MS = Number(process.env.BENCH_WARM_MS ?? 12_000);
const MIN_MS = Number(process.env.BENCH_WARM_MIN_MS ?? 3000);
const PHASE_MS = Number(process.env.BENCH_WARM_PHASE_MS ?? 1000);

/** Runs `phase` (calls for `ms` on new connections; resolves to the calls answered) until `pid`'s server is steady; resolves to the ms taken. */
export async function warmUntilSteady(
  kind: string,
  pid: number,
  phase: (ms: number) => Promise<number>,
): Promise<number> {
  const t0 = performance.now();
  let last = 0;
  for (let n = 0; performance.now() - t0 < MAX_MS; n++) {
    const before = cpuMicros(pid);
    const calls = await phase(PHASE_MS);
    const us = (cpuMicros(pid) - before) / calls;
    if (process.env.BENCH_WARM_TRACE === "1")
      process.stderr.write(
        `warm ${kind} phase ${n}: ${((calls * 1000) / PHASE_MS).toFixed(0)} calls/s, ${us.toFixed(1)} µs/call\n`,
      );
    if (performance.now() - t0 >= MIN_MS && last > 0 && Math.abs(us - last) <= 0.1 * last) break;
    last = us;
  }
  return performance.now() - t0;
}
