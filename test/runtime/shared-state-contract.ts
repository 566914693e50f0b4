// What every implementation of the scale-out seams answers alike: the event store, the
// requestState nonce claims and the change bus. Run against the in-memory defaults
// (shared-state.test.ts; one process has no bus) and the Redis stores (test/redis/stores.test.ts).
// The task store has its own contract (tasks/store-contract.ts).
import { test as uvuTest } from "uvu";
import * as assert from "uvu/assert";
import type { Change, ChangeBus, JSONRPCMessage, NonceClaims } from "@mcpgen/runtime";
import type { EventStore } from "@mcpgen/runtime/http";

type EventStoreMake = (o: { maxEventsPerStream: number }) => Promise<EventStore>;

const msg = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: "t", progress: n },
});

async function replay(store: EventStore, after: string): Promise<[string, JSONRPCMessage][]> {
  const got: [string, JSONRPCMessage][] = [];
  await store.replayEventsAfter(after, (id, m) => void got.push([id, m]));
  return got;
}

export function eventStoreContract(name: string, make: EventStoreMake): void {
  const test = (title: string, body: () => Promise<void>) => uvuTest(`${name} event store: ${title}`, body);

  test("replays what followed an event on its stream only, in order, with the ids it issued", async () => {
    const store = await make({ maxEventsPerStream: 100 });
    const prime = await store.storeEvent("s1", null);
    const a = await store.storeEvent("s1", msg(1));
    await store.storeEvent("s2", msg(99));
    const b = await store.storeEvent("s1", msg(2));
    const c = await store.storeEvent("s1", msg(3));
    assert.ok(
      [prime, a, b, c].every((id) => /^[\x21-\x7e]+$/.test(id)),
      "event ids are visible ASCII",
    );
    assert.is(new Set([prime, a, b, c]).size, 4);
    assert.is(await store.streamIdFor(a), "s1");
    assert.equal(
      await replay(store, prime),
      [
        [a, msg(1)],
        [b, msg(2)],
        [c, msg(3)],
      ],
      "a priming event is a cursor, never replayed",
    );
    assert.equal(await replay(store, b), [[c, msg(3)]]);
    assert.equal(await replay(store, c), []);
  });

  test("unknown, malformed and removed streams replay nothing", async () => {
    const store = await make({ maxEventsPerStream: 100 });
    const a = await store.storeEvent("gone", msg(1));
    await store.storeEvent("gone", msg(2));
    for (const id of ["", "nounderscore", "x_y", "never_1"]) {
      assert.is(await store.streamIdFor(id), undefined, id);
      assert.equal(await replay(store, id), [], id);
    }
    await store.removeStream?.("gone");
    assert.is(await store.streamIdFor(a), undefined);
    assert.equal(await replay(store, a), []);
  });

  test("a stream keeps its newest events within its bound", async () => {
    const store = await make({ maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await store.storeEvent("bounded", msg(i)));
    const got = await replay(store, ids[0]!);
    assert.equal(
      got.map(([, m]) => (m as unknown as { params: { progress: number } }).params.progress),
      [3, 4, 5],
    );
  });
}

export function nonceClaimsContract(name: string, make: () => Promise<NonceClaims>): void {
  const test = (title: string, body: () => Promise<void>) => uvuTest(`${name} nonce claims: ${title}`, body);

  test("a nonce is claimed once until released", async () => {
    const a = await make();
    const now = Date.now();
    assert.is(await a.claim("n1", now + 60_000, now), true);
    assert.is(await a.claim("n1", now + 60_000, now), false);
    assert.is(await a.claim("n2", now + 60_000, now), true);
    await a.release("n1");
    assert.is(await a.claim("n1", now + 60_000, now), true, "a released claim may be made again");
  });

  test("a claim lapses with the state it claims", async () => {
    const a = await make();
    const now = Date.now();
    assert.is(await a.claim("short", now + 30, now), true);
    await new Promise((r) => setTimeout(r, 80));
    assert.is(await a.claim("short", Date.now() + 60_000, Date.now()), true);
  });
}

/** `make` attaches a fresh instance to the same bus each call. */
export function changeBusContract(name: string, make: () => Promise<ChangeBus & { close(): Promise<void> }>): void {
  const test = (title: string, body: () => Promise<void>) => uvuTest(`${name} change bus: ${title}`, body);

  /** What a target attached to `bus` is told, as the changes that told it. */
  const heard = (bus: ChangeBus, got: Change[] = []) => {
    const detach = bus.attach({
      listChanged: (list) => void got.push({ kind: "listChanged", list }),
      resourceUpdated: (uri) => void got.push({ kind: "resourceUpdated", uri }),
      taskChanged: (task) => void got.push({ kind: "task", task }),
      taskCancelled: (taskId) => void got.push({ kind: "taskCancel", taskId }),
      taskInput: (taskId, responses) => void got.push({ kind: "taskInput", taskId, responses }),
    });
    return Object.assign(got, { detach });
  };
  const settle = async (got: Change[], n: number) => {
    for (let i = 0; i < 100 && got.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  };

  test("every other attachment hears a change, the publisher does not", async () => {
    const [a, b, c] = [await make(), await make(), await make()];
    const [ga, gb, gc] = [heard(a), heard(b), heard(c)];
    const changes: Change[] = [
      { kind: "listChanged", list: "tools" },
      { kind: "resourceUpdated", uri: "file:///a" },
      { kind: "taskCancel", taskId: "t1" },
      { kind: "taskInput", taskId: "t1", responses: { k: { action: "accept", content: {} } } },
      { kind: "task", task: { taskId: "t1", status: "working" } },
    ];
    for (const ch of changes) await a.publish(ch);
    await settle(gb, 5);
    await settle(gc, 5);
    assert.equal(gb, changes);
    assert.equal(gc, changes);
    assert.equal(ga, []);
    for (const bus of [a, b, c]) await bus.close();
  });

  test("a detached target hears nothing more", async () => {
    const [a, b] = [await make(), await make()];
    const got = heard(b);
    await a.publish({ kind: "listChanged", list: "prompts" });
    await settle(got, 1);
    got.detach();
    await a.publish({ kind: "listChanged", list: "resources" });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(got, [{ kind: "listChanged", list: "prompts" }]);
    for (const bus of [a, b]) await bus.close();
  });
}
