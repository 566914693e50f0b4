// Benchmark: cold generation (types.ts + lists.ts) for a 50-tool manifest with deep schemas (target ≤ 3 s,
// whole process: node start, module loading, validation, emit, prettier, write).
// Run: npx tsc -b && node dist/bench/manifest.js [runs] [typical|heavy]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deepManifestText } from "./deep-manifest.js";

const runs = Number(process.argv[2] ?? 5);
const breadth = process.argv[3] === "heavy" ? "heavy" : "typical";
const dir = mkdtempSync(join(tmpdir(), "mcpgen-bench-manifest-"));
try {
  const manifest = join(dir, "mcp.manifest.json");
  const text = deepManifestText(breadth);
  writeFileSync(manifest, text);
  const script = join(dirname(fileURLToPath(import.meta.url)), "manifest-generate.js");
  const walls: number[] = [];
  const noPrettier: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const r = spawnSync(process.execPath, [script, manifest, join(dir, `out${i}`)], { encoding: "utf8", timeout: 60_000 });
    const wall = performance.now() - start;
    if (r.status !== 0) throw new Error(`generation failed: ${r.stderr}`);
    walls.push(wall);
    const phases = JSON.parse(r.stdout) as Record<string, number>;
    noPrettier.push(wall - phases.format!);
    console.log(`run ${i + 1}: wall ${wall.toFixed(0)} ms (load+validate+model+emit ${phases.generate!.toFixed(0)}, prettier ${phases.format!.toFixed(0)} of which ${phases.ajvFormat!.toFixed(0)} on ajv modules; types/lists/validators ${phases.fixpoint ? "already formatted" : "CHANGED by prettier"}; ${phases.tools} tools, ${(phases.bytes! / 1024).toFixed(0)} KiB out)`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0);
  console.log(`${breadth} manifest ${(text.length / 1024).toFixed(0)} KiB; cold generation median ${median(walls)} ms with a prettier pass, ${median(noPrettier)} ms without it (target ≤ 3000 ms)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
