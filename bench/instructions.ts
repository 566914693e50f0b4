/**
 * User-space instructions per call of the HTTP bench servers, counted by valgrind's callgrind: a
 * reading the machine's load does not move. Where sse.js and paired.js read server CPU, which swings
 * by 2x on a machine other sessions load, these repeat within about 3%, so a change of a few percent
 * of a call can be told apart. Each server runs under callgrind with counting off; once
 * BENCH_WARM_CALLS (20 000) calls have run, then BENCH_SETTLE_CALLS (5000) more on new connections,
 * counting is switched on for BENCH_CALLS (5000) more of the same session (or stateless workload),
 * each run on connections of its own, then off; what every thread ran meanwhile, divided by the
 * calls. What the kernel does (the writes, waking the loop) is not counted.
 * Why the second warm-up: the first requests of new connections deoptimise functions optimised on
 * the warm-up's (node's parserOnIncoming, assignSocket, end, and the runtime's checkHostOrigin),
 * which TurboFan compiles again in the next few thousand calls; counted right after the first
 * switch, that compiling was about 25k of mcpgen's instructions per call (none of raw's), and
 * after a second switch it is gone. BENCH_SETTLE_CALLS=0 counts the way the first version did.
 *   node dist/bench/instructions.js sse|stateless <kind>[,<kind>...] [<server.js>]
 * sse: sse-http.js's kinds (raw, mcpgen, mcpgen-nostore) on a 2025-11-25 session answered as SSE;
 * stateless: stateless-http.js's (raw, mcpgen, ...) on 2026-07-28 tools/calls. <server.js>: the
 * same script of another build (a copy of dist/ made before a change). Rounds (BENCH_ROUNDS, 1)
 * take the kinds in turn; about 45 s per kind and round. Needs valgrind (and callgrind_control).
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { socketLoad, type SocketLoadOptions } from "./socket-load.js";
import { modernCalls, sessionCalls } from "./http-calls.js";
import { median } from "./stats.js";

const [workload, kindList, script] = process.argv.slice(2);
if ((workload !== "sse" && workload !== "stateless") || !kindList)
  throw new Error("usage: instructions.js sse|stateless <kind>[,<kind>...] [<server.js>]");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const WARM_CALLS = Number(process.env.BENCH_WARM_CALLS ?? 20_000);
const SETTLE_CALLS = Number(process.env.BENCH_SETTLE_CALLS ?? 5000);
const CALLS = Number(process.env.BENCH_CALLS ?? 5000);
const CONCURRENCY = 16;
const serverJs =
  script ??
  fileURLToPath(new URL(workload === "sse" ? "./servers/sse-http.js" : "./servers/stateless-http.js", import.meta.url));
const kinds = kindList.split(",");

try {
  execFileSync("callgrind_control", ["--version"], { stdio: "ignore" });
} catch {
  throw new Error("instructions.js needs valgrind's callgrind_control on PATH");
}

/** The server `kind` under callgrind (counting off), and the port it listens on. */
async function start(kind: string, dir: string): Promise<{ child: ChildProcess; port: number; log: () => string }> {
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${join(dir, "callgrind.%p")}`,
      process.execPath,
      serverJs,
      kind,
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith('{"port"')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`${kind} server exited (${code}): ${stderr}`)));
  });
  return { child, port, log: () => stderr };
}

/** Instructions per call of one server: counted over CALLS calls after WARM_CALLS. */
async function count(kind: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-instructions-"));
  let server: Awaited<ReturnType<typeof start>> | undefined;
  try {
    server = await start(kind, dir);
    const pid = String(server.child.pid);
    const calls: SocketLoadOptions =
      workload === "sse" ? await sessionCalls(server.port, CONCURRENCY) : modernCalls(server.port, CONCURRENCY);
    await socketLoad(calls, Infinity, 1, WARM_CALLS);
    if (SETTLE_CALLS > 0) await socketLoad(calls, Infinity, 1 + WARM_CALLS, SETTLE_CALLS);
    execFileSync("callgrind_control", ["-i", "on", pid], { stdio: "ignore" });
    const done = await socketLoad(calls, Infinity, 1 + WARM_CALLS + SETTLE_CALLS, CALLS);
    execFileSync("callgrind_control", ["-i", "off", pid], { stdio: "ignore" });
    execFileSync("callgrind_control", ["-d", pid], { stdio: "ignore" });
    server.child.stdin!.end();
    await new Promise((resolve) => server!.child.once("exit", resolve));
    let instructions = 0;
    for (const f of readdirSync(dir)) {
      const m = /^totals: (\d+)/m.exec(readFileSync(join(dir, f), "utf8"));
      if (m) instructions += Number(m[1]);
    }
    if (instructions === 0) throw new Error(`no instructions counted for ${kind}: ${server.log()}`);
    return instructions / done;
  } finally {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

const counts: Record<string, number[]> = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++)
  for (let k = 0; k < kinds.length; k++) {
    const kind = kinds[(k + r) % kinds.length]!;
    counts[kind]!.push(await count(kind));
  }
process.stdout.write(
  `${workload}: user-space instructions per call (callgrind, every thread), ${CALLS} calls after ${WARM_CALLS} and ${SETTLE_CALLS}, median of ${ROUNDS} round(s)\n`,
);
const first = median(counts[kinds[0]!]!);
for (const kind of kinds) {
  const per = median(counts[kind]!);
  const all = counts[kind]!.map((n) => `${(n / 1000).toFixed(1)}k`).join(", ");
  const ratio = kind === kinds[0] ? "" : `  (${kinds[0]} / ${kind}: ${(first / per).toFixed(3)}x)`;
  process.stdout.write(`  ${kind.padEnd(16)} ${(per / 1000).toFixed(1)}k [${all}]${ratio}\n`);
}
