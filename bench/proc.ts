/** Linux /proc readers for child processes the benchmark does not run in its own process. */
import { readFileSync, readdirSync } from "node:fs";

/** CPU time of every thread of `pid` in microseconds (schedstat is in ns, unlike the 10 ms ticks of stat). */
export function cpuMicros(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // thread exited between readdir and read
    }
  }
  return ns / 1000;
}

/** Resident set size of `pid` in KiB. */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

/** Direct children of this process. */
export function childPids(): Set<number> {
  const out = new Set<number>();
  for (const tid of readdirSync("/proc/self/task")) {
    let text = "";
    try {
      text = readFileSync(`/proc/self/task/${tid}/children`, "utf8");
    } catch {
      continue;
    }
    for (const p of text.split(" ")) if (p.trim()) out.add(Number(p));
  }
  return out;
}

/** The one child spawned since `before` was taken, for clients that do not expose their child's pid. */
export function newChildPid(before: Set<number>): number {
  const added = [...childPids()].filter((p) => !before.has(p));
  if (added.length !== 1) throw new Error(`expected one new child process, found ${added.length}`);
  return added[0]!;
}
