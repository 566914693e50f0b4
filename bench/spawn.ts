/**
 * Stdio start, measured for several implementations in one process, spawn by spawn in rotating
 * order: drift on a shared machine (another process's build, a burst of load) then hits every
 * implementation alike, and each round gives one sample per implementation taken moments apart,
 * so their ratio is paired. Per spawn: spawn → initialized (the client has sent
 * `notifications/initialized`, or has the 2026-07-28 `server/discover` answer), the server's CPU
 * time until then (every thread, from /proc: steadier than wall time under load), and its VmRSS
 * 300 ms later.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import type { Implementation, SpawnedSession } from "./harness.js";
import { cpuMicros, rssKiB } from "./proc.js";
import type { ImplName, Variant } from "./workload.js";

export interface SpawnSamples {
  startMs: number[];
  serverCpuMs: number[];
  idleRssKiB: number[];
}

const IDLE_MS = 300;

export async function measureSpawns(
  impls: ReadonlyMap<ImplName, Implementation>,
  variant: Variant,
  count: number,
): Promise<Partial<Record<ImplName, SpawnSamples>>> {
  const names = [...impls.keys()];
  const out: Partial<Record<ImplName, SpawnSamples>> = {};
  const spawnOf = (name: ImplName) => {
    const impl = impls.get(name)!;
    return (o: { variant: Variant }): Promise<SpawnedSession> => impl.spawnInitialized!(o);
  };
  // The first spawn of each also loads its client library in this process; it is not counted.
  for (const name of names) {
    await (await spawnOf(name)({ variant })).close();
    out[name] = { startMs: [], serverCpuMs: [], idleRssKiB: [] };
  }
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]!;
      const samples = out[name]!;
      const t0 = performance.now();
      const session = await spawnOf(name)({ variant });
      samples.startMs.push(performance.now() - t0);
      samples.serverCpuMs.push(cpuMicros(session.serverPid) / 1000);
      await sleep(IDLE_MS);
      samples.idleRssKiB.push(rssKiB(session.serverPid));
      await session.close();
    }
  }
  return out;
}
