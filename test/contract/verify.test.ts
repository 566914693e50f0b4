// `mcpgen verify` against real child processes: the weather example over stdio (with the tool
// examples its manifest carries) and examples/everything over HTTP pass; a server whose output
// drifts from its manifest, and one that serves other entries, fail with precise messages.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runPull } from "../../generator/contract/pull/index.js";
import { runVerify } from "../../generator/contract/verify/index.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { repoRoot, tempDir } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";
import { startEverything } from "../examples/helpers/everything-process.js";

const node = JSON.stringify(process.execPath);
const weather = `${node} ${join(repoRoot, "dist/examples/weather/src/server.js")}`;
const weatherManifest = join(repoRoot, "examples/weather/mcp.manifest.json");
const scripted = (mode: string) => `${node} ${join(repoRoot, "test/fixtures/contract/scripted-server.mjs")} ${mode}`;
const scriptedManifest = join(repoRoot, "test/fixtures/contract/scripted.manifest.json");

test("the weather example over stdio passes, calling every example", async () => {
  const r = await runVerify({ stdio: weather, manifest: weatherManifest });
  assert.ok(r.ok, r.text);
  const names = r.checks.map((c) => c.check);
  for (const want of ["protocol/version", "protocol/ping", "protocol/unknown-tool", "tools/get_forecast", "prompts/plan-trip", "resources/weather://stations", "resourceTemplates/forecast"]) {
    assert.ok(names.includes(want), want);
  }
  const examples = r.checks.filter((c) => c.check.includes(" example "));
  assert.is(examples.length, 5);
  assert.ok(examples.every((c) => c.status === "pass"), r.text);
  assert.match(r.text, /tools\/set_alert example 1 \(unknown city\): reported a tool error, as expected/);
});

test("examples/everything over Streamable HTTP passes", async () => {
  const server = await startEverything();
  try {
    const manifest = join(repoRoot, "examples/everything/mcp.manifest.json");
    const r = await runVerify({ url: server.url.href, manifest });
    assert.ok(r.ok, r.text);
    // Every declared tool is served as declared (the 2026-07-28 fixtures included).
    const declared = (JSON.parse(readFileSync(manifest, "utf8")) as { tools: unknown[] }).tools.length;
    assert.ok(declared >= 14);
    assert.is(r.checks.filter((c) => c.check.startsWith("tools/") && c.status === "pass" && c.message === "matches").length, declared);
  } finally {
    await server.stop();
  }
});

test("a server whose output drifts fails, naming the example, the schema and the violation; --json and exit 1", () => {
  const r = runCli(["verify", "--stdio", scripted("drift"), "--manifest", scriptedManifest, "--json"], repoRoot);
  assert.is(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout) as { ok: boolean; checks: { check: string; status: string; message: string }[] };
  assert.not.ok(report.ok);
  const failed = report.checks.filter((c) => c.status === "fail");
  assert.equal(failed.map((c) => c.check), ["protocol/unknown-tool", "tools/add example 0 (small numbers)"]);
  assert.is(failed[1]!.message, "structuredContent does not satisfy /tools/0/outputSchema: / must have required property 'sum'");
  assert.match(failed[0]!.message, /succeeded; expected a JSON-RPC error \(-32602\)/);
  const good = runCli(["verify", "--stdio", scripted("good"), "--manifest", scriptedManifest], repoRoot);
  assert.is(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout, /ok {3}tools\/list: 3 listed/);
});

