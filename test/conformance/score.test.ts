import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { tempDir } from "../helpers.js";
import {
  announcedScenarios,
  applyBaseline,
  collectResults,
  formatDetails,
  formatTable,
  parseBaseline,
  parseRequirementsList,
  scenarioFromDir,
  summaryLine,
  verdict,
  type Cell,
  type Check,
  type Leg,
} from "./score.js";

const TS = "2026-11-22T04-34-20-302Z";
const ok = (id: string): Check => ({ id, status: "SUCCESS" });
const failure = (id: string, msg: string): Check => ({ id, status: "FAILURE", errorMessage: msg });
const warning = (id: string): Check => ({ id, status: "WARNING", errorMessage: "should have" });

/** Writes `<dir>/<rel>/checks.json` the way the suite lays results out. */
function put(dir: string, rel: string, checks: unknown): void {
  mkdirSync(join(dir, rel), { recursive: true });
  writeFileSync(join(dir, rel, "checks.json"), typeof checks === "string" ? checks : JSON.stringify(checks));
}

const columns: Record<Leg, string[]> = {
  server: ["0.1.16", "alpha.12", "alpha.12-req"],
  client: ["0.1.16", "alpha.12"],
};

test("verdict: server tolerates warnings, client does not; FAILURE fails both", () => {
  const warned = [ok("a"), warning("b"), { id: "c", status: "INFO" }, { id: "d", status: "SKIPPED" }];
  assert.equal(verdict(warned, "server"), { pass: true });
  const client = verdict(warned, "client");
  assert.is(client.pass, false);
  assert.match(client.reason!, /WARNING b: should have/);
  const failed = verdict([ok("a"), failure("tools-list", "Failed: fetch failed")], "server");
  assert.is(failed.pass, false);
  assert.is(failed.reason, "FAILURE tools-list: Failed: fetch failed");
});

test("verdict: a scenario without any check fails (no vacuous pass)", () => {
  assert.equal(verdict([], "client"), { pass: false, reason: "no checks recorded" });
  assert.equal(verdict([], "server"), { pass: false, reason: "no checks recorded" });
});

test("scenarioFromDir: server prefix, client auth sub-folders, foreign folders ignored", () => {
  assert.is(scenarioFromDir(`server-tools-call-image-${TS}`, "server"), "tools-call-image");
  assert.is(scenarioFromDir(`server-server-sse-polling-${TS}`, "server"), "server-sse-polling");
  assert.is(scenarioFromDir(`sse-retry-${TS}`, "client"), "sse-retry");
  assert.is(scenarioFromDir(`auth/metadata-default-${TS}`, "client"), "auth/metadata-default");
  assert.is(scenarioFromDir(`tools-list-${TS}`, "server"), undefined);
  assert.is(scenarioFromDir("server-ping", "server"), undefined);
});

test("collectResults: pass, failure, warning on client, malformed file, newest run wins", () => {
  const { dir, cleanup } = tempDir("mcpgen-conf-");
  try {
    put(dir, `initialize-${TS}`, [ok("mcp-client-initialization")]);
    put(dir, `tools_call-${TS}`, [failure("tool-add-numbers", "not called")]);
    put(dir, `sse-retry-${TS}`, [ok("client-sse-graceful-reconnect"), warning("client-sse-last-event-id")]);
    put(dir, `auth/metadata-default-${TS}`, [ok("authorization-server-metadata")]);
    put(dir, `elicitation-sep1034-client-defaults-${TS}`, "{ not json");
    put(dir, `ping-2026-11-22T04-34-20-302Z`, [failure("x", "old")]);
    put(dir, `ping-2026-11-22T04-35-00-000Z`, [ok("x")]);
    const r = collectResults(dir, "client");
    assert.equal([...r.keys()].sort(), [
      "auth/metadata-default",
      "elicitation-sep1034-client-defaults",
      "initialize",
      "ping",
      "sse-retry",
      "tools_call",
    ]);
    assert.is(r.get("initialize")!.verdict.pass, true);
    assert.is(r.get("tools_call")!.verdict.pass, false);
    assert.is(r.get("sse-retry")!.verdict.pass, false);
    assert.is(r.get("auth/metadata-default")!.verdict.pass, true);
    assert.match(r.get("elicitation-sep1034-client-defaults")!.verdict.reason!, /not readable JSON/);
    assert.is(r.get("ping")!.verdict.pass, true);

    const s = collectResults(dir, "server");
    assert.is(s.size, 0, "client folders are not server results");
  } finally {
    cleanup();
  }
});

