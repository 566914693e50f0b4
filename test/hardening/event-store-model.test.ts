// The default in-memory event store keeps its events flat (message bytes in one buffer it compacts
// and grows, small integers per event): against a model that keeps every event as an object, any
// sequence of stores, stream removals and evictions replays the same messages with the same ids.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { InMemoryEventStore } from "@mcpgen/runtime/http";
import type { JSONRPCMessage } from "@mcpgen/runtime";

interface ModelEvent {
  streamId: string;
  seq: number;
  data: string | null;
}

/** The store's contract kept the obvious way: one object per event, bounded the same. */
class Model {
  events: ModelEvent[] = [];
  seq = 0;
  chars = 0;
  constructor(
    readonly maxEvents: number,
    readonly maxChars: number,
  ) {}
  store(streamId: string, message: JSONRPCMessage | null): string {
    const data = message === null ? null : JSON.stringify(message);
    this.events.push({ streamId, seq: ++this.seq, data });
    this.chars += data?.length ?? 0;
    while (this.events.length > this.maxEvents || (this.chars > this.maxChars && this.events.length > 1))
      this.chars -= this.events.shift()!.data?.length ?? 0;
    return `${streamId}_${this.seq}`;
  }
  remove(streamId: string): void {
    for (const e of this.events) {
      if (e.streamId !== streamId || e.data === undefined) continue;
      this.chars -= e.data?.length ?? 0;
      // undefined: removed (null is a priming event)
      (e as { data: string | null | undefined }).data = undefined;
    }
  }
  known(streamId: string): boolean {
    return this.events.some((e) => e.streamId === streamId && e.data !== undefined);
  }
  replay(lastEventId: string): [string, string][] {
    const cut = lastEventId.lastIndexOf("_");
    const streamId = lastEventId.slice(0, cut);
    const after = Number(lastEventId.slice(cut + 1));
    return this.events
      .filter((e) => e.streamId === streamId && e.seq > after && typeof e.data === "string")
      .map((e) => [`${streamId}_${e.seq}`, e.data!]);
  }
}

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("日本🌍", "é".repeat(300), "x".repeat(5000), '\u2028\n"\\'),
);
const op = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant("store" as const), stream: fc.nat(4), text: fc.option(text) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), stream: fc.nat(4) }) },
);

test("event store: replay, stream lookup and held characters match a per-object model", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 30_000 }),
      fc.array(op, { maxLength: 200 }),
      (maxEvents, maxChars, ops) => {
        const store = new InMemoryEventStore({ maxEvents, maxChars });
        const model = new Model(maxEvents, maxChars);
        const issued: string[] = [];
        for (const o of ops) {
          const streamId = `k-${o.stream}`;
          if (o.kind === "remove") {
            store.removeStream(streamId);
            model.remove(streamId);
            continue;
          }
          const message: JSONRPCMessage | null =
            o.text === null ? null : { jsonrpc: "2.0", method: "notifications/message", params: { text: o.text } };
          const id = store.storeEvent(streamId, message);
          assert.is(id, model.store(streamId, message));
          issued.push(id);
        }
        assert.is(store.heldChars, model.chars);
        assert.is(store.size, model.events.length);
        for (const id of [...issued, "k-0_0", "k-9_0"]) {
          const streamId = id.slice(0, id.lastIndexOf("_"));
          assert.is(store.streamIdFor(id), model.known(streamId) ? streamId : undefined);
          const got: [string, string][] = [];
          store.replayEventsAfter(id, (eventId, m) => got.push([eventId, JSON.stringify(m)]));
          assert.equal(got, model.replay(id));
        }
        // An id whose number is no event of its stream still names a stream known while it holds one.
        for (let k = 0; k < 5; k++)
          for (const tail of ["1e1", "x", "", "2.5", "-1", String(issued.length + 5)]) {
            const streamId = `k-${k}`;
            assert.is(store.streamIdFor(`${streamId}_${tail}`), model.known(streamId) ? streamId : undefined);
          }
      },
    ),
    { numRuns: 300, seed: 2611 },
  );
});

test("event store: messages stay intact across many compactions of its buffer", () => {
  const store = new InMemoryEventStore({ maxEvents: 50 });
  let last = "";
  for (let i = 0; i < 5000; i++) {
    store.storeEvent(`s-${i % 3}`, null);
    const id = store.storeEvent(`s-${i % 3}`, {
      jsonrpc: "2.0",
      id: i,
      result: { text: `${i} ${"日本🌍".repeat(i % 17)} ${"y".repeat((i * 37) % 900)}` },
    });
    if (i === 4990) last = id;
  }
  const seen: number[] = [];
  store.replayEventsAfter(last, (_eventId, m) => {
    const r = m as unknown as { id: number; result: { text: string } };
    assert.is(r.result.text, `${r.id} ${"日本🌍".repeat(r.id % 17)} ${"y".repeat((r.id * 37) % 900)}`);
    seen.push(r.id);
  });
  assert.equal(seen, [4993, 4996, 4999]);
});

test.run();
