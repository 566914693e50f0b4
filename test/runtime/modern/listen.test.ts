// subscriptions/listen: acknowledgement first, demultiplexing by subscriptionId, only requested
// types, delivery from the server's notify* methods, teardown on cancel / close.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { settle } from "../helpers/peer.js";
import { META, connect, server } from "./fixture.js";

const SID = "io.modelcontextprotocol/subscriptionId";

async function listen(peer: Awaited<ReturnType<typeof connect>>, id: number | string, notifications: object) {
  await peer.send({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: META } });
  return peer.next();
}

test("the ack comes first with the honoured subset; notifications carry the listen's id; only requested types", async () => {
  const s = server();
  const peer = await connect(s);
  const ack = await listen(peer, 900, { toolsListChanged: true, resourceSubscriptions: ["u://static"], bogus: true });
  assert.is(ack.method, "notifications/subscriptions/acknowledged");
  assert.equal(ack.params, {
    notifications: { toolsListChanged: true, resourceSubscriptions: ["u://static"] },
    _meta: { [SID]: 900 },
  });
  const ack2 = await listen(peer, "p", { promptsListChanged: true });
  assert.equal(ack2.params._meta, { [SID]: "p" });
  assert.is(s.listens.size, 2);
  await s.notifyToolsListChanged();
  await s.notifyPromptsListChanged();
  assert.is(await s.notifyResourceUpdated("u://static"), 1);
  assert.is(await s.notifyResourceUpdated("u://other"), 0);
  const got = [await peer.next(), await peer.next(), await peer.next()];
  assert.equal(
    got.map((m) => [m.method, m.params._meta[SID]]),
    [
      ["notifications/tools/list_changed", 900],
      ["notifications/prompts/list_changed", "p"],
      ["notifications/resources/updated", 900],
    ],
  );
  assert.is(got[2].params.uri, "u://static");
  // notifications/cancelled ends one listen (stdio teardown): no response, nothing more for it.
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 900 } });
  await settle();
  assert.is(s.listens.size, 1);
  await s.notifyToolsListChanged();
  await settle();
  assert.is(peer.inbox.length, 0);
  // Server shutdown answers the remaining listen.
  const closing = s.close();
  const end = await peer.next();
  assert.equal([end.id, end.result.resultType, end.result._meta[SID]], ["p", "complete", "p"]);
  await closing;
});

test("a dropped connection frees its listens", async () => {
  const s = server();
  const peer = await connect(s);
  await listen(peer, 1, { toolsListChanged: true });
  await listen(peer, 2, { resourcesListChanged: true });
  assert.is(s.listens.size, 2);
  await peer.transport.close();
  await settle();
  assert.is(s.listens.size, 0);
  await s.close();
});

test("a filter that is not an object is -32602; too many resource subscriptions too", async () => {
  const s = server();
  const peer = await connect(s);
  let r = await peer.call("subscriptions/listen", { notifications: { resourceSubscriptions: "x" } });
  assert.is(r.error.code, -32602);
  r = await peer.call("subscriptions/listen", {
    notifications: { resourceSubscriptions: Array.from({ length: 2000 }, (_, i) => `u://${i}`) },
  });
  assert.is(r.error.code, -32602);
  // Few URIs, but long ones: what one listen holds is bounded in characters too (256 Ki).
  r = await peer.call("subscriptions/listen", {
    notifications: { resourceSubscriptions: Array.from({ length: 3 }, (_, i) => `u://${i}/${"x".repeat(100_000)}`) },
  });
  assert.equal([r.error.code, r.error.data.pointer], [-32602, "/params/notifications/resourceSubscriptions"]);
  assert.is(s.listens.size, 0);
  await s.close();
});

test("one connection's listens are capped (listens.perSession, -32000 naming the limit); another connection still listens; the server cap is listens.max", async () => {
  const s = server({ listens: { perSession: 2, max: 3 } });
  const a = await connect(s);
  assert.is((await listen(a, 1, { toolsListChanged: true })).method, "notifications/subscriptions/acknowledged");
  assert.is((await listen(a, 2, { toolsListChanged: true })).method, "notifications/subscriptions/acknowledged");
  const refused = await listen(a, 3, { toolsListChanged: true });
  assert.equal(
    [refused.id, refused.error.code, refused.error.data],
    [3, -32000, { limit: "listens.perSession", max: 2 }],
  );
  const b = await connect(s);
  assert.is((await listen(b, 1, { toolsListChanged: true })).method, "notifications/subscriptions/acknowledged");
  const full = await listen(b, 2, { toolsListChanged: true });
  assert.equal([full.error.code, full.error.data], [-32000, { limit: "listens.max", max: 3 }]);
  // Cancelling one frees its slot on its connection and on the server.
  await a.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  await settle();
  assert.is((await listen(a, 4, { toolsListChanged: true })).method, "notifications/subscriptions/acknowledged");
  assert.is(s.listens.size, 3);
  await s.close();
});

test("listen limits must be positive integers", () => {
  for (const bad of [0, -1, 1.5, Number.NaN])
    assert.throws(() => server({ listens: { perPrincipal: bad } }), /perPrincipal must be a positive integer/);
});

test.run();
