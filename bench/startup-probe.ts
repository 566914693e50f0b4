/**
 * Where a server's start time and idle RSS go: each line loads one set of modules in a fresh
 * process (nothing else), then reports the load time and RSS 200 ms later; medians of 5.
 * Then the stdio servers of the bench phase by phase up to their first answer (the first request
 * already waiting on stdin, as `npm run bench` sends it): the process's CPU time per phase
 * (every thread), medians of PROBE_RUNS (15) fresh processes, the implementations taking turns.
 *   node dist/bench/startup-probe.js
 * Backs the start/RSS analysis of `npm run bench` (e.g. which imports pull in what).
 *
 * PROBE_INSTRUCTIONS=1 (needs valgrind) counts instead the instructions each phase of those servers
 * executes: one run under callgrind per phase, each ending the process at its mark, the phase the
 * difference of two runs. Exact to about 0.05M a run where CPU time moves by 10% on a shared
 * machine, so it shows changes of 1% of the start. BENCH_CLEAN_ENV=1 runs the servers without
 * NODE_EXTRA_CA_CERTS and NODE_OPTIONS, as `npm run bench` does.
 */
import { execFileSync, spawn } from "node:child_process";
import { once as onceEvent } from "node:events";
import { CLIENT_INFO, PROTOCOL_VERSION } from "./workload.js";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** tsc's unbundled output of the runtime (runtime/build, not shipped): the same code, one module per source file. */
const tsc = (p: string) => JSON.stringify(new URL(`../../runtime/build/${p}`, import.meta.url).href);
const gen = JSON.stringify("@mcpgen/runtime/protocol/2025-11-25");
const lazy = JSON.stringify(new URL("../examples/weather/src/mcp/bindings.js", import.meta.url).href);
const weatherServer = JSON.stringify(new URL("../examples/weather/src/mcp/server.js", import.meta.url).href);

const SETS: [string, string][] = [
  ["bare node", ""],
  ['import "node:http" (ESM)', 'await import("node:http");'],
  [
    "node:http via createRequire",
    'const { createRequire } = await import("node:module"); createRequire(import.meta.url)("node:http");',
  ],
  ["@mcpgen/runtime (package root, bundled)", 'await import("@mcpgen/runtime");'],
  [
    "runtime stdio + facades (bundled, as shipped)",
    'await import("@mcpgen/runtime/stdio"); await import("@mcpgen/runtime/facades");',
  ],
  [
    "runtime stdio + facades (tsc output, unbundled)",
    `await import(${tsc("stdio.js")}); await import(${tsc("facades.js")});`,
  ],
  ["generated 2025-11-25 binding", `await import(${gen});`],
  ["generated bindings.ts (5 lazy revisions, none loaded)", `await import(${lazy});`],
  [
    "generated bindings.ts + all 2025-11-25 validators",
    `const { bindings } = await import(${lazy}); const { loadBindings } = await import("@mcpgen/runtime/internal"); await loadBindings(bindings.filter((b) => b.revision === "2025-11-25"));`,
  ],
  // What a server's 2025-11-25 session loads: the params validators of what it receives.
  [
    "generated bindings.ts + a session's validators",
    `await import(${lazy}); const { validators } = await import("@mcpgen/runtime/protocol/2025-11-25/methods"); await Promise.all(["initialize", "notifications/initialized", "tools/list", "tools/call"].map((m) => validators.params[m]()));`,
  ],
  [
    "generated server.ts + stdio (a stdio server project)",
    `await import(${weatherServer}); await import("@mcpgen/runtime/stdio");`,
  ],
];

function once(code: string): { ms: number; rssMiB: number } {
  const script =
    `const t0 = performance.now(); ${code} const ms = performance.now() - t0;` +
    `setTimeout(() => console.log(JSON.stringify({ ms, rssMiB: process.memoryUsage().rss / 1048576 })), 200);`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 20_000,
  });
  return JSON.parse(out);
}

const INSTRUCTIONS = process.env.PROBE_INSTRUCTIONS === "1";
console.log(`node ${process.version}`);
if (!INSTRUCTIONS) console.log(`${"modules loaded".padEnd(52)}  load ms  RSS MiB`);
for (const [label, code] of INSTRUCTIONS ? [] : SETS) {
  const runs = Array.from({ length: 5 }, () => once(code));
  console.log(
    `${label.padEnd(52)}  ${median(runs.map((r) => r.ms))
      .toFixed(1)
      .padStart(7)}  ${median(runs.map((r) => r.rssMiB))
      .toFixed(1)
      .padStart(7)}`,
  );
}

