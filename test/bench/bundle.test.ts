// The bench's bundle step (bench/bundle.ts) runs in CI too, so a change that breaks it, or that
// pulls code a minimal server never needs into its bundle (the task machinery once did), fails
// here rather than in the next bench run. Sizes are bytes, not time: deterministic for a given
// esbuild and lock file.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { measureBundles } from "../../bench/bundle.js";

/**
 * gzip bytes of the one-tool stdio server in one file, every bundled revision: 52.9 kB when this
 * was written (57.7 kB while the task machinery was a runtime chunk every bundle carried). 55.5 kB
 * after the security work (sessions bound to principals, listen shares, running-request and
 * body-buffer byte budgets, peer answers over the limit failing their request) and stdio's drain
 * on end of input: the budget is 58 kB.
 */
const ONE_FILE_BUDGET = 58_000;

test("the one-tool server bundles within its budget, smaller than SDK v1's, and its split start holds no validator chunk", async () => {
  const b = await measureBundles();
  for (const s of [b.sdk1, b.all, b.one]) assert.ok(s.single > 1000 && s.start > 0 && s.total >= s.start, JSON.stringify(s));
  assert.ok(b.all.single <= ONE_FILE_BUDGET, `one file: ${b.all.single} bytes gzip, budget ${ONE_FILE_BUDGET}`);
  assert.ok(b.one.single < b.all.single, "dropping revisions from the manifest drops them from the bundle");
  assert.ok(b.all.single < b.sdk1.single, `mcpgen ${b.all.single} against SDK v1 ${b.sdk1.single}`);
  assert.ok(b.all.start < b.all.session && b.all.session < b.all.total, "validators load after start, per session");
  assert.ok(b.all.chunks > 10, `${b.all.chunks} chunks: each revision's validators stay lazy`);
});

test.run();
