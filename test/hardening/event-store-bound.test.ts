// The default event store is bounded in bytes as well as in events: a few huge SSE messages
// cannot pin memory.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InMemoryEventStore } from "@mcpgen/runtime/http";

test("event store: held characters stay under maxChars, oldest evicted first; replay returns what is left", () => {
  const store = new InMemoryEventStore({ maxChars: 10_000 });
  const ids: string[] = [];
  for (let i = 0; i < 100; i++)
    ids.push(store.storeEvent("s", { jsonrpc: "2.0", method: "m", params: { i, pad: "x".repeat(1000) } }));
  assert.ok(store.heldChars <= 10_000, `held ${store.heldChars}`);
  assert.ok(store.size <= 10);
  const replayed: number[] = [];
  store.replayEventsAfter(ids[0]!, (_id, m) => replayed.push((m as unknown as { params: { i: number } }).params.i));
  assert.equal(
    replayed,
    Array.from({ length: replayed.length }, (_, k) => 100 - replayed.length + k),
  );
  store.removeStream("s");
  assert.is(store.heldChars, 0);
});

test.run();
