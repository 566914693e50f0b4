/**
 * `npm run bench:tasks`: what a task costs in each TaskStore. One cycle is what a task-augmented
 * tool call does to its store (create, update to completed with a small result, get); rounds
 * alternate the stores, medians are reported, plus what the durable store costs to install
 * (better-sqlite3's files on disk, counted here, and its native addon). Knobs: TASKS_BENCH_CYCLES
 * (per round, 5000), TASKS_BENCH_ROUNDS (5).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MemoryTaskStore, type TaskStore } from "@mcpgen/runtime";
import { openSqliteTaskStore, type SqliteDriver } from "@mcpgen/runtime/tasks/sqlite";
import { median } from "./stats.js";

const CYCLES = Number(process.env.TASKS_BENCH_CYCLES ?? 5000);
const ROUNDS = Number(process.env.TASKS_BENCH_ROUNDS ?? 5);
const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mcpgen-task-bench-"));
const result = { content: [{ type: "text", text: "Computed result after 1s" }], structuredContent: { value: 42 } };

async function cycles(store: TaskStore, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t = await store.create({ pollIntervalMs: 500 });
    await store.update(t.taskId, { status: "completed", result });
    const got = await store.get(t.taskId);
    if (got?.status !== "completed") throw new Error(`task ${t.taskId} read back as ${got?.status}`);
  }
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

function bytesBelow(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.size;
  return readdirSync(p).reduce((sum, name) => sum + bytesBelow(join(p, name)), 0);
}

async function available(driver: SqliteDriver): Promise<boolean> {
  try {
    (await openSqliteTaskStore(join(dir, `probe-${driver}.db`), { driver })).close();
    return true;
  } catch {
    return false;
  }
}

const stores: Record<string, (round: number) => Promise<TaskStore & { close?(): void }>> = {
  memory: async () => new MemoryTaskStore({ maxTasks: CYCLES + 1000 }),
};
for (const driver of ["better-sqlite3", "node:sqlite"] as const) {
  if (await available(driver))
    stores[`sqlite (${driver})`] = (round) =>
      openSqliteTaskStore(join(dir, `${driver.replace(":", "-")}-${round}.db`), { driver, maxTasks: CYCLES + 1000 });
}

const rates: Record<string, number[]> = Object.fromEntries(Object.keys(stores).map((k) => [k, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, make] of Object.entries(stores)) {
      const store = await make(round);
      await cycles(store, Math.min(500, CYCLES)); // warm-up on the same store
      rates[name]!.push(await cycles(store, CYCLES));
      store.close?.();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `task store cost, Node ${process.versions.node}, ${CYCLES} cycles x ${ROUNDS} rounds (median); one cycle = create + update(completed) + get`,
);
console.log("| store | cycles/s | store ops/s | µs per cycle |\n|---|---:|---:|---:|");
for (const [name, r] of Object.entries(rates)) {
  const m = median(r);
  console.log(`| ${name} | ${Math.round(m)} | ${Math.round(m * 3)} | ${(1e6 / m).toFixed(1)} |`);
}
const pkg = join(root, "node_modules", "better-sqlite3");
try {
  const addon = statSync(join(pkg, "build", "Release", "better_sqlite3.node")).size;
  const release = bytesBelow(join(pkg, "build", "Release"));
  console.log(
    `better-sqlite3 on disk: ${(bytesBelow(pkg) / 2 ** 20).toFixed(1)} MiB, of which build/Release ${(release / 2 ** 20).toFixed(1)} MiB (a source build keeps its objects there) and the native addon ${(addon / 2 ** 20).toFixed(1)} MiB`,
  );
} catch {
  console.log("better-sqlite3 is not installed here");
}
