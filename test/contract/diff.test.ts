// `mcpgen diff`: the documented example (2025-11-25 -> 2026-07-28) lists every method and
// capability change of the revision's changelog
// (https://modelcontextprotocol.io/specification/2026-07-28/changelog, transcribed below), and
// exactly what the reviewed method tables say changed. With --manifest it answers what to change:
// the verdict first, each distinct change once, what the runtime handles in one closing line.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runDiff } from "../../generator/contract/diff/index.js";
import { McpgenError } from "../../generator/errors.js";
import { DEFAULT_SCHEMA_REF, starterManifest } from "../../generator/init.js";
import { repoRoot, tempDir } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";

const r = runDiff({ from: "2025-11-25", to: "2026-07-28" });
const names = (l: { method: string }[]) => l.map((m) => m.method).sort();

// The changelog's method tables: "—" in 2026-07-28 (tasks/get and tasks/cancel survive only in the tasks extension).
const NOTES_REMOVED = [
  "initialize",
  "ping",
  "resources/subscribe",
  "resources/unsubscribe",
  "logging/setLevel",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
  "notifications/initialized",
  "notifications/roots/list_changed",
  "notifications/elicitation/complete",
  "notifications/tasks/status",
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
  const table = (rev: string) =>
    JSON.parse(readFileSync(join(repoRoot, "schema", `methods.${rev}.json`), "utf8")) as {
      methods: Record<string, { from: string }>;
      inputRequests?: Record<string, unknown>;
    };
  const a = table("2025-11-25");
  const b = table("2026-07-28");
  const inB = (m: string) => m in b.methods || m in (b.inputRequests ?? {});
  assert.equal(
    names(r.diff.methods.removed),
    Object.keys(a.methods)
      .filter((m) => !inB(m))
      .sort(),
  );
  assert.equal(
    names(r.diff.methods.added),
    Object.keys(b.methods)
      .filter((m) => !(m in a.methods))
      .sort(),
  );
  const moved = Object.keys(a.methods).filter((m) => m in b.methods && a.methods[m]!.from !== b.methods[m]!.from);
  assert.equal(
    r.diff.methods.changed.filter((c) => c.what === "direction").map((c) => c.method),
    moved,
  );
});

test("capabilities: extensions added both sides, tasks removed, roots.listChanged removed (the changelog)", () => {
  const caps = r.diff.capabilities.fields.map((c) => `${c.change} ${c.side} ${c.path}`);
  for (const want of [
    "added server extensions",
    "added client extensions",
    "removed server tasks",
    "removed client tasks",
    "removed client roots.listChanged",
  ])
    assert.ok(caps.includes(want), `${want} in ${caps.join("; ")}`);
  assert.ok(
    caps.every((c) => /extensions|tasks|roots\.listChanged/.test(c)),
    caps.join("; "),
  );
});

test("types: cacheable results gain required ttlMs and cacheScope; Tool loses execution; unions track members", () => {
  const type = (n: string) => r.diff.types.changed.find((t) => t.type === n);
  const fields = type("ListToolsResult")!.fields;
  for (const f of ["ttlMs", "cacheScope", "resultType"])
    assert.ok(
      fields.some((x) => x.field === f && x.change === "added" && x.required),
      f,
    );
  assert.ok(type("Tool")!.fields.some((f) => f.field === "execution" && f.change === "removed"));
  assert.ok(
    type("CancelledNotificationParams")!.fields.some((f) => f.field === "requestId" && f.change === "required"),
  );
  assert.ok(type("ClientRequest")!.members!.removed.includes("PingRequest"));
  assert.ok(r.diff.types.added.includes("DiscoverResult"));
  assert.ok(r.diff.types.removed.includes("InitializeResult"));
  // An inline object that became a named type is not reported as a change.
  assert.not.ok(type("Tool")!.fields.some((f) => f.field === "_meta"));
});

