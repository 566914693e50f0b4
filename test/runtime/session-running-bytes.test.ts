// The byte budget of the peer's running requests: each request is charged the size its transport
// gives (MessageContext.bytes; a batch's requests a share each) from dispatch until it is answered,
// cancelled or the connection closes, against its session's share, its principal's (the
// principalKey of MessageContext.auth, else the session) and the server's. Over any, it is
// answered -32000 at once with `data.limit` naming the share, the session's first.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { LimitError, limits, type MemoryTransport } from "@mcpgen/runtime";
import { RunningBytes, Session, type SessionBytes } from "@mcpgen/runtime/internal";
import type { AuthInfo } from "@mcpgen/runtime/auth";
import { byRevision, latest } from "./helpers/binding.js";
import { settle, withRawPeer } from "./helpers/peer.js";

/**
 * A server session whose tools/call handler waits until released by request id. Its transport
 * says how large each message is, as the HTTP transports do: here the `size` in its params; with
 * `auth`, every message comes from that principal, as behind an auth guard.
 */
function heldServer(runningBytes?: SessionBytes, binding = latest, auth?: AuthInfo) {
  const [t, peer] = withRawPeer();
  const errors: Error[] = [];
  const session = new Session({ transport: t, side: "server", binding, runningBytes, onerror: (e) => errors.push(e) });
  sized(t, auth);
  const release = new Map<unknown, () => void>();
  const aborted: unknown[] = [];
  session.setRequestHandler("tools/call", (_p: any, ctx) => {
    ctx.signal.addEventListener("abort", () => aborted.push(ctx.requestId));
    return new Promise((resolve) => release.set(ctx.requestId, () => resolve({ content: [] })));
  });
  void t.start();
  const call = (id: unknown, size?: number) =>
    peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x", size } });
  return { session, peer, errors, release, aborted, call };
}

function sized(t: MemoryTransport, auth?: AuthInfo): void {
  const deliver = t.onmessage!;
  t.onmessage = (m: any) => {
    const first = Array.isArray(m) ? m[0] : m;
    deliver(
      m,
      first?.params?.size === undefined
        ? auth === undefined
          ? undefined
          : { auth }
        : { bytes: Array.isArray(m) ? first.params.size * m.length : first.params.size, auth },
    );
  };
}

const alice: AuthInfo = { clientId: "app", subject: "alice", scopes: [] };
const bob: AuthInfo = { clientId: "app", subject: "bob", scopes: [] };

test("a request is charged its size until answered, cancelled or closed; one over the session's share is refused -32000 (runningBytes.perSession)", async () => {
  const budget = new RunningBytes({ perSession: 1000, max: 10_000 });
  const { session, peer, errors, release, aborted, call } = heldServer(budget.session());
  await call(1, 400);
  await call(2, 400);
  await settle();
  assert.is(budget.used, 800);
  await call(3, 300);
  const refused = await peer.next();
  assert.equal(refused, {
    jsonrpc: "2.0",
    id: 3,
    error: {
      code: -32000,
      message: "Server busy: requests in progress on this session would hold more than 1000 bytes",
      data: { limit: "runningBytes.perSession", max: 1000 },
    },
  });
  assert.instance(errors[0], LimitError);
  await call(4, 200);
  await settle();
  assert.equal([session.runningCount, budget.used], [3, 1000], "a request that fills the share exactly runs");
  release.get(1)!();
  assert.is((await peer.next()).id, 1);
  assert.is(budget.used, 600);
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
  await settle();
  assert.equal([aborted, budget.used], [[2], 200]);
  // A request whose transport gives no size is not charged.
  await call(5);
  await settle();
  assert.equal([session.runningCount, budget.used], [2, 200]);
  await session.close();
  assert.equal([aborted.sort(), budget.used], [[2, 4, 5], 0]);
});

test("the server's budget is shared by its sessions (runningBytes.max); a request is told about its own session's share first", async () => {
  const budget = new RunningBytes({ perSession: 800, max: 1000 });
  const a = heldServer(budget.session());
  const b = heldServer(budget.session());
  await a.call(1, 700);
  await b.call(1, 400);
  assert.equal((await b.peer.next()).error.data, { limit: "runningBytes.max", max: 1000 });
  await b.call(2, 300);
  await a.call(2, 200);
  assert.equal((await a.peer.next()).error.data, { limit: "runningBytes.perSession", max: 800 });
  await settle();
  assert.equal([a.session.runningCount, b.session.runningCount, budget.used], [1, 1, 1000]);
  a.release.get(1)!();
  assert.is((await a.peer.next()).id, 1);
  await b.call(3, 400);
  await settle();
  assert.equal([b.session.runningCount, budget.used], [2, 700], "what one session released another may use");
  await a.session.close();
  await b.session.close();
  assert.is(budget.used, 0);
});