// The stdio servers of the bench, written out with a CPU mark after each phase. `mark` takes the
// process's CPU time (process.cpuUsage: every thread); the first write to stdout is the answer.
const marks =
  "const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; const m = [['bootstrap', cpu()]];" +
  // PROBE_EXIT_AT=<phase> ends the process at that mark (the instruction counts below).
  "const exitAt = process.env.PROBE_EXIT_AT; if (exitAt === 'bootstrap') process.exit(0);" +
  "const mark = (name) => { m.push([name, cpu()]); if (name === exitAt) process.exit(0); }; const write = process.stdout.write.bind(process.stdout); let answered = false;" +
  "process.stdout.write = (...a) => { if (!answered) { answered = true; mark('answer'); process.stderr.write('PHASES' + JSON.stringify(m) + '\\n'); } return write(...a); };";
const bench = (p: string) => JSON.stringify(new URL(p, import.meta.url).href);
const SERVERS: [string, string, object][] = [];
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
};
const discover = {
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    },
  },
};
const raw =
  `const { parseVariant } = await import(${bench("./workload.js")}); const { createRawHandler } = await import(${bench("./servers/raw-handler.js")}); mark('imports');` +
  "const handle = createRawHandler(parseVariant('text')); let buffered = ''; process.stdin.setEncoding('utf8'); mark('stdin');" +
  "process.stdin.once('data', () => mark('data')); process.stdin.on('data', (chunk) => { buffered += chunk; let nl;" +
  "while ((nl = buffered.indexOf('\\n')) !== -1) { const line = buffered.slice(0, nl); buffered = buffered.slice(nl + 1);" +
  "if (line.length === 0) continue; const r = handle(JSON.parse(line)); if (r) process.stdout.write(JSON.stringify(r) + '\\n'); } });" +
  "process.stdin.on('end', () => process.exit(0));";
const mcpgen =
  "const { StdioServerTransport } = await import('@mcpgen/runtime/stdio'); mark('core.js');" +
  `const { createBenchAddServer } = await import(${bench("./add/text/server.js")}); mark('generated server');` +
  "const server = createBenchAddServer({ tools: { add: ({ a, b }) => String(a + b) } }); mark('createServer');" +
  "const transport = new StdioServerTransport(); mark('stdin'); process.stdin.once('data', () => mark('data'));" +
  "const session = await server.connect(transport); mark('connect'); session.onclose = () => process.exit(0);";
SERVERS.push(["raw, initialize", raw, initialize], ["mcpgen, initialize", mcpgen, initialize]);
SERVERS.push(["mcpgen, server/discover", mcpgen, discover]);
/** Each server's marks in the order its code sets them ("data" left out: it may come before or after "connect"). */
const MARKS: Record<string, string[]> = {
  raw: ["bootstrap", "imports", "stdin", "answer"],
  mcpgen: ["bootstrap", "core.js", "generated server", "createServer", "stdin", "connect", "answer"],
};
const BOOTSTRAP_ENV = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"];
const childEnv =
  process.env.BENCH_CLEAN_ENV === "1"
    ? Object.fromEntries(Object.entries(process.env).filter(([k]) => !BOOTSTRAP_ENV.includes(k)))
    : process.env;

/**
 * One server start in a fresh process. The server is a file beside this one (written for the run,
 * removed after), not `-e` code: Node's loader costs an evaluated entry more than a file. Its
 * stdin stays open until the answer, as a client's does (the end of the input would be handled
 * while the first request loads what it needs).
 */
async function phases(code: string, request: object): Promise<[string, number][]> {
  const file = fileURLToPath(new URL(`./.startup-probe-${process.pid}.mjs`, import.meta.url));
  writeFileSync(file, marks + code);
  let out = "";
  try {
    const child = spawn(process.execPath, [file], { cwd: root, stdio: ["pipe", "pipe", "pipe"], env: childEnv });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => (out += c));
    const exited = onceEvent(child, "exit");
    child.stdin.write(JSON.stringify(request) + "\n");
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    // The first byte of the answer; then the input ends and the server exits.
    await Promise.race([onceEvent(child.stdout, "data"), exited]);
    child.stdin.end();
    child.stdout.resume();
    const [status] = (await exited) as [number | null];
    clearTimeout(timer);
    if (status !== 0) throw new Error(`the server exited with ${status}: ${out}`);
  } finally {
    rmSync(file, { force: true });
  }
  const line = out.split("\n").find((l) => l.startsWith("PHASES"));
  if (line === undefined) throw new Error(`no answer: ${out}`);
  const m = JSON.parse(line.slice("PHASES".length)) as [string, number][];
  // CPU of each phase (the marks are cumulative); the order of "data" and "connect" may vary.
  return m.sort((a, b) => a[1] - b[1]).map(([name, at], i) => [name, i === 0 ? at : at - m[i - 1]![1]]);
}

