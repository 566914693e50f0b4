// Outgoing requests awaiting their response (the session's pending slots): any interleaving of
// requests, answers in any order, foreign ids, cancellations and close settles every request
// exactly once with its own answer; ids stay unique and increasing however long a request waits.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { ConnectionClosedError, McpError } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { latest } from "./helpers/binding.js";
import { rejection, settle, withRawPeer } from "./helpers/peer.js";

function clientSession(maxPendingRequests?: number) {
  const [t, peer] = withRawPeer();
  const errors: Error[] = [];
  const session = new Session({
    transport: t,
    side: "client",
    binding: latest,
    maxPendingRequests,
    onerror: (e) => errors.push(e),
  });
  void t.start();
  return { session, peer, errors };
}

type Outcome = { ok: unknown } | { err: unknown };

function track(p: Promise<unknown>): { outcome?: Outcome } {
  const box: { outcome?: Outcome } = {};
  p.then(
    (ok) => (box.outcome = { ok }),
    (err) => (box.outcome = { err }),
  );
  return box;
}

test("100 requests in flight (past the initial slots) answered in reverse order each get their own result", async () => {
  const { session, peer, errors } = clientSession();
  const calls = Array.from({ length: 100 }, () => session.request("ping"));
  const ids: number[] = [];
  for (let i = 0; i < 100; i++) ids.push((await peer.next()).id);
  assert.is(new Set(ids).size, 100);
  assert.is(session.pendingCount, 100);
  for (const id of [...ids].reverse()) await peer.send({ jsonrpc: "2.0", id, result: { id } });
  const results = await Promise.all(calls);
  assert.equal(
    results.map((r) => r.id),
    ids,
  );
  assert.is(session.pendingCount, 0);
  assert.equal(errors, []);
});

test("responses with an id never issued, already answered, as a string or negative are reported and settle nothing", async () => {
  const { session, peer, errors } = clientSession();
  const a = track(session.request("ping"));
  const b = track(session.request("ping"));
  const ma = await peer.next();
  const mb = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: ma.id, result: { a: 1 } });
  await settle();
  assert.equal(a.outcome, { ok: { a: 1 } });
  const foreign = [ma.id, String(mb.id), mb.id + 1000, mb.id + 8, -1, mb.id - 8, 2 ** 40 + mb.id];
  for (const id of foreign) await peer.send({ jsonrpc: "2.0", id, result: { wrong: true } });
  await settle();
  assert.is(errors.length, foreign.length);
  for (const e of errors) assert.match(e.message, /Response with unknown id .* dropped/);
  assert.is(b.outcome, undefined);
  assert.is(session.pendingCount, 1);
  await peer.send({ jsonrpc: "2.0", id: mb.id, result: { b: 2 } });
  await settle();
  assert.equal(b.outcome, { ok: { b: 2 } });
});

test("a request left waiting while thousands come and go still gets its answer; ids stay unique and increasing", async () => {
  const { session, peer, errors } = clientSession();
  const slow = session.request("ping");
  const slowId = (await peer.next()).id;
  let last = slowId;
  for (let i = 0; i < 2000; i++) {
    const p = session.request("ping");
    const { id } = await peer.next();
    assert.ok(id > last, `id ${id} after ${last}`);
    last = id;
    await peer.send({ jsonrpc: "2.0", id, result: { i } });
    assert.equal(await p, { i });
  }
  await peer.send({ jsonrpc: "2.0", id: slowId, result: { slow: true } });
  assert.equal(await slow, { slow: true });
  assert.equal(errors, []);
});

test("nextRequestId names the id the next request uses, also when a waiting request holds its slot", async () => {
  const { session, peer } = clientSession();
  void session.request("ping").catch(() => {});
  await peer.next();
  for (let i = 0; i < 40; i++) {
    const expected = session.nextRequestId;
    const p = session.request("ping");
    const { id } = await peer.next();
    assert.is(id, expected);
    await peer.send({ jsonrpc: "2.0", id, result: {} });
    await p;
  }
  await session.close();
});

test("close rejects every pending request with ConnectionClosedError, in the order they were sent", async () => {
  const { session, peer } = clientSession();
  const order: number[] = [];
  const calls = Array.from({ length: 30 }, (_, i) => session.request("ping").catch((e) => (order.push(i), e)));
  for (let i = 0; i < 30; i++) {
    const { id } = await peer.next();
    if (i % 3 === 0) await peer.send({ jsonrpc: "2.0", id, result: {} });
  }
  await session.close();
  const outcomes = await Promise.all(calls);
  assert.is(session.pendingCount, 0);
  for (let i = 0; i < 30; i++) {
    if (i % 3 === 0) assert.equal(outcomes[i], {});
    else assert.instance(outcomes[i], ConnectionClosedError);
  }
  assert.equal(
    order,
    [...Array(30).keys()].filter((i) => i % 3 !== 0),
  );
  assert.instance(await rejection(session.request("ping")), ConnectionClosedError);
});

