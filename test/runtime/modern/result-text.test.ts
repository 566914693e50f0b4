// A 2026-07-28 server's results share one `_meta` (serverInfo) serialised once, and a transport
// that writes text (NDJSON, TransportHints.sendResult) assembles each result's text around it:
// the text must be the very one JSON.stringify writes of the whole result, whatever the result
// holds and wherever its `_meta` stands, and the result is left as it was.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { resultText, sharedResultMeta } from "@mcpgen/runtime/internal";

const json = fc.jsonValue({ maxDepth: 3 });
const members = fc.dictionary(
  fc.string().filter((k) => k !== "_meta"),
  json,
  { maxKeys: 6 },
);

test("resultText is JSON.stringify of a result whose shared _meta is its last member", () => {
  fc.assert(
    fc.property(members, fc.dictionary(fc.string(), json, { maxKeys: 4 }), (m, metaValue) => {
      const meta = sharedResultMeta(metaValue);
      const result: Record<string, unknown> = { ...m };
      result._meta = meta;
      const expected = JSON.stringify(result);
      assert.is(resultText(result), expected);
      // Left as it was: the same `_meta` object, in the same place.
      assert.is(result._meta, meta);
      assert.is(JSON.stringify(result), expected);
    }),
    { numRuns: 300 },
  );
});

test("resultText is JSON.stringify where the assembly does not fit: _meta not last, replaced, not a data member", () => {
  fc.assert(
    fc.property(members, members, (before, after) => {
      const meta = sharedResultMeta({ "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } });
      const result: Record<string, unknown> = { ...before };
      result._meta = meta;
      Object.assign(result, after);
      assert.is(resultText(result), JSON.stringify(result));
    }),
    { numRuns: 200 },
  );
  const meta = sharedResultMeta({ a: 1 });
  const frozen = Object.freeze({ content: [], _meta: meta });
  assert.is(resultText(frozen), JSON.stringify(frozen));
  const replaced = { content: [], _meta: meta, toJSON: () => ({ other: true }) };
  assert.is(resultText(replaced), '{"other":true}');
  const accessor = Object.defineProperty({ content: [] as unknown[] }, "_meta", {
    get: () => meta,
    set: () => {},
    enumerable: true,
  });
  assert.is(resultText(accessor), JSON.stringify(accessor));
  // A `_meta` of the result's own, not a shared one: written whole.
  const own = { content: [], _meta: { a: 1 } };
  assert.is(resultText(own), '{"content":[],"_meta":{"a":1}}');
  assert.is(resultText({ _meta: meta }), '{"_meta":{"a":1}}');
});

test("sharedResultMeta freezes the object it serialised; its text is invisible to JSON and key walks", () => {
  const meta = sharedResultMeta({ a: 1 });
  assert.ok(Object.isFrozen(meta));
  assert.equal(Object.keys(meta), ["a"]);
  assert.is(JSON.stringify(meta), '{"a":1}');
});

test.run();
