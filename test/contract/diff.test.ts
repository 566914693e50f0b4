// `mcpgen diff`: the documented example (2025-11-25 -> 2026-07-28) lists every method and
// capability change our revision notes record (shared/spec-notes/revisions.md §1 and §3,
// transcribed below), and exactly what the reviewed method tables say changed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runDiff } from "../../generator/contract/diff/index.js";
import { McpgenError } from "../../generator/errors.js";
import { repoRoot } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";

const r = runDiff({ from: "2025-11-25", to: "2026-07-28" });
const names = (l: { method: string }[]) => l.map((m) => m.method).sort();

// revisions.md §1a/§1b: "—" in 2026-07-28 (tasks/get and tasks/cancel survive only in the tasks extension).
const NOTES_REMOVED = [
  "initialize", "ping", "resources/subscribe", "resources/unsubscribe", "logging/setLevel", "tasks/get", "tasks/result",
  "tasks/list", "tasks/cancel", "notifications/initialized", "notifications/roots/list_changed",
  "notifications/elicitation/complete", "notifications/tasks/status",
].sort();
const NOTES_ADDED = ["server/discover", "subscriptions/listen", "notifications/subscriptions/acknowledged"].sort();
// "MRTR" in 2026-07-28: no longer JSON-RPC requests, embedded input requests.
const NOTES_MRTR = ["sampling/createMessage", "elicitation/create", "roots/list"].sort();

test("methods: added and removed are the revision notes' lists", () => {
  assert.equal(names(r.diff.methods.added), NOTES_ADDED);
  assert.equal(names(r.diff.methods.removed), NOTES_REMOVED);
  assert.equal(r.diff.methods.renamed, []);
});

test("methods: sampling, elicitation and roots became input requests; progress became S->C only", () => {
  const kinds = r.diff.methods.changed.filter((c) => c.what === "kind");
  assert.equal(kinds.map((c) => c.method).sort(), NOTES_MRTR);
  for (const k of kinds) assert.equal([k.before, k.after], ["request", "input-request"]);
  assert.equal(
    r.diff.methods.changed.filter((c) => c.what === "direction"),
    [{ method: "notifications/progress", what: "direction", before: "both", after: "server" }],
  );
});

test("methods: agree with the reviewed method tables (schema/methods.<rev>.json)", () => {
  const table = (rev: string) => JSON.parse(readFileSync(join(repoRoot, "schema", `methods.${rev}.json`), "utf8")) as {
    methods: Record<string, { from: string }>;
    inputRequests?: Record<string, unknown>;
  };
  const a = table("2025-11-25");
  const b = table("2026-07-28");
  const inB = (m: string) => m in b.methods || m in (b.inputRequests ?? {});
  assert.equal(names(r.diff.methods.removed), Object.keys(a.methods).filter((m) => !inB(m)).sort());
  assert.equal(names(r.diff.methods.added), Object.keys(b.methods).filter((m) => !(m in a.methods)).sort());
  const moved = Object.keys(a.methods).filter((m) => m in b.methods && a.methods[m]!.from !== b.methods[m]!.from);
  assert.equal(r.diff.methods.changed.filter((c) => c.what === "direction").map((c) => c.method), moved);
});

test("capabilities: extensions added both sides, tasks removed, roots.listChanged removed (revisions.md §3)", () => {
  const caps = r.diff.capabilities.fields.map((c) => `${c.change} ${c.side} ${c.path}`);
  for (const want of [
    "added server extensions", "added client extensions", "removed server tasks", "removed client tasks", "removed client roots.listChanged",
  ]) assert.ok(caps.includes(want), `${want} in ${caps.join("; ")}`);
  assert.ok(caps.every((c) => /extensions|tasks|roots\.listChanged/.test(c)), caps.join("; "));
});

test("types: cacheable results gain required ttlMs and cacheScope; Tool loses execution; unions track members", () => {
  const type = (n: string) => r.diff.types.changed.find((t) => t.type === n);
  const fields = type("ListToolsResult")!.fields;
  for (const f of ["ttlMs", "cacheScope", "resultType"]) assert.ok(fields.some((x) => x.field === f && x.change === "added" && x.required), f);
  assert.ok(type("Tool")!.fields.some((f) => f.field === "execution" && f.change === "removed"));
  assert.ok(type("CancelledNotificationParams")!.fields.some((f) => f.field === "requestId" && f.change === "required"));
  assert.ok(type("ClientRequest")!.members!.removed.includes("PingRequest"));
  assert.ok(r.diff.types.added.includes("DiscoverResult"));
  assert.ok(r.diff.types.removed.includes("InitializeResult"));
  // An inline object that became a named type is not reported as a change.
  assert.not.ok(type("Tool")!.fields.some((f) => f.field === "_meta"));
});

test("2024-11-05 -> 2025-03-26: completion/complete gains the completions gate", () => {
  const d = runDiff({ from: "2024-11-05", to: "2025-03-26" }).diff;
  assert.equal(d.capabilities.gates, [{ method: "completion/complete", what: "capability", before: null, after: "completions" }]);
  assert.ok(d.capabilities.fields.some((c) => c.side === "server" && c.path === "completions" && c.change === "added"));
});

test("--manifest: the weather example uses resources/subscribe and its list results need ttlMs", () => {
  const w = runDiff({ from: "2025-11-25", to: "2026-07-28", manifest: join(repoRoot, "examples/weather/mcp.manifest.json") });
  const msgs = w.impact!.map((i) => i.message);
  assert.ok(msgs.some((m) => /uses resources\/subscribe \(it declares resources.subscribe\), removed in 2026-07-28/.test(m)), msgs.join("\n"));
  assert.ok(msgs.some((m) => /its tools\/list results \(ListToolsResult\) need ttlMs/.test(m)));
  assert.ok(msgs.some((m) => /uses logging\/setLevel/.test(m)));
  assert.ok(w.text.includes("Impact on this server"));
  assert.equal(JSON.parse(w.json).impact.length, w.impact!.length);
});

test("JSON is stable: same bytes twice, fixed top-level keys", () => {
  const again = runDiff({ from: "2025-11-25", to: "2026-07-28" });
  assert.is(again.json, r.json);
  assert.equal(Object.keys(JSON.parse(r.json)), ["from", "to", "methods", "capabilities", "types"]);
});

test("an unknown revision or missing file is an input error naming it", () => {
  assert.throws(() => runDiff({ from: "2025-11-25", to: "no/such/schema.json" }), (e: unknown) => e instanceof McpgenError && /no\/such\/schema\.json/.test(e.message));
});

test("CLI: diff --json prints the JSON; the readable report lists the sections", () => {
  const j = runCli(["diff", "2025-11-25", "2026-07-28", "--json"], repoRoot);
  assert.is(j.status, 0, j.stderr);
  assert.is(j.stdout, r.json);
  const t = runCli(["diff", "2025-11-25", "2026-07-28"], repoRoot);
  assert.is(t.status, 0, t.stderr);
  assert.match(t.stdout, /Methods removed \(13\)\n {2}initialize/);
  const bad = runCli(["diff", "2025-11-25"], repoRoot);
  assert.is(bad.status, 2);
});

test.run();
