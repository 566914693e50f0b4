// The kill test: a legacy session's GET stream is relayed by an instance other than the session's
// (as a balancer with no stickiness may pick); that instance is SIGKILLed mid-stream; the client
// reconnects through the balancer with Last-Event-ID and gets every event it missed, then the live
// ones, each once and in order. Nothing hangs: every read is bounded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { waitExit } from "../examples/helpers/everything-process.js";
import { startCluster, type Cluster } from "./cluster.js";
import { Events, JSON_HEADERS, raise } from "./sse-events.js";

let cluster!: Cluster;

test.before(async () => {
  cluster = await startCluster(3);
});
test.after(async () => {
  await cluster?.close();
});

test("SIGKILL the instance relaying a session's stream: a resume through the balancer gets every event once, in order", async () => {
  const init = await fetch(cluster.url, {
    method: "POST",
    headers: JSON_HEADERS,
    signal: AbortSignal.timeout(5000),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "kill", version: "1" } },
    }),
  });
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  const session = { ...JSON_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
  await (
    await fetch(cluster.url, {
      method: "POST",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    })
  ).text();
  // The session's instance answers without forwarding; the others forward.
  let home = -1;
  for (const [i, p] of cluster.instances.entries()) {
    const res = await fetch(p.url, {
      method: "POST",
      headers: { ...session, "mcpgen-forwarded": "1" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" }),
    });
    await res.text();
    if (res.status === 200) home = i;
  }
  assert.ok(home >= 0);
  const relay = (home + 1) % 3;
  const other = (home + 2) % 3;

  const ctrl = new AbortController();
  const stream = await fetch(cluster.instances[relay]!.url, {
    method: "GET",
    headers: { ...session, accept: "text/event-stream" },
    signal: ctrl.signal,
  });
  assert.is(stream.status, 200);
  const first = new Events(stream);
  for (let i = 0; i < 3; i++) await raise(cluster, other);
  await first.until(3);

  const relayed = cluster.instances[relay]!;
  relayed.child.kill("SIGKILL");
  assert.equal(await waitExit(relayed.child, 5000), { code: null, signal: "SIGKILL" });
  first.cancel();
  ctrl.abort();
  // Missed while no stream was connected.
  for (let i = 0; i < 3; i++) await raise(cluster, other);

  const last = first.seen[first.seen.length - 1]!.id;
  let resumed: Response | undefined;
  for (let i = 0; i < 20 && resumed?.status !== 200; i++) {
    // Through the balancer: HAProxy may still try the dead instance once (retried elsewhere).
    resumed = await fetch(cluster.url, {
      method: "GET",
      headers: { ...session, accept: "text/event-stream", "last-event-id": last },
      signal: AbortSignal.timeout(10_000),
    });
    if (resumed.status !== 200) {
      await resumed.text();
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  assert.is(resumed!.status, 200);
  const second = new Events(resumed!);
  await second.until(3);
  await raise(cluster, home);
  await second.until(4);
  second.cancel();

  const all = [...first.seen, ...second.seen];
  assert.ok(all.every((e) => e.method === "notifications/tools/list_changed"));
  const seqs = all.map((e) => Number(e.id.slice(e.id.lastIndexOf("_") + 1)));
  assert.is(new Set(all.map((e) => e.id)).size, all.length, "no event twice");
  for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! > seqs[i - 1]!, `in order: ${seqs.join(",")}`);
  assert.is(all.length, 7, "none lost");
});

test.run();
