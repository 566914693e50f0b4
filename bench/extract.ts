/**
 * Code-first extraction speed (not a test): `mcpgen extract` on a generated 50-tool handlers
 * module, each sample a fresh process timed from spawn to exit (node start, loading ts-morph and
 * TypeScript, project creation, lib files, the checker, schemas, manifest validation, writing).
 * The module lives under the package (tmp/) so its `@mcpgen/runtime` import resolves as in a
 * user's project, and the package's tsconfig.json applies (lib ES2023, types: node), so the
 * checker reads @types/node as it would in a typical Node project. Usage:
 *   node dist/bench/extract.js [runs, default 5] [tools, default 50]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(root, "dist", "bin", "mcpgen.js");
const runs = Math.max(1, Number(process.argv[2] ?? 5));
const toolCount = Math.max(1, Number(process.argv[3] ?? 50));

/** Tools of five shapes in rotation: flat, nested, arrays of a shared interface, unions, records. */
function moduleSource(n: number): string {
  const lines = [
    `import type { HandlerContext } from "@mcpgen/runtime";`,
    `/** A shared record type. */`,
    `export interface Item {`,
    `  id: string;`,
    `  /** @integer @minimum 0 */`,
    `  count: number;`,
    `  tags: string[];`,
    `  parent?: Item;`,
    `}`,
    `export type Filter = { kind: "tag"; tag: string } | { kind: "range"; from: number; to: number };`,
    `export const tools = {`,
  ];
  for (let i = 0; i < n; i++) {
    const doc = `  /**\n   * Tool number ${i}.\n   * @param input.query What to look for\n   */`;
    switch (i % 5) {
      case 0:
        lines.push(
          doc,
          `  tool${i}(input: { query: string; limit?: number; exact?: boolean }): { found: number } {`,
          `    return { found: input.query.length };`,
          `  },`,
        );
        break;
      case 1:
        lines.push(
          doc,
          `  async tool${i}(input: { query: string; where: { lat: number; lon: number; radius?: number } }, ctx: HandlerContext): Promise<{ items: Item[] }> {`,
          `    void ctx;`,
          `    return { items: [] };`,
          `  },`,
        );
        break;
      case 2:
        lines.push(
          doc,
          `  tool${i}({ query, units = "metric" }: { query: string; units?: "metric" | "imperial"; items: Item[] }) {`,
          `    return \`\${query} \${units}\`;`,
          `  },`,
        );
        break;
      case 3:
        lines.push(
          doc,
          `  tool${i}(input: { query: string; filter: Filter; range?: [number, number] }): { matched: Item | null } {`,
          `    return { matched: null };`,
          `  },`,
        );
        break;
      default:
        lines.push(
          doc,
          `  tool${i}(input: { query: string; labels: Record<string, string> }): { labels: Record<string, string>; at: string } {`,
          `    return { labels: input.labels, at: "" };`,
          `  },`,
        );
    }
  }
  lines.push(`};`, ``);
  return lines.join("\n");
}

/** CPU seconds (user + sys) of this process's waited-for children, from /proc (Linux; 10 ms ticks). */
function childCpuMs(): number | undefined {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

mkdirSync(join(root, "tmp"), { recursive: true });
const dir = mkdtempSync(join(root, "tmp", "bench-extract-"));
const samples: number[] = [];
const cpu: number[] = [];
try {
  writeFileSync(join(dir, "tools.ts"), moduleSource(toolCount));
  for (let i = 0; i < runs; i++) {
    rmSync(join(dir, "mcp.manifest.json"), { force: true });
    const cpuBefore = childCpuMs();
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, "extract", "--from", "tools.ts", "--name", "bench"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    const cpuAfter = childCpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore);
    if (r.status !== 0) throw new Error(`mcpgen extract failed (${r.status}):\n${r.stderr}`);
  }
  const manifest = JSON.parse(readFileSync(join(dir, "mcp.manifest.json"), "utf8")) as { tools: unknown[] };
  if (manifest.tools.length !== toolCount) throw new Error(`expected ${toolCount} tools, got ${manifest.tools.length}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `mcpgen extract, ${toolCount}-tool module, ${runs} cold run(s) (fresh process each), node ${process.version}`,
);
console.log(
  `wall: median ${median(samples).toFixed(0)} ms, min ${Math.min(...samples).toFixed(0)} ms, samples ${samples.map((x) => x.toFixed(0)).join(" ")}`,
);
if (cpu.length > 0)
  console.log(
    `cpu (user+sys of the child): median ${median(cpu).toFixed(0)} ms, samples ${cpu.map((x) => x.toFixed(0)).join(" ")}`,
  );
const load = (() => {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
})();
console.log(`load average ${load} (wall time moves with the machine's load; cpu much less)`);
