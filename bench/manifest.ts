// Benchmark: cold `mcpgen generate --manifest` (fresh process, no cache: node start, module
// loading, validation, model, emit of types/lists/validators, print, atomic write) for a 50-tool
// manifest with deep schemas. Target ≤ 3 s on the 2-core CI machine.
// Run: npx tsc -b && node dist/bench/manifest.js [runs] [typical|heavy|light]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deepManifestText } from "./deep-manifest.js";

const runs = Number(process.argv[2] ?? 5);
const breadth = process.argv[3] === "heavy" || process.argv[3] === "light" ? process.argv[3] : "typical";
const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "mcpgen.js");
const dir = mkdtempSync(join(tmpdir(), "mcpgen-bench-manifest-"));
try {
  const manifest = join(dir, "mcp.manifest.json");
  const text = deepManifestText(breadth);
  writeFileSync(manifest, text);
  const walls: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const out = join(dir, `out${i}`);
    const start = performance.now();
    const r = spawnSync(process.execPath, [bin, "generate", "--manifest", manifest, "--out", out, "--no-cache"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    const wall = performance.now() - start;
    if (r.status !== 0) throw new Error(`generation failed: ${r.stderr}`);
    walls.push(wall);
    bytes = readdirSync(out).reduce((n, f) => n + statSync(join(out, f)).size, 0);
    console.log(`run ${i + 1}: ${wall.toFixed(0)} ms`);
  }
  const sorted = [...walls].sort((a, b) => a - b);
  console.log(
    `${breadth} manifest (50 tools, ${(text.length / 1024).toFixed(0)} KiB) -> ${(bytes / 1024).toFixed(0)} KiB out; ` +
      `cold generate median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms (target ≤ 3000 ms)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
