// The peer's requests in progress (the session's running table): numeric ids in slots, strings
// and colliding numbers beside them. Whatever ids a peer picks, a duplicate in progress is
// refused, 1 and "1" are different requests, cancellation reaches the right handler, limits
// count every running request and close aborts all of them.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import type { Transport } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { latest } from "./helpers/binding.js";
import { settle, withRawPeer } from "./helpers/peer.js";

/** A server session whose tools/call handler waits until the test releases it by request id. */
function heldServer(maxRunningRequests?: number) {
  const [t, peer] = withRawPeer();
  const errors: Error[] = [];
  const session = new Session({
    transport: t,
    side: "server",
    binding: latest,
    maxRunningRequests,
    onerror: (e) => errors.push(e),
  });
  const release = new Map<string, () => void>();
  const aborted: string[] = [];
  session.setRequestHandler("tools/call", (_p: any, ctx) => {
    const key = JSON.stringify(ctx.requestId);
    ctx.signal.addEventListener("abort", () => aborted.push(key));
    return new Promise((resolve) => release.set(key, () => resolve({ content: [{ type: "text", text: key }] })));
  });
  void t.start();
  const call = (id: unknown) => peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } });
  return { session, peer, errors, release, aborted, call };
}

const textOf = (m: any) => m.result?.content?.[0]?.text;

test('numeric ids sharing a slot, strings and 1 beside "1" all run at once and are answered by their own id', async () => {
  const { session, peer, release, call } = heldServer();
  const ids: unknown[] = [0, 8, 16, 1024, "0", "8", 1, "1", -8, 2 ** 40, 7, 15, "x"];
  for (const id of ids) await call(id);
  await settle();
  assert.is(session.runningCount, ids.length);
  for (const id of [...ids].reverse()) {
    release.get(JSON.stringify(id))!();
    const m = await peer.next();
    assert.is(m.id, id);
    assert.is(textOf(m), JSON.stringify(id));
  }
  assert.is(session.runningCount, 0);
});

test("a duplicate id in progress is refused whether it sits in a slot or beside them; once answered it may be reused", async () => {
  const { session, peer, release, call } = heldServer();
  for (const id of [3, 11, "3"]) await call(id);
  for (const id of [3, 11, "3"]) {
    await call(id);
    const m = await peer.next();
    assert.is(m.id, id);
    assert.match(m.error.message, /already in progress/);
  }
  assert.is(session.runningCount, 3);
  release.get("11")!();
  assert.is((await peer.next()).id, 11);
  await call(11);
  await settle();
  assert.is(session.runningCount, 3);
  for (const k of ["3", "11", '"3"']) release.get(k)!();
  const answered = [await peer.next(), await peer.next(), await peer.next()].map((m) => m.id);
  assert.equal(answered.sort(), [11, 3, "3"].sort());
});

test("notifications/cancelled aborts exactly the named request, in a slot or beside them", async () => {
  const { session, peer, aborted, release, call } = heldServer();
  for (const id of [2, 10, "2", "a"]) await call(id);
  for (const id of [10, "2"])
    await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
  await settle();
  assert.equal(aborted.sort(), ['"2"', "10"].sort());
  assert.is(session.runningCount, 2);
  release.get("10")!();
  release.get('"2"')!();
  release.get("2")!();
  release.get('"a"')!();
  const answered = [await peer.next(), await peer.next()].map((m) => m.id);
  assert.equal(answered, [2, "a"], "cancelled requests get no response");
  await settle();
  assert.is(peer.inbox.length, 0);
});

test("maxRunningRequests counts requests in slots and beside them; close aborts them all", async () => {
  const { session, peer, aborted, call, errors } = heldServer(5);
  for (const id of [0, 8, "s", 1, 16]) await call(id);
  await call(2);
  const busy = await peer.next();
  assert.is(busy.id, 2);
  assert.match(busy.error.message, /Server busy/);
  assert.is(errors.length, 1);
  assert.is(session.runningCount, 5);
  await session.close();
  await settle();
  assert.equal(aborted.sort(), ["0", "8", '"s"', "1", "16"].sort());
  assert.is(session.runningCount, 0);
});

test("property: any mix of ids started, answered and cancelled keeps runningCount and answers right", async () => {
  const idArb = fc.oneof(fc.integer({ min: -40, max: 200 }), fc.constantFrom("a", "b", "0", "8", "16"));
  const opArb = fc.oneof(
    fc.record({ kind: fc.constant("start" as const), id: idArb }),
    fc.record({ kind: fc.constant("finish" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { maxLength: 80 }), async (ops) => {
      const { session, peer, release, call, aborted } = heldServer();
      const running: unknown[] = [];
      for (const o of ops) {
        if (o.kind === "start") {
          await call(o.id);
          if (running.includes(o.id)) {
            const m = await peer.next();
            assert.is(m.id, o.id);
            assert.match(m.error.message, /already in progress/);
          } else running.push(o.id);
        } else if (running.length > 0) {
          const [id] = running.splice(o.pick % running.length, 1);
          const key = JSON.stringify(id);
          if (o.kind === "finish") {
            release.get(key)!();
            const m = await peer.next();
            assert.is(m.id, id);
            assert.is(textOf(m), key);
          } else {
            await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
            await settle();
            assert.is(aborted[aborted.length - 1], key);
          }
        }
        await settle();
        assert.is(session.runningCount, running.length);
      }
      const before = aborted.length;
      await session.close();
      assert.equal(aborted.slice(before).sort(), running.map((id) => JSON.stringify(id)).sort());
    }),
    { numRuns: 150, seed: 20261124 },
  );
});

test("an input end waits for the running requests, and one cancelled rather than answered ends the wait too", async () => {
  const [inner, peer] = withRawPeer();
  // The memory transport seen with stdio's hint: its input ends alone, and oninputend drains.
  const t: Transport = {
    start: () => inner.start(),
    send: (m, o) => inner.send(m, o),
    close: () => inner.close(),
    hints: { inputEnds: true },
  };
  inner.onmessage = (m, c) => t.onmessage?.(m, c);
  inner.onclose = () => t.onclose?.();
  const session = new Session({ transport: t, side: "server", binding: latest });
  const aborted: unknown[] = [];
  session.setRequestHandler("tools/call", (_p: any, ctx) => {
    ctx.signal.addEventListener("abort", () => aborted.push(ctx.requestId));
    return new Promise(() => {});
  });
  void t.start();
  await peer.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } });
  await settle();
  let drained = false;
  const drain = t.oninputend!().then(() => (drained = true));
  await settle();
  assert.is(drained, false, "a request is still running");
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([drain, new Promise((r) => (timer = setTimeout(r, 2000)))]);
  clearTimeout(timer);
  assert.equal([drained, aborted, session.runningCount], [true, [5], 0]);
  await session.close();
});

test.run();