test("2024-11-05 -> 2025-03-26: completion/complete gains the completions gate", () => {
  const d = runDiff({ from: "2024-11-05", to: "2025-03-26" }).diff;
  assert.equal(d.capabilities.gates, [
    { method: "completion/complete", what: "capability", before: null, after: "completions" },
  ]);
  assert.ok(d.capabilities.fields.some((c) => c.side === "server" && c.path === "completions" && c.change === "added"));
});

test("--manifest: the weather example uses resources/subscribe and its list results need ttlMs; it serves 2026-07-28 already, so nothing to do", () => {
  const w = runDiff({
    from: "2025-11-25",
    to: "2026-07-28",
    manifest: join(repoRoot, "examples/weather/mcp.manifest.json"),
  });
  const msgs = w.impact!.map((i) => i.message);
  assert.ok(
    msgs.some((m) => /uses resources\/subscribe \(it declares resources.subscribe\), removed in 2026-07-28/.test(m)),
    msgs.join("\n"),
  );
  assert.ok(msgs.some((m) => /its tools\/list results \(ListToolsResult\) need ttlMs/.test(m)));
  assert.ok(msgs.some((m) => /uses logging\/setLevel/.test(m)));
  assert.match(
    w.text,
    /^Nothing to do: .*weather\/mcp\.manifest\.json already serves 2026-07-28; the mcpgen runtime handles the \d+ protocol changes that touch it\n/,
  );
  const json = JSON.parse(w.json);
  assert.equal(json.impact.length, w.impact!.length);
  assert.is(json.verdict.nothingToDo, true);
  assert.is(json.verdict.summary, w.text.split("\n")[0]);
});

/** The report's lines without the blank ones. */
const linesOf = (text: string) => text.split("\n").filter((l) => l !== "");

test("--manifest on the starter manifest (mcpgen init): the verdict says nothing to do, first; what the runtime handles is one line, last", () => {
  const { dir, cleanup } = tempDir("mcpgen-diff-starter-");
  try {
    writeFileSync(join(dir, "mcp.manifest.json"), starterManifest("starter", DEFAULT_SCHEMA_REF));
    const r = runCli(["diff", "2025-11-25", "2026-07-28", "--manifest", "mcp.manifest.json"], dir);
    assert.is(r.status, 0, r.stderr);
    const lines = linesOf(r.stdout);
    assert.is(
      lines[0],
      "Nothing to do: mcp.manifest.json already serves 2026-07-28; the mcpgen runtime handles the 12 protocol changes that touch it",
    );
    assert.is(lines.length, 2, r.stdout);
    assert.match(
      lines[1]!,
      /^Handled by the mcpgen runtime, nothing to change \(12 protocol changes\): it answers each revision with its own methods \(2026-07-28 has no initialize, notifications\/initialized, ping; .*\); sets cacheScope, resultType, ttlMs on its results\.$/,
    );
    const json = JSON.parse(
      runCli(["diff", "2025-11-25", "2026-07-28", "--manifest", "mcp.manifest.json", "--json"], dir).stdout,
    );
    assert.equal([json.verdict.nothingToDo, json.verdict.summary, json.verdict.changes], [true, lines[0], []]);
    assert.is(json.verdict.handledSummary, lines[1]);
  } finally {
    cleanup();
  }
});

