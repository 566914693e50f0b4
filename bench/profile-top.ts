/**
 * Summarises V8 .cpuprofile files (from `node --cpu-prof`): top functions by self time, and the
 * same grouped by package/file, so hot-path work can be attributed to a layer.
 *   node dist/bench/profile-top.js <file.cpuprofile>... [--top N]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topIdx = args.indexOf("--top");
const top = topIdx >= 0 ? Number(args[topIdx + 1]) : 25;
// Without --top, topIdx + 1 is 0: only skip the option's value when the option is there.
const files = args.filter((_, i) => topIdx < 0 || (i !== topIdx && i !== topIdx + 1));

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const rt = url.indexOf("/runtime/dist/");
  if (rt >= 0) return "runtime/" + url.slice(rt + "/runtime/dist/".length);
  const d = url.indexOf("/dist/");
  if (d >= 0) return url.slice(d + "/dist/".length);
  return url.replace(/^file:\/\//, "");
}

for (const file of files) {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + dt);
    total += dt;
  }
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    const f = n.callFrame;
    const where = f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName || "(anonymous)"} ${where}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    const fileKey = f.url ? shortUrl(f.url) : f.functionName;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
  }
  const idle = byFn.get("(idle)") ?? 0;
  const busy = total - idle;
  const pct = (us: number) => ((100 * us) / busy).toFixed(1).padStart(5) + "%";
  console.log(
    `\n${file}: ${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms not idle (percentages of that)`,
  );
  console.log("  top functions by self time:");
  for (const [k, us] of [...byFn]
    .filter(([k]) => k !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`  ${pct(us)}  ${k}`);
  console.log("  by file:");
  for (const [k, us] of [...byFile]
    .filter(([k]) => k !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, Math.min(top, 15)))
    console.log(`  ${pct(us)}  ${k}`);
}
