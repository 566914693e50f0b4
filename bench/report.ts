/** Plain-text tables of the medians, ratios to the raw baseline and to each SDK, and the targets. */
import { implRuns, type ImplName, type TransportKind, type Variant } from "./workload.js";

type PhaseMedians = Record<
  "callsPerSec" | "p50Us" | "p99Us" | "cpuUsPerCall" | "clientCpuUsPerCall" | "serverCpuUsPerCall",
  number
>;

export interface Summary {
  when: string;
  machine: { node: string; cpus: number; cpu: string; loadavg: number[]; bootstrapEnv?: string[] };
  /** `phaseMs` per transport (a single number in results saved before stdio phases got longer). */
  settings: {
    rounds: number;
    phaseMs: number | Record<TransportKind, number>;
    spawns: number;
    inFlight: Record<TransportKind, number>;
  };
  impls: ImplName[];
  transports: TransportKind[];
  variants: Variant[];
  throughput: Record<
    string,
    { sequential: PhaseMedians; concurrent: PhaseMedians; rounds: number; byRound?: Record<RoundSeries, number[]> }
  >;
  /** `impl/transport/variant` → the revision the implementation negotiated by itself (mcpgen's defaults). */
  revisions?: Record<string, string>;
  startup: Partial<Record<ImplName, StartupRow>>;
  problems: Record<string, string>;
  warnings?: Record<string, string>;
  seconds: number;
  /** bench/bundle.ts, measured in the same run unless BENCH_BUNDLE=0. */
  bundle?: BundleSizes;
}

import type { BundleSizes } from "./bundle.js";

/** Medians over every spawn of the run (bench/spawn.ts); the spreads were added with issue #24's start work. */
export interface StartupRow {
  startMs: number;
  /** 25th and 75th percentiles of spawn → initialized. */
  startSpreadMs?: [number, number];
  /** The server's CPU time (all threads) until initialized. */
  serverCpuMs?: number;
  idleRssKiB: number;
  idleRssSpreadKiB?: [number, number];
  /** Quartiles and median of this implementation's start over raw's, spawn by spawn. */
  pairedRatio?: [number, number, number];
  samples: number;
}
/** Per round (NaN where a round has no measurement), so ratios are taken within a round. */
type RoundSeries = "sequential" | "concurrent" | "sequentialCpu" | "concurrentCpu";

const LABEL: Record<ImplName, string> = {
  raw: "raw",
  rawobj: "raw no-JSON",
  rawval: "raw no-JSON + validation",
  sdk1: "SDK v1",
  sdk2: "SDK v2",
  mcpgen: "mcpgen",
  "mcpgen-legacy": "mcpgen 2025-11-25",
  raw26: "raw 2026-07-28 bytes",
};
const TRANSPORT_LABEL: Record<TransportKind, string> = {
  inproc: "in-process",
  stdio: "stdio",
  http: "Streamable HTTP",
};