test("--manifest on a 13-tool manifest that lists only legacy revisions: the verdict first names the change, no line repeats, the tools share one item", () => {
  const manifest = join(repoRoot, "test/fixtures/contract/thirteen-tools.manifest.json");
  const r = runCli(["diff", "2025-11-25", "2026-07-28", "--manifest", manifest], repoRoot);
  assert.is(r.status, 0, r.stderr);
  const lines = linesOf(r.stdout);
  assert.is(
    lines[0],
    '1 change to serve 2026-07-28: add "2026-07-28" to revisions (the mcpgen runtime handles the rest: 38 protocol changes)',
  );
  assert.equal(lines.slice(1, 3), [
    "To change (1):",
    `  /revisions: add "2026-07-28" (${manifest} lists 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05), then run mcpgen generate`,
  ]);
  assert.is(lines.length, 4, r.stdout);
  assert.is(new Set(lines).size, lines.length);
  assert.match(
    lines[3]!,
    /^Handled by the mcpgen runtime once 2026-07-28 is listed, nothing to change \(38 protocol changes\): .*resources\/subscribe.*; leaves Tool\.execution \(13 tools\) out of what it publishes in 2026-07-28\.$/,
  );
  // the structured form: the same verdict, the 13 tools in one handled item
  const d = runDiff({ from: "2025-11-25", to: "2026-07-28", manifest });
  assert.is(d.verdict!.summary, lines[0]);
  assert.equal(
    d.verdict!.changes.map((c) => c.kind),
    ["revision-not-served"],
  );
  const execution = d.verdict!.handled.filter((h) => h.message.startsWith("Tool.execution"));
  assert.is(execution.length, 1);
  assert.is(execution[0]!.entries.length, 13);
  assert.is(d.impact!.filter((i) => i.kind === "entry-field-removed").length, 13);
});

test("--manifest: a change to entries is one line naming every entry; a revision this mcpgen does not serve handles nothing", () => {
  const { dir, cleanup } = tempDir("mcpgen-diff-required-");
  try {
    // a later revision (not bundled) in which Tool requires icons
    const schema = JSON.parse(readFileSync(join(repoRoot, "schema/2026-07-28/schema.json"), "utf8")) as {
      $defs: { Tool: { required: string[] } };
    };
    schema.$defs.Tool.required.push("icons");
    mkdirSync(join(dir, "2027-01-01"));
    writeFileSync(join(dir, "2027-01-01/schema.json"), JSON.stringify(schema));
    const manifest = join(repoRoot, "test/fixtures/contract/thirteen-tools.manifest.json");
    const d = runDiff({ from: "2026-07-28", to: join(dir, "2027-01-01/schema.json"), manifest, warn: () => {} });
    const lines = linesOf(d.text);
    assert.is(
      lines[0],
      '2027-01-01 is not a revision this mcpgen serves (it serves 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28), so nothing is handled for you: 2 changes: list "2027-01-01" once mcpgen serves it; add icons to 13 tools',
    );
    assert.is(
      lines[3],
      "  add icons to 13 tools: add, echo, fetch-page, get-time, list-files, long-task and 7 more (Tool.icons is required in 2027-01-01; /tools/0, /tools/1, /tools/2 and 10 more)",
    );
    assert.is(lines.length, 4, d.text);
    assert.is(d.verdict!.nothingToDo, false);
    assert.equal(d.verdict!.handled, []);
  } finally {
    cleanup();
  }
});

test("--manifest: a manifest the loader rejects is an error naming the file, line and pointer", () => {
  const { dir, cleanup } = tempDir("mcpgen-diff-bad-");
  try {
    writeFileSync(
      join(dir, "m.json"),
      '{\n  "name": "x",\n  "version": "1.0.0",\n  "revisions": ["2025-11-25", "2099-01-01"]\n}\n',
    );
    const r = runCli(["diff", "2025-11-25", "2026-07-28", "--manifest", "m.json"], dir);
    assert.is(r.status, 1);
    assert.is(r.stdout, "");
    assert.match(r.stderr, /m\.json:4:31: error: \/revisions\/1: expected one of "2024-11-05"/);
  } finally {
    cleanup();
  }
});

test("JSON is stable: same bytes twice, fixed top-level keys", () => {
  const again = runDiff({ from: "2025-11-25", to: "2026-07-28" });
  assert.is(again.json, r.json);
  assert.equal(Object.keys(JSON.parse(r.json)), ["from", "to", "methods", "capabilities", "types"]);
});

test("an unknown revision or missing file is an input error naming it", () => {
  assert.throws(
    () => runDiff({ from: "2025-11-25", to: "no/such/schema.json" }),
    (e: unknown) => e instanceof McpgenError && /no\/such\/schema\.json/.test(e.message),
  );
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
