import { test } from "uvu";
import * as assert from "uvu/assert";
import { ResultCache } from "@mcpgen/runtime/internal";

test("keys: method plus every param but _meta, order-independent; retries and uncacheable methods have none", () => {
  const c = new ResultCache();
  assert.is(c.key("tools/list", { _meta: { a: 1 } }), c.key("tools/list", {}));
  assert.is(c.key("resources/read", { uri: "a", x: 1 }), c.key("resources/read", { x: 1, uri: "a" }));
  assert.is.not(c.key("resources/read", { uri: "a" }), c.key("resources/read", { uri: "b" }));
  assert.is.not(c.key("tools/list", { cursor: "" }), c.key("tools/list", {}), "an empty cursor is a cursor");
  assert.is(c.key("tools/call", { name: "x" }), undefined);
  assert.is(c.key("resources/read", { uri: "a", requestState: "s" }), undefined);
  assert.is(c.key("resources/read", { uri: "a", inputResponses: {} }), undefined);
});

test("freshness: now < receivedAt + ttlMs; 0, negative, absent or non-numeric ttl is never kept", () => {
  let now = 1000;
  const c = new ResultCache(8, () => now);
  const k = c.key("tools/list", {})!;
  c.put(k, "tools/list", {}, { tools: [], ttlMs: 100 });
  assert.ok(c.get(k));
  now = 1099;
  assert.ok(c.get(k));
  now = 1100;
  assert.is(c.get(k), undefined, "stale at exactly receivedAt + ttlMs");
  c.put(k, "tools/list", {}, { tools: [], ttlMs: 100 });
  c.put(k, "tools/list", {}, { tools: [], ttlMs: 0 });
  assert.is(c.get(k), undefined, "a newer result with ttl 0 retires the cached one");
  for (const ttlMs of [0, -5, undefined, "100", Infinity]) {
    c.put(k, "tools/list", {}, { tools: [], ttlMs });
    assert.is(c.get(k), undefined, `ttlMs ${String(ttlMs)}`);
  }
});

test("invalidation by notification, bounded size", () => {
  const c = new ResultCache(3, () => 0);
  const put = (method: string, params: Record<string, unknown>) => {
    const k = c.key(method, params)!;
    c.put(k, method, params, { ttlMs: 1000 });
    return k;
  };
  const tools = put("tools/list", {});
  const a = put("resources/read", { uri: "a" });
  const b = put("resources/read", { uri: "b" });
  c.invalidate("notifications/resources/updated", { uri: "a" });
  assert.is(c.get(a), undefined);
  assert.ok(c.get(b));
  c.invalidate("notifications/tools/list_changed", undefined);
  assert.is(c.get(tools), undefined);
  put("prompts/list", {});
  put("resources/list", {});
  put("resources/templates/list", {});
  assert.is(c.size, 3);
  assert.is(c.get(b), undefined, "the oldest entry made room");
  c.invalidate("notifications/resources/list_changed", undefined);
  assert.is(c.size, 1);
});

test.run();
