/**
 * Where a server's start time and idle RSS go: each line loads one set of modules in a fresh
 * process (nothing else), then reports the load time and RSS 200 ms later; medians of 5.
 *   node dist/bench/startup-probe.js
 * Backs the start/RSS analysis of `npm run bench` (e.g. which imports pull in what).
 */
import { execFileSync } from "node:child_process";
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
    `const { bindings } = await import(${lazy}); const { loadBindings } = await import("@mcpgen/runtime"); await loadBindings(bindings.filter((b) => b.revision === "2025-11-25"));`,
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

console.log(`node ${process.version}`);
console.log(`${"modules loaded".padEnd(52)}  load ms  RSS MiB`);
for (const [label, code] of SETS) {
  const runs = Array.from({ length: 5 }, () => once(code));
  console.log(
    `${label.padEnd(52)}  ${median(runs.map((r) => r.ms))
      .toFixed(1)
      .padStart(7)}  ${median(runs.map((r) => r.rssMiB))
      .toFixed(1)
      .padStart(7)}`,
  );
}