test("collectResults: a warning passes on the server leg; a non-check array entry is an error", () => {
  const { dir, cleanup } = tempDir("mcpgen-conf-");
  try {
    put(dir, `server-server-sse-polling-${TS}`, [
      warning("server-sse-priming-event"),
      ok("server-sse-disconnect-resume"),
    ]);
    put(dir, `server-ping-${TS}`, [{ status: "SUCCESS" }]);
    const r = collectResults(dir, "server");
    assert.is(r.get("server-sse-polling")!.verdict.pass, true);
    assert.is(r.get("ping")!.verdict.pass, false);
    assert.match(r.get("ping")!.verdict.reason!, /\/0 is not a check/);
    assert.is(collectResults(join(dir, "missing"), "server").size, 0);
  } finally {
    cleanup();
  }
});

test("announcedScenarios reads server and client suite output", () => {
  const server =
    "Running active suite (3 scenarios) against http://localhost:1/mcp\n\n\n=== Running scenario: ping ===\nx\n=== Running scenario: tools-list ===\n";
  assert.equal(announcedScenarios(server), { total: 3, names: ["ping", "tools-list"] });
  const client =
    "Running core suite (18 scenarios) in parallel...\nStarting scenario: initialize\nExecuting client: true http://x\nStarting scenario: auth/metadata-default\n";
  assert.equal(announcedScenarios(client), { total: 18, names: ["initialize", "auth/metadata-default"] });
  assert.equal(announcedScenarios("Running client scenario 'x' against server"), { total: undefined, names: [] });
});

test("parseRequirementsList: scored per leg and the never-scored extras", () => {
  const text = [
    "Required for 2025-11-25 (5 scenarios, frozen; run at the 2025-11-25 wire):",
    "",
    "Server scenarios (test against a server):",
    "  - server-initialize",
    "  - ping",
    "",
    "Client scenarios (test against a client):",
    "  - initialize",
    "  - auth/metadata-default",
    "",
    "Run and reported, but never scored:",
    "  extension (1):",
    "    - auth/dpop [client]",
    "  pending (2):",
    "    - json-schema-2020-12 [server]",
    "    - server-sse-polling [server]",
  ].join("\n");
  const set = parseRequirementsList(text);
  assert.is(set.revision, "2025-11-25");
  assert.equal(set.scored, { server: ["server-initialize", "ping"], client: ["initialize", "auth/metadata-default"] });
  assert.equal(set.notScored, [
    { scenario: "auth/dpop", leg: "client", why: "extension" },
    { scenario: "json-schema-2020-12", leg: "server", why: "pending" },
    { scenario: "server-sse-polling", leg: "server", why: "pending" },
  ]);
  assert.throws(() => parseRequirementsList("error: unknown option"), /Required for/);
});

test("parseBaseline: keys, column scoping, errors name file and pointer", () => {
  const entries = parseBaseline(
    JSON.stringify({
      $comment: "x",
      expectedFailures: { "server/server-sse-polling": "why", "client@0.1.16/auth/metadata-default": "no oauth yet" },
    }),
    "b.json",
    columns,
  );
  assert.equal(entries, [
    {
      key: "server/server-sse-polling",
      leg: "server",
      column: undefined,
      scenario: "server-sse-polling",
      reason: "why",
    },
    {
      key: "client@0.1.16/auth/metadata-default",
      leg: "client",
      column: "0.1.16",
      scenario: "auth/metadata-default",
      reason: "no oauth yet",
    },
  ]);
  assert.equal(parseBaseline("{}", "b.json", columns), []);
  assert.throws(() => parseBaseline("[", "b.json", columns), /b\.json: not valid JSON/);
  assert.throws(
    () => parseBaseline('{"expectedFailures": []}', "b.json", columns),
    /b\.json: \/expectedFailures must be an object/,
  );
  assert.throws(
    () => parseBaseline('{"expectedFailures": {"ping": "x"}}', "b.json", columns),
    /b\.json: \/expectedFailures\/ping: key must look like/,
  );
  assert.throws(
    () => parseBaseline('{"expectedFailures": {"client@alpha.12-req/x": "r"}}', "b.json", columns),
    /\/expectedFailures\/client@alpha\.12-req~1x: unknown client column "alpha\.12-req"/,
  );
  assert.throws(
    () => parseBaseline('{"expectedFailures": {"server/ping": ""}}', "b.json", columns),
    /reason must be a non-empty string/,
  );
});

