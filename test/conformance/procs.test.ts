import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { background, freePort, run, waitForPort } from "./procs.js";

/** Running (a zombie waiting for an init that reaps slowly counts as ended). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

test("run: output, exit code, and lines as they arrive", async () => {
  const lines: string[] = [];
  const r = await run("sh", ["-c", "echo one; echo two >&2; exit 3"], {
    timeoutMs: 10_000,
    onLine: (l) => lines.push(l),
  });
  assert.is(r.code, 3);
  assert.is(r.timedOut, false);
  assert.equal(lines.sort(), ["one", "two"]);
});

test("run: the time limit ends the whole process group, grandchildren included", async () => {
  // The grandchild prints its pid and would outlive a plain child.kill().
  const r = await run("sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!; wait"], { timeoutMs: 300 });
  assert.is(r.timedOut, true);
  const pid = Number(r.output.trim().split("\n")[0]);
  assert.ok(pid > 0, r.output);
  assert.ok(await gone(pid), `grandchild ${pid} still alive`);
});

test("background + waitForPort: ready when it listens, stop() ends it on SIGTERM", async () => {
  const port = await freePort();
  const script = `require("node:http").createServer((q, s) => s.end()).listen(${port}, "127.0.0.1")`;
  const srv = background(process.execPath, ["-e", script], {});
  const why = await waitForPort(port, 10_000, srv.exited);
  assert.is(why, undefined);
  const s = await srv.stop(5000);
  assert.is(s.clean, true);
  assert.ok(srv.exited());
});

test("waitForPort: reports a child that exited instead of waiting out the limit", async () => {
  const port = await freePort();
  const srv = background("sh", ["-c", "echo boom >&2; exit 7"], {});
  const why = await waitForPort(port, 10_000, srv.exited);
  assert.is(why, "exited with code 7");
  assert.match(srv.tail(), /boom/);
});

test.run();