test("a server that serves other entries: missing and extra entries, differing schemas", async () => {
  const { dir, cleanup } = tempDir("mcpgen-verify-");
  try {
    const m = JSON.parse(readFileSync(scriptedManifest, "utf8")) as { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] };
    m.tools[0]!.inputSchema.properties.a = { type: "integer" };
    m.tools[1]!.name = "shout";
    const file = join(dir, "m.json");
    writeFileSync(file, JSON.stringify(m));
    const r = await runVerify({ stdio: scripted("good"), manifest: file });
    assert.not.ok(r.ok);
    const fail = Object.fromEntries(r.checks.filter((c) => c.status === "fail").map((c) => [c.check, c.message]));
    assert.equal(Object.keys(fail).sort(), ["tools/add", "tools/echo", "tools/shout"]);
    assert.is(fail["tools/add"], 'inputSchema differs at /tools/0/inputSchema/properties/a/type (manifest "integer", served "number")');
    assert.is(fail["tools/shout"], "declared at /tools/1 but not served");
    assert.is(fail["tools/echo"], "served but not in the manifest");
  } finally {
    cleanup();
  }
});

test("an example that does not satisfy inputSchema is a manifest error (verify and generate)", async () => {
  const { dir, cleanup } = tempDir("mcpgen-verify-bad-");
  try {
    const m = JSON.parse(readFileSync(scriptedManifest, "utf8")) as { tools: { examples?: unknown[] }[] };
    m.tools[0]!.examples = [{ arguments: { a: "two", b: 3 } }];
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(m, null, 2));
    await runVerify({ stdio: scripted("good"), manifest: join(dir, "mcp.manifest.json") }).then(
      () => assert.unreachable(),
      (e: unknown) => {
        assert.instance(e, InputError);
        assert.match((e as Error).message, /error: \/tools\/0\/examples\/0\/arguments: example does not satisfy the tool's inputSchema: \/a must be number/);
      },
    );
    // --lenient: the fixture's tool "zeta" publishes a broken schema on purpose (an error without it).
    const gen = runCli(["generate", "--manifest", "mcp.manifest.json", "--out", "out", "--no-cache", "--lenient"], dir);
    assert.is(gen.status, 1);
    assert.match(gen.stderr, /\/tools\/0\/examples\/0\/arguments/);
    m.tools[0]!.examples = [{ argumentz: {} }];
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(m, null, 2));
    const shape = runCli(["generate", "--manifest", "mcp.manifest.json", "--out", "out", "--no-cache", "--lenient"], dir);
    assert.is(shape.status, 1);
    assert.match(shape.stderr, /\/tools\/0\/examples\/0/);
  } finally {
    cleanup();
  }
});

test("an official SDK v2 server: pulled, given an example, verified", async () => {
  const { dir, cleanup } = tempDir("mcpgen-verify-sdk-");
  try {
    const sdk = `${node} ${join(repoRoot, "test/fixtures/sdk-v2-stdio-server.mjs")}`;
    const file = join(dir, "mcp.manifest.json");
    const pulled = await runPull({ stdio: sdk, out: file, cwd: dir });
    assert.equal(pulled.counts, { tools: 2, prompts: 1, resources: 1, resourceTemplates: 0 });
    const m = JSON.parse(readFileSync(file, "utf8")) as { tools: { name: string; examples?: unknown[] }[] };
    m.tools.find((t) => t.name === "add")!.examples = [{ arguments: { a: 2, b: 40 } }];
    writeFileSync(file, JSON.stringify(m, null, 2));
    const r = await runVerify({ stdio: sdk, manifest: file });
    assert.ok(r.ok, r.text);
    assert.ok(r.checks.some((c) => c.check === "tools/add example 0" && c.message === "structuredContent satisfies outputSchema"), r.text);
  } finally {
    cleanup();
  }
});

test("examples are never published in tools/list", () => {
  const lists = readFileSync(join(repoRoot, "examples/weather/src/mcp/lists.ts"), "utf8");
  assert.not.match(lists, /two days in Paris/);
  assert.match(readFileSync(weatherManifest, "utf8"), /two days in Paris/);
});

test("a silent server: exit 1 in bounded time", () => {
  const started = Date.now();
  const r = runCli(["verify", "--stdio", scripted("silent"), "--manifest", scriptedManifest, "--timeout", "800"], repoRoot);
  assert.is(r.status, 1);
  assert.match(r.stderr, /cannot connect to stdio: .*Request initialize timed out after 800 ms/);
  assert.ok(Date.now() - started < 15_000);
});

test.run();
