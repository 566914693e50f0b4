// The kill test: a legacy session's GET stream is relayed by an instance other than the session's
// (as a balancer with no stickiness may pick); that instance is SIGKILLed mid-stream; the client
// reconnects through the balancer with Last-Event-ID and gets every event it missed, then the live
// ones, each once and in order. Nothing hangs: every read is bounded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { waitExit } from "../examples/helpers/everything-process.js";
import { startCluster, type Cluster } from "./cluster.js";

let cluster!: Cluster;

test.before(async () => {
  cluster = await startCluster(3);
});
test.after(async () => {
  await cluster?.close();
});

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A tools list change raised on instance `i` (a 2026-07-28 call of the trigger tool). */
async function raise(i: number): Promise<void> {
  const res = await fetch(cluster.instances[i]!.url, {
    method: "POST", signal: AbortSignal.timeout(5000),
    headers: { ...JSON_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "test_trigger_tool_change" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_trigger_tool_change", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  assert.is(res.status, 200, await res.text());
}

/** Reads SSE events (id + method) from a stream until `n` message events arrived (bounded: 10 s). */
class Events {
  readonly seen: { id: string; method: string }[] = [];
  private text = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  async until(n: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.seen.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${this.seen.length} of ${n} events: ${this.text.slice(-500)}`);
      const { value, done } = await this.reader.read();
      if (done) throw new Error(`stream ended after ${this.seen.length} events`);
      this.text += this.decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = this.text.indexOf("\n\n")) !== -1) {
        const block = this.text.slice(0, cut);
        this.text = this.text.slice(cut + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (id !== undefined && data !== undefined) this.seen.push({ id, method: (JSON.parse(data) as { method: string }).method });
      }
    }
  }

  cancel(): void {
    void this.reader.cancel().catch(() => {});
  }
}

test("SIGKILL the instance relaying a session's stream: a resume through the balancer gets every event once, in order", async () => {
  const init = await fetch(cluster.url, {
    method: "POST", headers: JSON_HEADERS, signal: AbortSignal.timeout(5000),
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "kill", version: "1" } } }),
  });
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  const session = { ...JSON_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
  await (await fetch(cluster.url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  // The session's instance answers without forwarding; the others forward.
  let home = -1;
  for (const [i, p] of cluster.instances.entries()) {
    const res = await fetch(p.url, { method: "POST", headers: { ...session, "mcpgen-forwarded": "1" }, body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" }) });
    await res.text();
    if (res.status === 200) home = i;
  }
  assert.ok(home >= 0);
  const relay = (home + 1) % 3;
  const other = (home + 2) % 3;

  const ctrl = new AbortController();
  const stream = await fetch(cluster.instances[relay]!.url, { method: "GET", headers: { ...session, accept: "text/event-stream" }, signal: ctrl.signal });
  assert.is(stream.status, 200);
  const first = new Events(stream);
  for (let i = 0; i < 3; i++) await raise(other);
  await first.until(3);

  const relayed = cluster.instances[relay]!;
  relayed.child.kill("SIGKILL");
  assert.equal(await waitExit(relayed.child, 5000), { code: null, signal: "SIGKILL" });
  first.cancel();
  ctrl.abort();
  // Missed while no stream was connected.
  for (let i = 0; i < 3; i++) await raise(other);

  const last = first.seen[first.seen.length - 1]!.id;
  let resumed: Response | undefined;
  for (let i = 0; i < 20 && resumed?.status !== 200; i++) {
    // Through the balancer: HAProxy may still try the dead instance once (retried elsewhere).
    resumed = await fetch(cluster.url, { method: "GET", headers: { ...session, accept: "text/event-stream", "last-event-id": last }, signal: AbortSignal.timeout(10_000) });
    if (resumed.status !== 200) {
      await resumed.text();
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  assert.is(resumed!.status, 200);
  const second = new Events(resumed!);
  await second.until(3);
  await raise(home);
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