/**
 * Instructions (millions) a server executes up to its mark `exitAt`, under callgrind, its request on a
 * pipe. The hash seed's prime search (`detail::sprp`, 4–12M instructions, different in every
 * process) is left out: with it in, two runs of the same code differ by up to 8M. V8's worker
 * threads are off (`--v8-pool-size=0`), so their share of the work does not vary either.
 */
async function instructions(code: string, request: object, exitAt: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "startup-probe-"));
  const file = fileURLToPath(new URL(`./.startup-probe-${process.pid}.mjs`, import.meta.url));
  writeFileSync(file, marks + code);
  try {
    // The process ends itself at its mark; its input stays open until then, as a client's does.
    const child = spawn(
      "valgrind",
      ["--tool=callgrind", `--callgrind-out-file=${join(dir, "cg.%p")}`, process.execPath, "--v8-pool-size=0", file],
      { cwd: root, stdio: ["pipe", "ignore", "pipe"], env: { ...childEnv, PROBE_EXIT_AT: exitAt } },
    );
    let err = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => (err += c));
    child.stdin.write(JSON.stringify(request) + "\n");
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    const [status] = (await onceEvent(child, "exit")) as [number | null];
    clearTimeout(timer);
    child.stdin.destroy();
    if (status !== 0) throw new Error(`valgrind exited with ${status}: ${err}`);
    let total = 0;
    for (const out of readdirSync(dir)) {
      const text = execFileSync("callgrind_annotate", ["--threshold=100", join(dir, out)], {
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      });
      const count = (line: string | undefined) => Number(line?.trim().split(/\s+/)[0]!.replace(/,/g, "") ?? 0);
      const lines = text.split("\n");
      total +=
        count(lines.find((l) => l.includes("PROGRAM TOTALS"))) -
        lines.filter((l) => l.includes("detail::sprp")).reduce((n, l) => n + count(l), 0);
    }
    return total / 1e6;
  } finally {
    rmSync(file, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (INSTRUCTIONS) {
  console.log(
    "\nstdio server to its first answer: instructions per phase (millions, callgrind), total after bootstrap",
  );
  for (const [label, code, request] of SERVERS) {
    const names = MARKS[label.split(",")[0]!]!;
    const at: number[] = [];
    for (const name of names) at.push(await instructions(code, request, name));
    const parts = names.map((name, i) => `${name} ${(i === 0 ? at[0]! : at[i]! - at[i - 1]!).toFixed(1)}`);
    console.log(`${label.padEnd(26)} ${parts.join(" | ")} | after bootstrap ${(at.at(-1)! - at[0]!).toFixed(1)}`);
  }
  process.exit(0);
}

const RUNS = Number(process.env.PROBE_RUNS ?? 15);
const samples = new Map<string, [string, number][][]>();
for (let i = 0; i < RUNS; i++)
  for (let k = 0; k < SERVERS.length; k++) {
    const [label, code, request] = SERVERS[(i + k) % SERVERS.length]!;
    samples.set(label, [...(samples.get(label) ?? []), await phases(code, request)]);
  }
console.log(`\nstdio server to its first answer: CPU ms per phase (medians of ${RUNS}), total after bootstrap`);
for (const [label] of SERVERS) {
  const runs = samples.get(label)!;
  const names = runs[0]!.map(([n]) => n);
  const med = (name: string) => median(runs.map((r) => r.find(([n]) => n === name)?.[1] ?? NaN));
  const after = median(runs.map((r) => r.slice(1).reduce((t, [, ms]) => t + ms, 0)));
  console.log(
    `${label.padEnd(26)} ${names.map((n) => `${n} ${med(n).toFixed(1)}`).join(" | ")} | after bootstrap ${after.toFixed(1)}`,
  );
}
