import { test } from "uvu";
import * as assert from "uvu/assert";
import { Session } from "@mcpgen/runtime/internal";
import { byRevision } from "./helpers/binding.js";
import { settle, withRawPeer } from "./helpers/peer.js";

function setup(revision: string) {
  const [t, peer] = withRawPeer();
  const session = new Session({ transport: t, side: "server", binding: byRevision(revision) });
  session.setRequestHandler("tools/list", () => ({ tools: [] }));
  session.setRequestHandler("tools/call", async (p: any) => {
    if (p.name === "slow") await new Promise((r) => setTimeout(r, 10));
    return { content: [{ type: "text", text: p.name }] };
  });
  const notes: unknown[] = [];
  session.setNotificationHandler("notifications/initialized", () => void notes.push("init"));
  void t.start();
  return { session, peer, notes };
}

for (const rev of ["2024-11-05", "2025-06-18", "2025-11-25"]) {
  test(`batches are refused with -32600 in ${rev}`, async () => {
    const { peer, notes } = setup(rev);
    await peer.send([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    const r = await peer.next();
    assert.equal(r.id, null);
    assert.is(r.error.code, -32600);
    assert.match(r.error.message, new RegExp(rev));
    await settle();
    assert.equal(notes, [], "nothing inside the batch was processed");
  });
}

test("2025-03-26 accepts a batch and answers with one array, one response per request", async () => {
  const { peer, notes } = setup("2025-03-26");
  await peer.send([
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "fast" } },
    { jsonrpc: "2.0", id: 3, method: "nope" },
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: 1 } },
    17,
  ]);
  const r = await peer.next();
  assert.ok(Array.isArray(r));
  assert.is(r.length, 5);
  const byId = new Map(r.map((m: any) => [m.id, m]));
  assert.is((byId.get(1) as any).result.content[0].text, "slow");
  assert.is((byId.get(2) as any).result.content[0].text, "fast");
  assert.is((byId.get(3) as any).error.code, -32601);
  assert.is((byId.get(4) as any).error.code, -32602);
  assert.is((byId.get(null) as any).error.code, -32600);
  assert.equal(notes, ["init"]);
});

test("2025-03-26: an empty batch is invalid; a batch of notifications/responses gets no reply", async () => {
  const { peer } = setup("2025-03-26");
  await peer.send([]);
  assert.is((await peer.next()).error.code, -32600);
  await peer.send([{ jsonrpc: "2.0", method: "notifications/initialized" }]);
  await settle();
  assert.is(peer.inbox.length, 0);
});

test("2025-03-26: what follows a batch is answered on its own, a request refused before it runs too", async () => {
  const { peer } = setup("2025-03-26");
  await peer.send([
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
    { jsonrpc: "2.0", id: 2, method: "nope" },
  ]);
  const batch = await peer.next();
  assert.equal(
    batch.map((m: any) => m.id),
    [1, 2],
  );
  await peer.send({ jsonrpc: "2.0", id: 3, method: "nope" });
  assert.equal((await peer.next()).error.code, -32601);
  await peer.send({ jsonrpc: "2.0", id: 4, method: "tools/list" });
  assert.equal(await peer.next(), { jsonrpc: "2.0", id: 4, result: { tools: [] } });
});

test("2025-03-26: a cancelled request in a batch is left out of the reply", async () => {
  const { session, peer } = setup("2025-03-26");
  session.setRequestHandler("resources/read", () => new Promise(() => {}));
  await peer.send([
    { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///a" } },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ]);
  await settle();
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  const r = await peer.next();
  assert.equal(r, [{ jsonrpc: "2.0", id: 2, result: { tools: [] } }]);
});

test("2025-03-26: a batch of responses resolves each pending request", async () => {
  const { session, peer } = setup("2025-03-26");
  const a = session.request("ping");
  const b = session.request("ping");
  const ma = await peer.next();
  const mb = await peer.next();
  await peer.send([
    { jsonrpc: "2.0", id: mb.id, result: { b: 1 } },
    { jsonrpc: "2.0", id: ma.id, result: { a: 1 } },
  ]);
  assert.equal(await a, { a: 1 });
  assert.equal(await b, { b: 1 });
});

test.run();
