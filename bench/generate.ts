/**
 * Generation speed (not a test): cold generation of each bundled revision and of all five in one
 * process, and an unchanged re-run served by the cache. Each sample is a fresh `mcpgen` process
 * (what a user or CI pays), timed from spawn to exit. Usage:
 *   node dist/bench/generate.js [runs per case, default 3]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";

const cli = fileURLToPath(new URL("../bin/mcpgen.js", import.meta.url));
const revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const runs = Math.max(1, Number(process.argv[2] ?? 3));

function timeCli(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", timeout: 300_000 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`mcpgen ${args.join(" ")} failed (${r.status}):\n${r.stderr}`);
  return ms;
}

const rows: [string, number[]][] = [];
const dir = mkdtempSync(join(tmpdir(), "mcpgen-bench-"));
try {
  for (const rev of revisions) {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      samples.push(timeCli(["generate", "--schema", rev, "--out", `cold-${rev}-${i}`, "--no-cache"], dir));
    }
    rows.push([`cold ${rev}`, samples]);
  }
  const all = (i: number) => ({ targets: revisions.map((r) => ({ schema: r, out: `all-${i}/${r}` })) });
  const cold: number[] = [];
  for (let i = 0; i < runs; i++) {
    writeFileSync(join(dir, `all-${i}.json`), JSON.stringify(all(i)));
    cold.push(timeCli(["generate", "--config", `all-${i}.json`, "--no-cache"], dir));
  }
  rows.push(["cold all five", cold]);
  // Populate the cache once, then time unchanged re-runs (generate and check).
  writeFileSync(join(dir, "warm.json"), JSON.stringify(all(0)));
  timeCli(["generate", "--config", "warm.json"], dir);
  const warm: number[] = [];
  const check: number[] = [];
  for (let i = 0; i < runs; i++) {
    warm.push(timeCli(["generate", "--config", "warm.json"], dir));
    check.push(timeCli(["check", "--config", "warm.json"], dir));
  }
  rows.push(["unchanged re-run, all five (generate)", warm]);
  rows.push(["unchanged re-run, all five (check)", check]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const width = Math.max(...rows.map(([name]) => name.length));
console.log(`mcpgen generation, ${runs} run(s) per case, fresh process each, node ${process.version}`);
console.log(`${"case".padEnd(width)}  median ms  samples`);
for (const [name, xs] of rows) {
  console.log(`${name.padEnd(width)}  ${median(xs).toFixed(0).padStart(9)}  ${xs.map((x) => x.toFixed(0)).join(" ")}`);
}