test("without runningBytes a session has a share of its own, 64 MiB", async () => {
  const { session, peer, call } = heldServer();
  const share = limits.MAX_RUNNING_BYTES_PER_SESSION;
  await call(1, share - 10);
  await call(2, 11);
  assert.equal((await peer.next()).error.data, { limit: "runningBytes.perSession", max: share });
  await call(3, 10);
  await settle();
  assert.is(session.runningCount, 2);
  await session.close();
});

test("a 2025-03-26 batch's requests are charged a share of its size each; one refused leaves the others running", async () => {
  const budget = new RunningBytes({ perSession: 1000 });
  const { session, peer, release, call } = heldServer(budget.session(), byRevision("2025-03-26"));
  await call(0, 700);
  await settle();
  // Four requests of a 400-byte batch: 100 bytes each, the fourth over the share.
  await peer.send(
    [1, 2, 3, 4].map((id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x", size: 100 } })),
  );
  await settle();
  assert.equal([session.runningCount, budget.used], [4, 1000]);
  release.get(0)!();
  assert.is((await peer.next()).id, 0);
  for (const id of [1, 2, 3]) release.get(id)!();
  const batch = await peer.next();
  assert.equal(
    batch.map((r: any) => [r.id, r.error?.data?.limit]),
    [
      [4, "runningBytes.perSession"],
      [1, undefined],
      [2, undefined],
      [3, undefined],
    ],
  );
  assert.is(budget.used, 0);
});

test("property: any mix of sized requests started, answered, cancelled and refused keeps the charge equal to what runs, within both shares", async () => {
  const opArb = fc.oneof(
    fc.record({
      kind: fc.constant("start" as const),
      size: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 700 })),
    }),
    fc.record({ kind: fc.constantFrom("finish" as const, "cancel" as const), pick: fc.nat() }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), opArb), { maxLength: 60 }), async (ops) => {
      const budget = new RunningBytes({ perSession: 1000, max: 1500 });
      const sides = [heldServer(budget.session()), heldServer(budget.session())];
      const running: { side: number; id: number; size: number }[][] = [[], []];
      const held = (side: number) => running[side]!.reduce((n, r) => n + r.size, 0);
      let id = 0;
      for (const [second, o] of ops) {
        const side = second ? 1 : 0;
        const { peer, release, call } = sides[side]!;
        if (o.kind === "start") {
          const fits = held(side) + o.size <= 1000 && held(0) + held(1) + o.size <= 1500;
          await call(++id, o.size);
          if (fits) running[side]!.push({ side, id, size: o.size });
          else {
            const m = await peer.next();
            assert.is(m.id, id);
            assert.is(m.error.data.limit, held(side) + o.size > 1000 ? "runningBytes.perSession" : "runningBytes.max");
          }
        } else if (running[side]!.length > 0) {
          const [r] = running[side]!.splice(o.pick % running[side]!.length, 1);
          if (o.kind === "finish") {
            release.get(r!.id)!();
            assert.is((await peer.next()).id, r!.id);
          } else await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: r!.id } });
        }
        await settle();
        assert.is(budget.used, held(0) + held(1));
      }
      for (const { session } of sides) await session.close();
      assert.is(budget.used, 0);
    }),
    { numRuns: 100, seed: 20261127 },
  );
});

test("a principal's requests on all its sessions share runningBytes.perPrincipal; another principal and a session without one are still served", async () => {
  const budget = new RunningBytes({ perSession: 1000, perPrincipal: 1500, max: 10_000 });
  const a = [
    heldServer(budget.session(), latest, alice),
    heldServer(budget.session(), latest, alice),
    heldServer(budget.session(), latest, alice),
  ];
  const b = heldServer(budget.session(), latest, bob);
  const anonymous = heldServer(budget.session());
  await a[0]!.call(1, 900);
  await a[1]!.call(1, 600);
  await a[2]!.call(1, 1);
  const refused = await a[2]!.peer.next();
  assert.equal(refused, {
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32000,
      message: "Server busy: requests in progress of this principal would hold more than 1500 bytes",
      data: { limit: "runningBytes.perPrincipal", max: 1500 },
    },
  });
  assert.instance(a[2]!.errors[0], LimitError);
  assert.match(a[2]!.errors[0]!.message, /\(runningBytes\.perPrincipal\)/);
  await b.call(1, 900);
  await anonymous.call(1, 900);
  await settle();
  assert.equal(
    [b.session.runningCount, anonymous.session.runningCount],
    [1, 1],
    "another principal and a session without one run",
  );
  assert.equal([budget.principalUsed(alice), budget.principalUsed(bob), budget.used], [1500, 900, 3300]);
  // What one of her sessions releases, another may use.
  a[0]!.release.get(1)!();
  assert.is((await a[0]!.peer.next()).id, 1);
  await a[2]!.call(2, 900);
  await settle();
  assert.equal([a[2]!.session.runningCount, budget.principalUsed(alice)], [1, 1500]);
  for (const s of [...a, b, anonymous]) await s.session.close();
  assert.equal([budget.used, budget.principalUsed(alice), budget.principalUsed(bob)], [0, 0, 0]);
});