function fmt(x: number | undefined, digits = 0): string {
  if (x === undefined || !Number.isFinite(x)) return "-";
  return x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
const ratio = (a: number | undefined, b: number | undefined): string =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0
    ? "-"
    : `${(a / b).toFixed(2)}x`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const BASELINES: ImplName[] = ["raw", "rawobj", "rawval", "sdk1", "sdk2", "raw26"];
/** The baselines that exist over a transport (the no-JSON pair only in process). */
const baselinesOf = (t: TransportKind | "spawn") => BASELINES.filter((b) => implRuns(b, t));

export function printReport(s: Summary): void {
  const out: string[] = [];
  out.push(`mcpgen runtime benchmark — ${s.when}`);
  out.push(
    `node ${s.machine.node}, ${s.machine.cpus} x ${s.machine.cpu}, load ${s.machine.loadavg.map((l) => l.toFixed(1)).join(" ")}; ` +
      `medians of ${s.settings.rounds} rounds, ${phaseText(s)} per phase, each measurement in a fresh process`,
  );
  out.push("workload: tools/call add {a,b}; text = text content, structured = outputSchema + structuredContent");
  out.push(
    "mcpgen = the server generated from bench/add/<variant>.manifest.json + its generated typed client, default revisions, validation on",
  );
  const negotiated = Object.entries(s.revisions ?? {}).filter(([k]) => k.startsWith("mcpgen/"));
  if (s.impls.includes("mcpgen-legacy"))
    out.push("mcpgen 2025-11-25 = the same pair with the client offering 2025-11-25 only (stdio)");
  if (negotiated.length > 0) {
    const byTransport = new Map<string, Set<string>>();
    for (const [k, rev] of negotiated) {
      const t = TRANSPORT_LABEL[k.split("/")[1] as TransportKind];
      (byTransport.get(t) ?? byTransport.set(t, new Set()).get(t)!).add(rev);
    }
    out.push(
      `mcpgen negotiated: ${[...byTransport].map(([t, revs]) => `${t} ${[...revs].join("/")}`).join(", ")} (raw and the SDKs: 2025-11-25 sessions)`,
    );
  }

  for (const t of s.transports) {
    const n = s.settings.inFlight[t];
    out.push("");
    out.push(`== ${TRANSPORT_LABEL[t]} (concurrent = ${n} in flight; CPU = client + server process per call)`);
    const rows: string[][] = [];
    const impls = s.impls.filter((impl) => implRuns(impl, t));
    for (const v of s.variants)
      for (const impl of impls) {
        const r = s.throughput[`${impl}/${t}/${v}`];
        if (!r) {
          rows.push([LABEL[impl], v, "missing", "", "", "", "", "", "", ""]);
          continue;
        }
        rows.push([
          LABEL[impl],
          v,
          fmt(r.sequential.callsPerSec),
          fmt(r.concurrent.callsPerSec),
          fmt(r.sequential.p50Us, 1),
          fmt(r.sequential.p99Us, 1),
          fmt(r.concurrent.p50Us, 1),
          fmt(r.concurrent.p99Us, 1),
          fmt(r.sequential.cpuUsPerCall, 1),
          fmt(r.concurrent.cpuUsPerCall, 1),
        ]);
      }
    out.push(
      table(
        [
          "impl",
          "variant",
          "seq/s",
          "conc/s",
          "seq p50 µs",
          "seq p99 µs",
          "conc p50 µs",
          "conc p99 µs",
          "seq CPU µs",
          "conc CPU µs",
        ],
        rows,
      ),
    );

    const ratioRows: string[][] = [];
    const bases = baselinesOf(t).filter((b) => s.impls.includes(b));
    for (const v of s.variants)
      for (const impl of impls) {
        const r = s.throughput[`${impl}/${t}/${v}`];
        const cells = [LABEL[impl], v];
        for (const base of bases) {
          const b = s.throughput[`${base}/${t}/${v}`];
          cells.push(
            ratio(r?.sequential.callsPerSec, b?.sequential.callsPerSec),
            ratio(r?.concurrent.callsPerSec, b?.concurrent.callsPerSec),
            ratio(r?.concurrent.cpuUsPerCall, b?.concurrent.cpuUsPerCall),
          );
        }
        ratioRows.push(cells);
      }
    out.push("");
    out.push("ratios (throughput: higher is better; CPU per call: lower is better)");
    out.push(
      table(
        ["impl", "variant", ...bases.flatMap((b) => [`seq/${LABEL[b]}`, `conc/${LABEL[b]}`, `CPU/${LABEL[b]}`])],
        ratioRows,
      ),
    );
  }

  if (Object.keys(s.startup).length > 0) {
    out.push("");
    out.push(
      "== stdio server start (spawn → initialized sent) and idle RSS after initialization (text variant; " +
        "the implementations take turns spawn by spawn; start: median [25th–75th percentile]; " +
        "paired: median [quartiles] of each spawn's start over raw's taken beside it)",
    );
    const spawnBases = baselinesOf("spawn");
    const spread = (r: [number, number] | undefined, scale = 1, digits = 1) =>
      r === undefined ? "" : ` [${fmt(r[0] / scale, digits)}–${fmt(r[1] / scale, digits)}]`;
    const rows = s.impls
      .filter((impl) => implRuns(impl, "spawn"))
      .map((impl) => {
        const r = s.startup[impl];
        if (!r) return [LABEL[impl], "missing", ...spawnBases.map(() => ""), "", "", "", ...spawnBases.map(() => "")];
        const p = r.pairedRatio;
        return [
          LABEL[impl],
          `${fmt(r.startMs, 1)}${spread(r.startSpreadMs)}`,
          ...spawnBases.map((b) => ratio(r.startMs, s.startup[b]?.startMs)),
          p === undefined ? "" : `${p[1].toFixed(2)}x [${p[0].toFixed(2)}–${p[2].toFixed(2)}]`,
          fmt(r.serverCpuMs, 1),
          `${fmt(r.idleRssKiB / 1024, 1)}${spread(r.idleRssSpreadKiB, 1024)}`,
          ...spawnBases.map((b) => ratio(r.idleRssKiB, s.startup[b]?.idleRssKiB)),
        ];
      });
    out.push(
      table(
        [
          "impl",
          "start ms",
          ...spawnBases.map((b) => `/${LABEL[b]}`),
          "paired /raw",
          "server CPU ms",
          "RSS MiB",
          ...spawnBases.map((b) => `/${LABEL[b]}`),
        ],
        rows,
      ),
    );
    const n = Object.values(s.startup).map((r) => r?.samples ?? 0);
    out.push(`${Math.min(...n)} spawns per implementation`);
    // A slower bootstrap of every process dilutes the ratios (NODE_EXTRA_CA_CERTS: about 38 ms of CPU here).
    if ((s.machine.bootstrapEnv ?? []).length > 0)
      out.push(
        `set for every process, which slows Node's bootstrap alike and so brings the start ratios closer to 1 (BENCH_CLEAN_ENV=1 unsets them): ${s.machine.bootstrapEnv!.join(", ")}`,
      );
  }

  out.push("");
  out.push(
    "== targets for mcpgen (issues #13 and #24; validation ON; a throughput row is the worst variant; the stdio rows per era)",
  );
  out.push(table(["target", "measured", "rounds min–max", "CPU: base/mcpgen", "goal", "status"], targetRows(s)));
  out.push(
    "  measured: ratio of the medians; rounds: the same ratio within each round (its spread is the run's noise);\n" +
      "  CPU: the baseline's CPU µs per call (client + server) over mcpgen's, medians (a ratio like the throughput one, steadier under load);\n" +
      "  'within noise': the rounds fall on both sides of the goal",
  );
  const floor = validationFloor(s);
  if (floor !== undefined) out.push(floor);

  if (Object.keys(s.problems).length > 0) {
    out.push("");
    out.push("problems:");
    const byMessage = new Map<string, string[]>();
    for (const [k, msg] of Object.entries(s.problems)) {
      const first = msg.split("\n")[0]!;
      (byMessage.get(first) ?? byMessage.set(first, []).get(first)!).push(k);
    }
    for (const [msg, keys] of byMessage) out.push(`  ${keys.join(", ")}: ${msg}`);
  }
  if (s.warnings && Object.keys(s.warnings).length > 0) {
    out.push("");
    out.push("process warnings seen during measurement:");
    for (const [k, msg] of Object.entries(s.warnings)) out.push(`  ${k}: ${msg}`);
  }
  out.push("");
  out.push(`total ${s.seconds} s`);
  console.log(out.join("\n"));
}

/** Every target of the issue is printed, measured or not (a transport left out of the run says so). */
function targetRows(s: Summary): string[][] {
  const rows: string[][] = [];
  const notRun = (label: string, target: string, why: string) =>
    rows.push([label, "-", "", "", target, `not run (${why})`]);
  const through = (
    t: TransportKind,
    phase: "sequential" | "concurrent",
    base: ImplName,
    label: string,
    min: number,
    impl: ImplName = "mcpgen",
  ) => {
    const full = `${label} / ${LABEL[base]}`;
    if (!s.transports.includes(t)) return notRun(full, `>= ${min}x`, `BENCH_TRANSPORTS has no ${t}`);
    if (!s.impls.includes(impl)) return notRun(full, `>= ${min}x`, `BENCH_IMPLS has no ${impl}`);
    const rs = s.variants.map((v) => {
      const m = s.throughput[`${impl}/${t}/${v}`];
      const r = s.throughput[`${base}/${t}/${v}`];
      const rounds = (m?.byRound?.[phase] ?? []).map((x, i) => x / (r?.byRound?.[phase][i] ?? NaN));
      return {
        ratio: m && r ? m[phase].callsPerSec / r[phase].callsPerSec : NaN,
        cpu: m && r ? r[phase].cpuUsPerCall / m[phase].cpuUsPerCall : NaN,
        rounds: rounds.filter((x) => Number.isFinite(x)),
      };
    });
    const worst = rs.reduce((a, b) => (b.ratio < a.ratio || !Number.isFinite(a.ratio) ? b : a));
    const lo = Math.min(...worst.rounds);
    const hi = Math.max(...worst.rounds);
    const noisy = worst.rounds.length > 1 && lo < min && hi >= min;
    rows.push([
      full,
      Number.isFinite(worst.ratio) ? `${worst.ratio.toFixed(2)}x` : "-",
      worst.rounds.length > 0 ? `${lo.toFixed(2)}–${hi.toFixed(2)}x` : "-",
      Number.isFinite(worst.cpu) ? `${worst.cpu.toFixed(2)}x` : "-",
      `>= ${min}x`,
      status(worst.ratio, (x) => x >= min) + (noisy ? " (within noise)" : ""),
    ]);
  };
  const atMost = (label: string, x: number, max: number) =>
    rows.push([label, Number.isFinite(x) ? `${x.toFixed(2)}x` : "-", "", "", `<= ${max}x`, status(x, (v) => v <= max)]);
  through("inproc", "sequential", "rawobj", "in-process sequential", 0.8);
  through("inproc", "concurrent", "rawobj", `in-process ${s.settings.inFlight.inproc} in flight`, 0.8);
  through("http", "concurrent", "raw", `Streamable HTTP ${s.settings.inFlight.http} concurrent`, 0.85);
  const r = s.startup.raw;
  for (const impl of ["mcpgen", "mcpgen-legacy"] as const) {
    const m = s.startup[impl];
    const era = impl === "mcpgen" ? "default revisions" : "2025-11-25";
    if (s.startup[impl] !== undefined || (s.transports.includes("stdio") && s.impls.includes(impl))) {
      atMost(`stdio spawn → initialized / raw (${era})`, m && r ? m.startMs / r.startMs : NaN, 1.2);
      atMost(`stdio idle RSS / raw (${era})`, m && r ? m.idleRssKiB / r.idleRssKiB : NaN, 1.1);
    } else {
      const why = s.transports.includes("stdio") ? `BENCH_IMPLS has no ${impl}` : "BENCH_TRANSPORTS has no stdio";
      notRun(`stdio spawn → initialized / raw (${era})`, "<= 1.2x", why);
      notRun(`stdio idle RSS / raw (${era})`, "<= 1.1x", why);
    }
  }
  // The bundle target is a size ratio: SDK v1's bytes over mcpgen's (default revisions), at least 5.
  const label = "bundle, one file: SDK v1 / mcpgen";
  const labelStart = "bundle, split, loaded at start: SDK v1 / mcpgen";
  if (s.bundle) {
    const one = s.bundle.sdk1.single / s.bundle.all.single;
    const start = s.bundle.sdk1.single / s.bundle.all.start;
    rows.push([label, `${one.toFixed(1)}x smaller`, "", "", ">= 5x smaller", status(one, (x) => x >= 5)]);
    rows.push([labelStart, `${start.toFixed(1)}x smaller`, "", "", ">= 5x smaller", status(start, (x) => x >= 5)]);
  } else notRun(label, ">= 5x smaller", "BENCH_BUNDLE=0; node dist/bench/bundle.js");
  // Issue #24: stdio against the raw NDJSON pair, in both eras (raw runs 2025-11-25 sessions).
  const pipelined = `${s.settings.inFlight.stdio} in flight`;
  through("stdio", "sequential", "raw", "stdio sequential, 2026-07-28", 0.85);
  through("stdio", "sequential", "raw", "stdio sequential, 2025-11-25", 0.85, "mcpgen-legacy");
  through("stdio", "concurrent", "raw", `stdio ${pipelined}, 2026-07-28`, 0.9);
  through("stdio", "concurrent", "raw", `stdio ${pipelined}, 2025-11-25`, 0.9, "mcpgen-legacy");
  // The same 2026-07-28 rows against a raw pair sending that era's bytes: what the implementation
  // costs, apart from the larger messages the protocol itself sends.
  through("stdio", "sequential", "raw26", "stdio sequential, 2026-07-28", 0.85);
  through("stdio", "concurrent", "raw26", `stdio ${pipelined}, 2026-07-28`, 0.9);
  return rows;
}

/**
 * What validation alone allows in process: the `rawval` pair (raw no-JSON plus mcpgen's per-call
 * validators) against raw no-JSON, the best sequential ratio any runtime validating as mcpgen does
 * can reach; and mcpgen against `rawval`, what its runtime costs beyond validation.
 */
function validationFloor(s: Summary): string | undefined {
  if (!s.transports.includes("inproc")) return undefined;
  const seq = (impl: ImplName, v: Variant) => s.throughput[`${impl}/inproc/${v}`]?.sequential.callsPerSec;
  const parts = s.variants.flatMap((v) => {
    const val = seq("rawval", v);
    const obj = seq("rawobj", v);
    const m = seq("mcpgen", v);
    return val === undefined || obj === undefined
      ? []
      : [
          `${v}: raw no-JSON + validation / raw no-JSON ${ratio(val, obj)}, mcpgen / raw no-JSON + validation ${ratio(m, val)}`,
        ];
  });
  return parts.length === 0 ? undefined : `in-process sequential, validation floor (not a target): ${parts.join("; ")}`;
}

function phaseText(s: Summary): string {
  const p = s.settings.phaseMs;
  if (typeof p === "number") return `${p} ms`;
  return s.transports.map((t) => `${p[t]} ms ${TRANSPORT_LABEL[t]}`).join(", ");
}

const status = (x: number, ok: (x: number) => boolean) => (!Number.isFinite(x) ? "MISSING" : ok(x) ? "met" : "NOT met");
