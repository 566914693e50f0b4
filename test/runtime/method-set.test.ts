// The per-call path's one-entry answers: a MethodSet keeps its last question's answer, a lazy
// binding the last method whose validator it found loaded. Neither may answer a different
// question with a kept answer. Read from the runtime's unbundled build (these are internal).
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ProtocolBinding } from "@mcpgen/runtime";
import type { RevisionInfo } from "@mcpgen/runtime/internal";

interface MethodSetLike {
  has(method: string): boolean;
}
const build = (path: string) => new URL(`../../../runtime/build/${path}`, import.meta.url).href;
const { MethodSet, FixedMap } = (await import(build("session/method-set.js"))) as {
  MethodSet: new (members: Iterable<string>) => MethodSetLike;
  FixedMap: new <V>(entries: Iterable<readonly [string, V]>) => {
    get(key: string): V | undefined;
    has(key: string): boolean;
  };
};
const lazy = (await import(build("lazy-binding.js"))) as {
  lazyBinding(info: RevisionInfo): ProtocolBinding;
  validatorReady(binding: ProtocolBinding, kind: "params" | "results", method: string): Promise<void> | undefined;
};

test("MethodSet answers like a Set whatever the order of questions", () => {
  const members = ["tools/call", "prompts/get", "resources/read"];
  const set = new MethodSet(members);
  const reference = new Set(members);
  const asked = [
    "tools/call",
    "tools/call",
    "tools/list",
    "tools/list",
    "tools/call",
    "",
    "prompts/get",
    "resources/read",
    "tools/lis",
    "tools/call",
  ];
  // A string built at run time (not the same object as the literal) gets the same answers.
  asked.push(["tools", "call"].join("/"), ["tools", "list"].join("/"));
  for (const method of asked) assert.is(set.has(method), reference.has(method), method);
  assert.is(new MethodSet([]).has("tools/call"), false);
});

test("FixedMap answers like a Map whatever the order of lookups", () => {
  const entries = [
    ["2026-07-28", 1],
    ["2027-01-01", 2],
  ] as const;
  const map = new FixedMap<number>(entries);
  const reference = new Map<string, number>(entries);
  const asked = [
    "2026-07-28",
    "2026-07-28",
    "2025-11-25",
    "2027-01-01",
    "2027-01-01",
    "",
    "2026-07-28",
    ["2026", "07", "28"].join("-"),
  ];
  for (const key of asked) {
    assert.is(map.get(key), reference.get(key), key);
    assert.is(map.has(key), reference.has(key), key);
  }
});

test("a lazy binding's readiness: only the method found loaded is answered from the kept one, per kind", async () => {
  const info = (await import("@mcpgen/runtime/protocol/2025-11-25/methods")) as RevisionInfo;
  const binding = lazy.lazyBinding(info);
  assert.ok(lazy.validatorReady(binding, "params", "tools/call") instanceof Promise, "not loaded yet");
  await lazy.validatorReady(binding, "params", "tools/call");
  assert.is(lazy.validatorReady(binding, "params", "tools/call"), undefined);
  assert.is(lazy.validatorReady(binding, "params", "tools/call"), undefined, "asked again: the kept answer");
  const other = lazy.validatorReady(binding, "params", "tools/list");
  assert.ok(other instanceof Promise, "another method is still not loaded");
  assert.ok(
    lazy.validatorReady(binding, "results", "tools/call") instanceof Promise,
    "the result validator is another question",
  );
  await other;
  assert.is(lazy.validatorReady(binding, "params", "tools/list"), undefined);
  assert.is(
    lazy.validatorReady(binding, "params", "tools/call"),
    undefined,
    "still loaded after another method was asked about",
  );
  assert.is(binding.params["tools/call"]!({ name: "x" }), true);
});

test.run();
