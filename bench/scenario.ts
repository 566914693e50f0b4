/**
 * One measurement in a fresh process, so implementations never share a heap, JIT state or
 * event loop. Prints one JSON line on stdout.
 *   scenario.js <impl> <inproc|stdio|http> <variant> <phaseMs> <inFlight>
 *   scenario.js <impl> spawn <variant> <count>
 */
import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import { loadImplementation } from "./impl/index.js";
import { runPhase } from "./measure.js";
import { killAllChildrenOnExit } from "./children.js";
import { rssKiB } from "./proc.js";
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
if (!IMPLS.includes(implArg as ImplName)) throw new Error(`unknown implementation ${implArg}`);
const variant = parseVariant(variantArg);
const out = (value: object) =>
  process.stdout.write(JSON.stringify(warnings.size > 0 ? { ...value, warnings: Object.fromEntries(warnings) } : value) + "\n");

async function main(): Promise<void> {
  let impl;
  try {
    impl = await loadImplementation(implArg as ImplName);
  } catch (err) {
    out({ missing: `cannot load ${implArg}: ${(err as Error).message}` });
    return;
  }

  if (mode === "spawn") {
    const count = Number(a4);
    const startMs: number[] = [];
    const idleRssKiB: number[] = [];
    // The first spawn also loads the client library in this process; it is not counted.
    await (await impl.spawnInitialized({ variant })).close();
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const session = await impl.spawnInitialized({ variant });
      startMs.push(performance.now() - t0);
      await sleep(300);
      idleRssKiB.push(rssKiB(session.serverPid));
      await session.close();
    }
    out({ startMs, idleRssKiB });
    return;
  }

  if (mode !== "inproc" && mode !== "stdio" && mode !== "http") throw new Error(`unknown mode ${mode}`);
  const phaseMs = Number(a4);
  const inFlight = Number(a5);
  const warmCalls = Number(process.env.BENCH_WARM_CALLS ?? 4000);
  const warmMaxMs = Number(process.env.BENCH_WARM_MS ?? 1200);
  const h = await impl[mode]({ variant });
  try {
    // Warm-up by call count (the JIT needs calls, not time), bounded in time for slow implementations.
    await runPhase(h, inFlight, warmMaxMs, warmCalls);
    await runPhase(h, 1, warmMaxMs / 2, warmCalls / 2);
    const sequential = await runPhase(h, 1, phaseMs);
    const concurrent = await runPhase(h, inFlight, phaseMs);
    out({ sequential, concurrent });
  } finally {
    await h.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    out({ error: String((err as Error)?.stack ?? err) });
    process.exit(1);
  },
);
