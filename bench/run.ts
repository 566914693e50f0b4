/**
 * `npm run bench`: the whole comparison in one run. Every measurement runs in its own process
 * (bench/scenario.ts), one at a time, implementations interleaved round by round so drift on a
 * busy machine hits all of them alike; medians over rounds; ratios to the raw baseline and to
 * each SDK from this same run. Knobs (env): BENCH_ROUNDS, BENCH_PHASE_MS, BENCH_SPAWNS,
 * BENCH_IMPLS, BENCH_TRANSPORTS, BENCH_VARIANTS (comma lists); BENCH_LOAD=0, BENCH_STATELESS=0
 * and BENCH_BUNDLE=0 skip the load run, the stateless HTTP runs and the bundle sizes.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { IMPLS, TRANSPORTS, VARIANTS, implRuns, type ImplName, type TransportKind, type Variant } from "./workload.js";
import type { PhaseResult } from "./measure.js";
import { median, quantile } from "./stats.js";
import type { SpawnSamples } from "./spawn.js";
import { printReport, type Summary } from "./report.js";

const env = process.env;
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
// stdio phases are longer: at 300 ms a load burst from another process moves one phase of one
// implementation by more than the gap the stdio targets measure.
const PHASE_MS: Record<TransportKind, number> = {
  inproc: Number(env.BENCH_PHASE_MS ?? 300),
  stdio: Number(env.BENCH_PHASE_MS ?? 1000),
  http: Number(env.BENCH_PHASE_MS ?? 300),
};
const SPAWNS = Number(env.BENCH_SPAWNS ?? 10);
const pick = <T extends string>(all: readonly T[], list: string | undefined): T[] =>
  list ? all.filter((x) => list.split(",").includes(x)) : [...all];
const impls = pick(IMPLS, env.BENCH_IMPLS);
const transports = pick(TRANSPORTS, env.BENCH_TRANSPORTS);
// The stdio start rows run with stdio, or alone with BENCH_TRANSPORTS=spawn.
const spawnRows = transports.includes("stdio") || (env.BENCH_TRANSPORTS ?? "").split(",").includes("spawn");
const variants = pick(VARIANTS, env.BENCH_VARIANTS);
const IN_FLIGHT: Record<TransportKind, number> = { inproc: 64, stdio: 64, http: 16 };
const SCENARIO_TIMEOUT_MS = 60_000;

const scenarioScript = fileURLToPath(new URL("./scenario.js", import.meta.url));

interface ScenarioOutput {
  /** The round it ran in, so ratios can be taken between measurements of the same round. */
  round?: number;
  sequential?: PhaseResult;
  concurrent?: PhaseResult;
  spawns?: Partial<Record<ImplName, SpawnSamples>>;
  revision?: string;
  missing?: string | Record<string, string>;
  error?: string;
  warnings?: Record<string, number>;
}

/** Variables every Node process's bootstrap reads; NODE_EXTRA_CA_CERTS alone costs each process tens of ms (bench/README.md). */
const BOOTSTRAP_ENV = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"];
// BENCH_CLEAN_ENV=1: the start rows' processes run without them, as on a machine that sets none.
const spawnEnv =
  env.BENCH_CLEAN_ENV === "1"
    ? Object.fromEntries(Object.entries(env).filter(([k]) => !BOOTSTRAP_ENV.includes(k)))
    : env;

function runScenario(args: string[], childEnv: NodeJS.ProcessEnv = env): Promise<ScenarioOutput> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--no-warnings", scenarioScript, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
      env: childEnv,
    });
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (c: string) => (text += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), SCENARIO_TIMEOUT_MS);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      const last = text.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(last) as ScenarioOutput);
      } catch {
        resolve({ error: `scenario ${args.join(" ")} ended (${signal ?? code}) without a result` });
      }
    });
  });
}

type Key = `${ImplName}/${TransportKind}/${Variant}`;
const runs = new Map<Key, ScenarioOutput[]>();
const spawns = new Map<ImplName, SpawnSamples[]>();
const problems = new Map<string, string>();
const revisions = new Map<string, string>();
const warnings = new Map<string, string>();
const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);