test("maxPendingRequests still counts what is pending, and frees as answers arrive", async () => {
  const { session, peer, errors } = clientSession(20);
  const calls = Array.from({ length: 20 }, () => session.request("ping"));
  const ids: number[] = [];
  for (let i = 0; i < 20; i++) ids.push((await peer.next()).id);
  const refused = await rejection(session.request("ping"));
  assert.match(refused.message, /maxPendingRequests/);
  assert.is(errors.length, 1);
  await peer.send({ jsonrpc: "2.0", id: ids[7], result: {} });
  await calls[7];
  const more = session.request("ping");
  const m = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m.id, result: { more: 1 } });
  assert.equal(await more, { more: 1 });
  for (const id of ids) await peer.send({ jsonrpc: "2.0", id, result: {} });
  await Promise.all(calls);
  assert.is(session.pendingCount, 0);
});

type Op =
  | { kind: "request"; cancellable: boolean }
  | { kind: "answer"; pick: number; error: boolean }
  | { kind: "cancel"; pick: number }
  | { kind: "foreign"; pick: number; form: "answered" | "string" | "future" | "negative" };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("request" as const), cancellable: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("answer" as const), pick: fc.nat(), error: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("foreign" as const),
      pick: fc.nat(),
      form: fc.constantFrom("answered" as const, "string" as const, "future" as const, "negative" as const),
    }),
  },
);

interface Sent {
  id: number;
  box: { outcome?: Outcome };
  controller?: AbortController;
}

test("property: any interleaving settles each request once with its own answer; the rest reject on close", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 120 }), async (ops) => {
      const { session, peer, errors } = clientSession();
      const pending: Sent[] = [];
      const done: Sent[] = [];
      let lastId = -1;
      let expectedErrors = 0;
      for (const o of ops) {
        if (o.kind === "request") {
          const controller = o.cancellable ? new AbortController() : undefined;
          const box = track(session.request("ping", undefined, { signal: controller?.signal }));
          const m = await peer.next();
          assert.ok(m.id > lastId, "ids increase");
          lastId = m.id;
          pending.push({ id: m.id, box, controller });
        } else if (o.kind === "answer" && pending.length > 0) {
          const [s] = pending.splice(o.pick % pending.length, 1);
          await peer.send(
            o.error
              ? { jsonrpc: "2.0", id: s!.id, error: { code: -1, message: `e${s!.id}` } }
              : { jsonrpc: "2.0", id: s!.id, result: { id: s!.id } },
          );
          done.push(s!);
        } else if (o.kind === "cancel") {
          const i = pending.findIndex(
            (s, k) => s.controller !== undefined && k >= o.pick % Math.max(1, pending.length),
          );
          if (i < 0) continue;
          const [s] = pending.splice(i, 1);
          s!.controller!.abort(new Error(`cancel ${s!.id}`));
          const note = await peer.next();
          assert.equal(note, {
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: s!.id, reason: `cancel ${s!.id}` },
          });
          // A late answer to a cancelled request is dropped quietly.
          await peer.send({ jsonrpc: "2.0", id: s!.id, result: { late: true } });
          done.push(s!);
        } else if (o.kind === "foreign") {
          const answered = done.filter((s) => s.controller === undefined || !s.controller.signal.aborted);
          let id: unknown;
          if (o.form === "answered") {
            if (answered.length === 0) continue;
            id = answered[o.pick % answered.length]!.id;
          } else if (o.form === "string") {
            if (pending.length === 0) continue;
            id = String(pending[o.pick % pending.length]!.id);
          } else if (o.form === "future") id = lastId + 1 + (o.pick % 64);
          else id = -1 - (o.pick % 64);
          await peer.send({ jsonrpc: "2.0", id, result: { foreign: true } });
          expectedErrors++;
        }
        await settle();
        assert.is(session.pendingCount, pending.length);
      }
      for (const s of done) {
        const out = s.box.outcome as any;
        assert.ok(out !== undefined, `request ${s.id} settled`);
        if (s.controller?.signal.aborted) assert.is(out.err.message, `cancel ${s.id}`);
        else if ("ok" in out) assert.equal(out.ok, { id: s.id });
        else {
          assert.instance(out.err, McpError);
          assert.is(out.err.message.endsWith(`e${s.id}`), true, out.err.message);
        }
      }
      for (const s of pending) assert.is(s.box.outcome, undefined);
      assert.is(errors.length, expectedErrors);
      for (const e of errors) assert.match(e.message, /unknown id/);
      await session.close();
      await settle();
      for (const s of pending) assert.instance((s.box.outcome as any)?.err, ConnectionClosedError);
      assert.is(session.pendingCount, 0);
    }),
    { numRuns: 150, seed: 20261124 },
  );
});

test.run();
