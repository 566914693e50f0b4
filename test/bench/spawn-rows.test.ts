// The stdio start rows (bench/spawn.ts): implementations take turns spawn by spawn in rotating
// order, each spawn measured on its own child process; and the quartiles the report prints.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { once } from "node:events";
import type { Implementation, SpawnedSession } from "../../bench/harness.js";
import { measureSpawns } from "../../bench/spawn.js";
import { median, quantile } from "../../bench/stats.js";
import type { ImplName } from "../../bench/workload.js";

/** An implementation whose "server" is an idle node child, ready once spawned; logs each spawn. */
function idleChild(name: string, log: string[]): Implementation {
  return {
    inproc() {
      throw new Error("not in process");
    },
    async spawnInitialized(): Promise<SpawnedSession> {
      log.push(name);
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      await once(child, "spawn");
      return {
        serverPid: child.pid!,
        async close() {
          const exited = once(child, "exit");
          child.kill();
          await exited;
        },
      };
    },
  };
}

test("the implementations take turns in rotating order after one uncounted spawn each", async () => {
  const log: string[] = [];
  const impls = new Map<ImplName, Implementation>([
    ["raw", idleChild("raw", log)],
    ["mcpgen", idleChild("mcpgen", log)],
  ]);
  const out = await measureSpawns(impls, "text", 2);
  assert.equal(log, ["raw", "mcpgen", "raw", "mcpgen", "mcpgen", "raw"]);
  for (const name of ["raw", "mcpgen"] as const) {
    const s = out[name]!;
    assert.is(s.startMs.length, 2);
    assert.ok(s.startMs.every((ms) => ms > 0));
    assert.ok(s.serverCpuMs.every((ms) => ms >= 0));
    assert.ok(
      s.idleRssKiB.every((kib) => kib > 1024),
      "a node child holds more than 1 MiB",
    );
  }
});

test("quantile interpolates between ranks and skips what is not a number", () => {
  assert.is(quantile([4, 1, 3, 2], 0), 1);
  assert.is(quantile([4, 1, 3, 2], 1), 4);
  assert.is(quantile([4, 1, 3, 2], 0.5), median([1, 2, 3, 4]));
  assert.is(quantile([1, 2, 3, 4, 5], 0.25), 2);
  assert.is(quantile([10, 20], 0.75), 17.5);
  assert.is(quantile([NaN, 7], 0.5), 7);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

test.run();