const resultsDir = fileURLToPath(new URL("../../bench/results/", import.meta.url));
// `node dist/bench/run.js --report [file]` reprints a saved summary without measuring.
if (process.argv[2] === "--report") {
  printReport(JSON.parse(readFileSync(process.argv[3] ?? `${resultsDir}latest.json`, "utf8")) as Summary);
  process.exit(0);
}

const t0 = Date.now();
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order each round so no implementation always runs first or last.
  const order = impls.map((_, i) => impls[(i + round) % impls.length]!);
  for (const transport of transports)
    for (const variant of variants)
      for (const impl of order) {
        if (!implRuns(impl, transport)) continue;
        const args = [impl, transport, variant, String(PHASE_MS[transport]), String(IN_FLIGHT[transport])];
        const out = await runScenario(args);
        if (out.missing || out.error) problems.set(`${impl}/${transport}/${variant}`, String(out.missing ?? out.error));
        else push(runs, `${impl}/${transport}/${variant}` as Key, { ...out, round });
        if (out.revision) revisions.set(`${impl}/${transport}/${variant}`, out.revision);
        for (const w of Object.keys(out.warnings ?? {})) warnings.set(`${impl}/${transport}/${variant}`, w);
        process.stderr.write(".");
      }
  const spawning = order.filter((impl) => implRuns(impl, "spawn"));
  if (spawnRows && spawning.length > 0) {
    // One process per round, the implementations taking turns spawn by spawn (bench/spawn.ts).
    const out = await runScenario([spawning.join(","), "spawn", "text", String(SPAWNS)], spawnEnv);
    if (out.error) problems.set("spawn", out.error);
    if (typeof out.missing === "object")
      for (const [impl, why] of Object.entries(out.missing)) problems.set(`${impl}/spawn`, why);
    for (const [impl, samples] of Object.entries(out.spawns ?? {})) push(spawns, impl as ImplName, samples);
    process.stderr.write("s");
  }
  process.stderr.write(` round ${round + 1}/${ROUNDS} (${Math.round((Date.now() - t0) / 1000)} s)\n`);
}

const phaseKeys = [
  "callsPerSec",
  "p50Us",
  "p99Us",
  "cpuUsPerCall",
  "clientCpuUsPerCall",
  "serverCpuUsPerCall",
] as const;
function medianPhase(list: PhaseResult[]): Record<(typeof phaseKeys)[number], number> {
  const out = {} as Record<(typeof phaseKeys)[number], number>;
  for (const k of phaseKeys) out[k] = median(list.map((p) => p[k] ?? NaN));
  return out;
}