test("perPrincipal is checked after the session's share and before the server's; without a principal the session is its own", async () => {
  const budget = new RunningBytes({ perSession: 1000, perPrincipal: 500, max: 1200 });
  const mine = heldServer(budget.session(), latest, alice);
  const anonymous = heldServer(budget.session());
  await mine.call(1, 1100);
  assert.is((await mine.peer.next()).error.data.limit, "runningBytes.perSession");
  await mine.call(2, 600);
  assert.is((await mine.peer.next()).error.data.limit, "runningBytes.perPrincipal");
  await anonymous.call(1, 600);
  assert.equal((await anonymous.peer.next()).error.data, { limit: "runningBytes.perPrincipal", max: 500 });
  await mine.call(3, 500);
  await anonymous.call(2, 500);
  await settle();
  const other = heldServer(budget.session(), latest, bob);
  await other.call(1, 300);
  assert.equal(
    (await other.peer.next()).error.data,
    { limit: "runningBytes.max", max: 1200 },
    "a principal within its share meets the server's",
  );
  for (const s of [mine, anonymous, other]) await s.session.close();
  assert.is(budget.used, 0);
});

test("perPrincipal defaults to a quarter of max, never below perSession: 128 MiB with the default pool", () => {
  assert.is(new RunningBytes().perPrincipal, limits.MAX_RUNNING_BYTES_PER_PRINCIPAL);
  assert.is(limits.MAX_RUNNING_BYTES_PER_PRINCIPAL, 128 * 1024 * 1024);
  assert.is(new RunningBytes({ max: 4000, perSession: 500 }).perPrincipal, 1000);
  assert.is(new RunningBytes({ max: 1000, perSession: 500 }).perPrincipal, 500, "a lone session keeps its whole share");
  assert.is(new RunningBytes({ max: 1000, perPrincipal: 100 }).perPrincipal, 100);
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
    assert.throws(
      () => new RunningBytes({ perPrincipal: bad }),
      /runningBytes\.perPrincipal must be a positive integer/,
    );
  }
});

test("property: sessions of one principal and one without share the principal's bytes as the oracle says, and release them all", async () => {
  const opArb = fc.oneof(
    fc.record({ kind: fc.constant("start" as const), size: fc.integer({ min: 1, max: 700 }) }),
    fc.record({ kind: fc.constantFrom("finish" as const, "cancel" as const), pick: fc.nat() }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), opArb), { maxLength: 60 }), async (ops) => {
      const budget = new RunningBytes({ perSession: 1000, perPrincipal: 1200, max: 1500 });
      // Sessions 0 and 1 are alice's, session 2 has no principal.
      const sides = [
        heldServer(budget.session(), latest, alice),
        heldServer(budget.session(), latest, alice),
        heldServer(budget.session()),
      ];
      const running: { id: number; size: number }[][] = [[], [], []];
      const held = (side: number) => running[side]!.reduce((n, r) => n + r.size, 0);
      let id = 0;
      for (const [side, o] of ops) {
        const { peer, release, call } = sides[side]!;
        if (o.kind === "start") {
          const principal = side === 2 ? held(2) : held(0) + held(1);
          const expected =
            held(side) + o.size > 1000
              ? "runningBytes.perSession"
              : principal + o.size > 1200
                ? "runningBytes.perPrincipal"
                : held(0) + held(1) + held(2) + o.size > 1500
                  ? "runningBytes.max"
                  : undefined;
          await call(++id, o.size);
          if (expected === undefined) running[side]!.push({ id, size: o.size });
          else {
            const m = await peer.next();
            assert.equal([m.id, m.error.data.limit], [id, expected]);
          }
        } else if (running[side]!.length > 0) {
          const [r] = running[side]!.splice(o.pick % running[side]!.length, 1);
          if (o.kind === "finish") {
            release.get(r!.id)!();
            assert.is((await peer.next()).id, r!.id);
          } else await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: r!.id } });
        }
        await settle();
        assert.equal([budget.used, budget.principalUsed(alice)], [held(0) + held(1) + held(2), held(0) + held(1)]);
      }
      for (const { session } of sides) await session.close();
      assert.equal([budget.used, budget.principalUsed(alice)], [0, 0]);
    }),
    { numRuns: 100, seed: 20261128 },
  );
});

test("RunningBytes refuses limits that are not positive integers", () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
    assert.throws(() => new RunningBytes({ perSession: bad }), /runningBytes\.perSession must be a positive integer/);
    assert.throws(() => new RunningBytes({ max: bad }), /runningBytes\.max must be a positive integer/);
  }
});

test.run();
