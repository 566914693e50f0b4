// The official conformance suite's server scenarios (both pinned versions, every invocation the
// runner makes: active, pending, --requirements 2025-11-25, --requirements 2026-07-28 with the
// tasks scenarios, --suite all at 2026-07-28) against three "everything" instances sharing one
// Redis behind HAProxy, scoring as against one process (the runner fails on any failure not in
// conformance-baseline.json, which is empty). Legacy sessions go to the instance that issued their
// id (docs/scale-out.md); 2026-07-28 requests are spread round-robin.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startCluster, type Cluster } from "./cluster.js";

const runner = fileURLToPath(new URL("../conformance/run.js", import.meta.url));
let cluster: Cluster | undefined;

test.after(async () => {
  await cluster?.close();
});

test("the server scenarios through the balancer score as against one process", async () => {
  cluster = await startCluster(3);
  const child = spawn(
    process.execPath,
    [runner, "--leg", "server", "--server-url", cluster.url.href, "--time-limit", "180"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout!.on("data", (d: Buffer) => void (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => void (out += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 200_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  const summary = /conformance: (\d+) passed, (\d+) failed/.exec(out);
  assert.ok(summary, `no summary: ${out.slice(-2000)}`);
  // The score through the balancer, for the record (docs/scale-out.md quotes it).
  console.log(`three instances behind HAProxy, no stickiness: ${summary![0]}`);
  assert.is(summary![2], "0", out.slice(-4000));
  assert.ok(Number(summary![1]) >= 170, `${summary![1]} scenarios passed`);
  assert.is(code, 0, out.slice(-2000));
  for (const p of cluster.instances) assert.is(p.child.exitCode, null, `an instance stopped: ${p.stderr()}`);
});

test.run();
