/**
 * One measurement in a fresh process, so implementations never share a heap, JIT state or
 * event loop (except the stdio start rows, whose clients take turns in one process so that each
 * round's samples are paired; their servers are fresh processes). Prints one JSON line on stdout.
 *   scenario.js <impl> <inproc|stdio|http> <variant> <phaseMs> <inFlight>
 *   scenario.js <impl>[,<impl>...] spawn <variant> <count>   (bench/spawn.ts: the implementations interleaved)
 */
import { performance } from "node:perf_hooks";
import { loadImplementation } from "./impl/index.js";
import type { Harness, Implementation } from "./harness.js";
import { runPhase } from "./measure.js";
import { killAllChildrenOnExit } from "./children.js";
import { measureSpawns } from "./spawn.js";
import { IMPLS, parseVariant, type ImplName } from "./workload.js";

killAllChildrenOnExit();
// Started with --no-warnings: warnings (e.g. an SDK leaking abort listeners) are collected and
// reported once in the result instead of flooding the terminal.
const warnings = new Map<string, number>();
process.on("warning", (w) => {
  const key = `${w.name}: ${w.message.replace(/\d+/g, "N")}`;
  warnings.set(key, (warnings.get(key) ?? 0) + 1);
});
const [implArg, mode, variantArg, a4, a5] = process.argv.slice(2);
const implNames = (mode === "spawn" ? (implArg ?? "").split(",") : [implArg ?? ""]) as ImplName[];
for (const name of implNames) if (!IMPLS.includes(name)) throw new Error(`unknown implementation ${name}`);
const variant = parseVariant(variantArg);
const out = (value: object) =>
  process.stdout.write(
    JSON.stringify(warnings.size > 0 ? { ...value, warnings: Object.fromEntries(warnings) } : value) + "\n",
  );

async function main(): Promise<void> {
  if (mode === "spawn") {
    const impls = new Map<ImplName, Implementation>();
    const missing: Record<string, string> = {};
    for (const name of implNames) {
      try {
        const impl = await loadImplementation(name);
        if (impl.spawnInitialized) impls.set(name, impl);
        else missing[name] = `${name} has no stdio server`;
      } catch (err) {
        missing[name] = `cannot load ${name}: ${(err as Error).message}`;
      }
    }
    out({ spawns: await measureSpawns(impls, variant, Number(a4)), missing });
    return;
  }

  let impl: Implementation;
  try {
    impl = await loadImplementation(implArg as ImplName);
  } catch (err) {
    out({ missing: `cannot load ${implArg}: ${(err as Error).message}` });
    return;
  }

  if (mode !== "inproc" && mode !== "stdio" && mode !== "http") throw new Error(`unknown mode ${mode}`);
  const phaseMs = Number(a4);
  const inFlight = Number(a5);
  // Over stdio both processes keep optimising for tens of thousands of calls (BENCH_WARM_TRACE=1
  // showed CPU per call settling after 20k-30k calls for the mcpgen pair, both eras, 11k-25k for
  // raw, on the shared machine): a warm-up of 4000 measured mcpgen still half compiled.
  const warmCalls = Number(process.env.BENCH_WARM_CALLS ?? (mode === "stdio" ? 30000 : 4000));
  // node:http needs seconds of calls before it reaches steady state (CPU per call falls ~7x).
  const warmMaxMs = Number(process.env.BENCH_WARM_MS ?? (mode === "http" ? 4000 : mode === "stdio" ? 8000 : 1500));
  const open = impl[mode];
  if (!open) {
    out({ missing: `${implArg} does not run over ${mode}` });
    return;
  }
  const h = await open.call(impl, { variant });
  try {
    await warmUp(h, inFlight, warmCalls, warmMaxMs);
    const sequential = await runPhase(h, 1, phaseMs);
    const concurrent = await runPhase(h, inFlight, phaseMs);
    out(h.revision === undefined ? { sequential, concurrent } : { sequential, concurrent, revision: h.revision });
  } finally {
    await h.close();
  }
}

/**
 * Warm-up until steady: the JIT needs calls, not time, and the HTTP stack needs seconds. Runs
 * short concurrent + sequential rounds until at least `minCalls` were made and, in two
 * consecutive rounds, both phases' CPU per call (client + server, steadier than calls/s on a
 * shared machine) agree within 10%, or `maxMs` has passed. BENCH_WARM_TRACE=1 prints every round
 * to stderr (calls so far, calls/s and CPU µs per call of each phase), to see where a pair settles.
 */
async function warmUp(h: Harness, inFlight: number, minCalls: number, maxMs: number): Promise<void> {
  const trace = process.env.BENCH_WARM_TRACE === "1";
  const start = performance.now();
  let calls = 0;
  let lastSeq = 0;
  let lastConc = 0;
  const near = (x: number, last: number) => last > 0 && Math.abs(x - last) <= 0.1 * last;
  while (performance.now() - start < maxMs) {
    const conc = await runPhase(h, inFlight, 150);
    const seq = await runPhase(h, 1, 150);
    calls += conc.calls + seq.calls;
    if (trace)
      process.stderr.write(
        `warm ${implArg} ${mode} ${variantArg} ${calls} calls: seq ${seq.callsPerSec.toFixed(0)}/s ${seq.cpuUsPerCall.toFixed(1)} µs, ` +
          `conc ${conc.callsPerSec.toFixed(0)}/s ${conc.cpuUsPerCall.toFixed(1)} µs\n`,
      );
    const steady = near(seq.cpuUsPerCall, lastSeq) && near(conc.cpuUsPerCall, lastConc);
    if (calls >= minCalls && steady) return;
    lastSeq = seq.cpuUsPerCall;
    lastConc = conc.cpuUsPerCall;
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    out({ error: String((err as Error)?.stack ?? err) });
    process.exit(1);
  },
);