const summary: Summary = {
  when: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "?",
    loadavg: os.loadavg(),
    // What the start rows' processes had of them.
    bootstrapEnv: BOOTSTRAP_ENV.filter((k) => (spawnEnv[k] ?? "") !== ""),
  },
  settings: { rounds: ROUNDS, phaseMs: PHASE_MS, spawns: SPAWNS, inFlight: IN_FLIGHT },
  impls,
  transports,
  variants,
  throughput: {},
  startup: {},
  revisions: Object.fromEntries(revisions),
  problems: Object.fromEntries(problems),
  warnings: Object.fromEntries(warnings),
  seconds: Math.round((Date.now() - t0) / 1000),
};
// The bundle-size target (bench/bundle.ts, a few seconds of esbuild), so the report states every target.
if (env.BENCH_BUNDLE !== "0") {
  process.stderr.write("bundling (BENCH_BUNDLE=0 skips)\n");
  summary.bundle = await (await import("./bundle.js")).measureBundles();
}
const perRound = (list: ScenarioOutput[], phase: "sequential" | "concurrent", k: "callsPerSec" | "cpuUsPerCall") => {
  const out: number[] = Array.from({ length: ROUNDS }, () => NaN);
  for (const o of list) out[o.round!] = o[phase]![k];
  return out;
};
for (const [key, list] of runs) {
  summary.throughput[key] = {
    sequential: medianPhase(list.map((o) => o.sequential!)),
    concurrent: medianPhase(list.map((o) => o.concurrent!)),
    rounds: list.length,
    byRound: {
      sequential: perRound(list, "sequential", "callsPerSec"),
      concurrent: perRound(list, "concurrent", "callsPerSec"),
      sequentialCpu: perRound(list, "sequential", "cpuUsPerCall"),
      concurrentCpu: perRound(list, "concurrent", "cpuUsPerCall"),
    },
  };
}
for (const [impl, list] of spawns) {
  const startMs = list.flatMap((o) => o.startMs);
  const idleRssKiB = list.flatMap((o) => o.idleRssKiB);
  summary.startup[impl] = {
    startMs: median(startMs),
    startSpreadMs: [quantile(startMs, 0.25), quantile(startMs, 0.75)],
    serverCpuMs: median(list.flatMap((o) => o.serverCpuMs)),
    idleRssKiB: median(idleRssKiB),
    idleRssSpreadKiB: [Math.min(...idleRssKiB), Math.max(...idleRssKiB)],
    samples: startMs.length,
  };
}
// Paired: the i-th spawn of an implementation and the i-th of raw were taken moments apart.
const rawSpawns = spawns.get("raw")?.flatMap((o) => o.startMs);
for (const [impl, list] of spawns) {
  const mine = list.flatMap((o) => o.startMs);
  if (rawSpawns === undefined || impl === "raw" || mine.length !== rawSpawns.length) continue;
  const ratios = mine.map((ms, i) => ms / rawSpawns[i]!);
  summary.startup[impl]!.pairedRatio = [quantile(ratios, 0.25), median(ratios), quantile(ratios, 0.75)];
}

mkdirSync(resultsDir, { recursive: true });
const file = `${resultsDir}${summary.when.replace(/[:.]/g, "-")}.json`;
writeFileSync(
  file,
  JSON.stringify(
    { ...summary, samples: { runs: Object.fromEntries(runs), spawns: Object.fromEntries(spawns) } },
    null,
    2,
  ),
);
writeFileSync(`${resultsDir}latest.json`, JSON.stringify(summary, null, 2));
printReport(summary);
if (summary.bundle) {
  console.log("");
  (await import("./bundle.js")).printBundles(summary.bundle);
}
console.log(`\nresults: ${file}`);

// Load: many in flight and many sessions, every call answered, the server back to idle (bench/load.ts).
if (env.BENCH_LOAD !== "0") {
  console.log("\nload (BENCH_LOAD=0 skips):");
  const load = spawn(process.execPath, ["--expose-gc", fileURLToPath(new URL("./load.js", import.meta.url))], {
    stdio: "inherit",
  });
  await new Promise((resolve) => load.once("exit", resolve));
}

// The 2026-07-28 stateless HTTP path, server side (raw node:http vs mcpgen's server vs SDK v2's
// createMcpHandler, one raw driver) and client side (raw vs mcpgen's McpClient vs SDK v2's Client
// against one raw server): bench/stateless.ts and bench/modern-client.ts.
if (env.BENCH_STATELESS !== "0") {
  for (const [title, script, args] of [
    ["2026-07-28 stateless HTTP, server side (BENCH_STATELESS=0 skips):", "./stateless.js", []],
    ["2026-07-28 stateless HTTP, client side:", "./modern-client.js", ["4000", String(ROUNDS)]],
  ] as const) {
    console.log(`\n${title}`);
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args], {
      stdio: "inherit",
    });
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

// Scale-out on Redis: one instance in memory vs with Redis stores, one vs three behind HAProxy,
// Redis memory per task and per event (bench/scale-out.ts; needs redis-server and haproxy).
if (env.BENCH_SCALE_OUT !== "0") {
  console.log("\nscale-out on Redis (BENCH_SCALE_OUT=0 skips):");
  const child = spawn(process.execPath, [fileURLToPath(new URL("./scale-out.js", import.meta.url))], {
    stdio: "inherit",
  });
  await new Promise((resolve) => child.once("exit", resolve));
}
