/**
 * `npm run fuzz`: long fuzz campaigns over real transports, both sides, bounded by count and time.
 *
 *   npm run fuzz -- [--count N] [--time SECONDS] [--seed S] [--only stdio-server,http-server,stdio-client,http-client] [--json]
 *
 * --count is messages per campaign (default 20000), --time the wall-clock budget for all of them
 * together (default 120 s, split evenly). Prints one line per transport and side, and exits
 * non-zero when any campaign saw a crash, a hang, a wrong code, a leak or a failed probe, or
 * ended with its heap (after GC) above 1.2x its idle level (4 MiB floor for noise).
 * FUZZ_DUMP=<file> writes the lines and replies of a stdio-server batch that had a hang.
 */
import { parseArgs } from "node:util";
import { fuzzStdioServer } from "./server-stdio.js";
import { fuzzHttpServer } from "./server-http.js";
import { fuzzStdioClient } from "./client-stdio.js";
import { fuzzHttpClient } from "./client-http.js";
import type { Report } from "./report.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "20000" },
    time: { type: "string", default: "120" },
    seed: { type: "string", default: "1" },
    only: { type: "string" },
    batch: { type: "string", default: "500" },
    json: { type: "boolean", default: false },
  },
});
const count = Number(values.count);
const seconds = Number(values.time);
const seed = Number(values.seed);
const batch = Number(values.batch);
for (const [k, v] of [
  ["count", count],
  ["time", seconds],
  ["seed", seed],
  ["batch", batch],
] as const) {
  if (!Number.isFinite(v) || v < 0) {
    process.stderr.write(`fuzz: --${k} must be a non-negative number\n`);
    process.exit(2);
  }
}
const campaigns = {
  "stdio-server": fuzzStdioServer,
  "http-server": fuzzHttpServer,
  "stdio-client": fuzzStdioClient,
  "http-client": fuzzHttpClient,
} as const;
const chosen = (values.only?.split(",") ?? Object.keys(campaigns)) as (keyof typeof campaigns)[];
for (const c of chosen) {
  if (!(c in campaigns)) {
    process.stderr.write(`fuzz: unknown campaign ${c} (known: ${Object.keys(campaigns).join(", ")})\n`);
    process.exit(2);
  }
}

const reports: Report[] = [];
const slice = (seconds * 1000) / chosen.length;
for (const name of chosen) {
  const deadline = Date.now() + slice;
  const r = await campaigns[name]({ count, deadline, seed, batch });
  reports.push(r);
  const line = `${r.transport.padEnd(5)} ${r.side.padEnd(6)} messages ${String(r.messages).padStart(8)}  crashes ${r.crashes}  hangs ${r.hangs}  wrong codes ${r.wrongCodes}  leaks ${r.leaks}  probe failures ${r.probeFailures}  RSS idle ${r.rssIdleMiB} -> end ${r.rssEndMiB} MiB  heap ${r.heapIdleMiB} -> ${r.heapEndMiB} MiB  (${r.seconds} s)`;
  process.stdout.write(line + "\n");
  for (const s of r.samples) process.stdout.write(`    ${s}\n`);
}
if (values.json) process.stdout.write(JSON.stringify(reports, null, 2) + "\n");
// Memory is judged on the V8 heap after GC: RSS also counts pages the allocator keeps after
// multi-megabyte messages, which it reports but does not hand back (both are printed).
const bad = reports.filter(
  (r) =>
    r.crashes + r.hangs + r.wrongCodes + r.leaks + r.probeFailures > 0 ||
    r.heapEndMiB > Math.max(r.heapIdleMiB * 1.2, r.heapIdleMiB + 4),
);
process.exit(bad.length === 0 ? 0 : 1);