const cell = (leg: Leg, column: string, scenario: string, pass: boolean, scored = true): Cell => ({
  leg,
  column,
  scenario,
  pass,
  scored,
  reason: pass ? undefined : "FAILURE x",
});

test("applyBaseline: pass, unexpected failure, expected failure, XPASS, stale entries", () => {
  const cells = [
    cell("server", "0.1.16", "ping", true),
    cell("server", "0.1.16", "tools-list", false),
    cell("server", "alpha.12", "server-sse-polling", false),
    cell("server", "0.1.16", "server-sse-polling", true),
    cell("server", "alpha.12-req", "json-schema-2020-12", false, false),
    cell("client", "0.1.16", "sse-retry", true),
  ];
  const baseline = parseBaseline(
    JSON.stringify({
      expectedFailures: {
        "server/server-sse-polling": "priming only from 2025-11-25", // fails on one column: not stale
        "client/sse-retry": "flaky", // passes everywhere: stale
        "server@alpha.12/no-such-scenario": "typo", // covers nothing that ran: stale
        "client@alpha.12/tools_call": "alpha column not run: ignored",
      },
    }),
    "b.json",
    columns,
  );
  const s = applyBaseline(cells, baseline, { server: ["0.1.16", "alpha.12", "alpha.12-req"], client: ["0.1.16"] });
  assert.equal(
    s.cells.map((c) => `${c.column}:${c.scenario}:${c.status}`),
    [
      "0.1.16:ping:pass",
      "0.1.16:tools-list:FAIL",
      "alpha.12:server-sse-polling:xfail",
      "0.1.16:server-sse-polling:XPASS",
      "alpha.12-req:json-schema-2020-12:ns-fail",
      "0.1.16:sse-retry:XPASS",
    ],
  );
  assert.equal([s.passed, s.failed, s.expected, s.unexpected], [3, 2, 1, 1]);
  assert.equal(
    s.stale.map((x) => `${x.entry.key}: ${x.why}`),
    ["client/sse-retry: now passes", "server@alpha.12/no-such-scenario: no such scenario ran"],
  );
  assert.is(summaryLine(s), "conformance: 3 passed, 2 failed");
});

test("applyBaseline: a clean run has nothing unexpected", () => {
  const s = applyBaseline([cell("client", "alpha.12", "initialize", true)], [], { server: [], client: ["alpha.12"] });
  assert.equal([s.passed, s.failed, s.unexpected, s.stale.length], [1, 0, 0, 0]);
});

test("formatTable and formatDetails: one row per scenario, folded reasons, stale lines", () => {
  const cells = [
    cell("server", "0.1.16", "ping", true),
    cell("server", "alpha.12", "ping", false),
    cell("server", "0.1.16", "tools-list", false),
    cell("server", "alpha.12", "tools-list", false),
    cell("server", "0.1.16", "prompts-list", false),
    ...["a", "b", "c"].map((n) => ({ ...cell("server", "alpha.12-req", n, false), reason: "server not available" })),
    ...["d", "e", "f", "g"].map((n) => ({ ...cell("server", "0.1.16", n, false), reason: "server not available" })),
  ];
  const baseline = parseBaseline('{"expectedFailures": {"client/initialize": "x"}}', "b.json", columns);
  const s = applyBaseline(cells, baseline, { server: ["0.1.16", "alpha.12"], client: ["0.1.16"] });
  const table = formatTable(s, { server: ["0.1.16", "alpha.12"], client: [] });
  assert.equal(table.split("\n").slice(0, 4), [
    "server leg      0.1.16  alpha.12",
    "  ping          pass    FAIL",
    "  tools-list    FAIL    FAIL",
    "  prompts-list  FAIL    -",
  ]);
  const details = formatDetails(s).split("\n");
  assert.equal(details, [
    "FAIL  server alpha.12 ping, tools-list: FAILURE x",
    "FAIL  server 0.1.16 tools-list, prompts-list: FAILURE x",
    "FAIL  server alpha.12-req 3 scenarios (a, b, c): server not available",
    "FAIL  server 0.1.16 4 scenarios (d, e, f, …): server not available",
    'STALE baseline entry "client/initialize": no such scenario ran; remove it',
  ]);
});

test.run();
