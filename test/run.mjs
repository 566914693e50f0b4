#!/usr/bin/env node
// Runs every compiled uvu test file (dist/test/**/*.test.js) in its own process, two at a time,
// each with a time limit, and ends with the plain "N passed, M failed" line CI reads.
// Usage: node test/run.mjs [substring filter ...]
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const testDir = join(root, "dist", "test");
const filters = process.argv.slice(2);
const perFileLimitMs = Number(process.env.MCPGEN_TEST_TIMEOUT_MS ?? 240_000);
const parallel = Number(process.env.MCPGEN_TEST_JOBS ?? 2);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "fixtures") out.push(...walk(p));
    } else if (name.endsWith(".test.js")) out.push(p);
  }
  return out;
}

const files = walk(testDir).filter(
  (f) => filters.length === 0 || filters.some((s) => relative(testDir, f).includes(s)),
);
let passed = 0;
let failed = 0;
const failures = [];

function runOne(file) {
  return new Promise((resolve) => {
    const rel = relative(root, file);
    const child = spawn(process.execPath, [file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n[run] ${rel} exceeded ${perFileLimitMs} ms, killed\n`;
      child.kill("SIGKILL");
    }, perFileLimitMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      // uvu prints "Total: N", "Passed: N", "Skipped: N" once per process.
      const total = Number(/Total:\s+(\d+)/.exec(out)?.[1] ?? 0);
      const ok = Number(/Passed:\s+(\d+)/.exec(out)?.[1] ?? 0);
      let fileFailed = total - ok;
      if (code !== 0 && fileFailed === 0) fileFailed = 1; // crashed or killed outside a test
      passed += ok;
      failed += fileFailed;
      const status = fileFailed ? "FAIL" : "ok  ";
      process.stdout.write(`${status} ${rel} (${ok}/${total})\n`);
      if (fileFailed) failures.push({ rel, out });
      resolve();
    });
  });
}

const queue = [...files];
await Promise.all(
  Array.from({ length: Math.max(1, parallel) }, async () => {
    while (queue.length) await runOne(queue.shift());
  }),
);
for (const f of failures) {
  process.stdout.write(`\n----- ${f.rel}\n${f.out.trim()}\n`);
}
if (files.length === 0) {
  process.stdout.write("no test files found under dist/test\n");
  failed += 1;
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exitCode = failed ? 1 : 0;
