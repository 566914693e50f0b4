// `mcpgen verify` against real child processes: the weather example over stdio (with the tool
// examples its manifest carries), examples/everything over HTTP and a server written with the
// official SDK v1 from the same manifest pass; a server whose output drifts from its manifest,
// one that serves other entries or other schemas, and one that answers an unknown tool with
// anything but the JSON-RPC error -32602, fail with precise messages.
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
const sdkV1 = (mode: "stock" | "jsonrpc") =>
  `${node} ${join(repoRoot, "test/fixtures/contract/sdk-v1-server.mjs")} ${mode}`;
const sdkV1Manifest = join(repoRoot, "test/fixtures/contract/sdk-v1.manifest.json");

test("the weather example over stdio passes, calling every example", async () => {
  const r = await runVerify({ stdio: weather, manifest: weatherManifest });
  assert.ok(r.ok, r.text);
  const names = r.checks.map((c) => c.check);
  for (const want of [
    "protocol/version",
    "protocol/ping",
    "protocol/unknown-tool",
    "tools/get_forecast",
    "prompts/plan-trip",
    "resources/weather://stations",
    "resourceTemplates/forecast",
  ]) {
    assert.ok(names.includes(want), want);
  }
  const examples = r.checks.filter((c) => c.check.includes(" example "));
  assert.is(examples.length, 5);
  assert.ok(
    examples.every((c) => c.status === "pass"),
    r.text,
  );
  assert.match(r.text, /tools\/set_alert example 1 \(unknown city\): reported a tool error, as expected/);
});

test("examples/everything over Streamable HTTP passes", async () => {
  const server = await startEverything();
  try {
    const manifest = join(repoRoot, "examples/everything/mcp.manifest.json");
    const r = await runVerify({ url: server.url.href, manifest });
    assert.ok(r.ok, r.text);
    // every declared tool is served and matches
    const declared = (JSON.parse(readFileSync(manifest, "utf8")) as { tools: unknown[] }).tools.length;
    assert.ok(declared > 0);
    assert.is(
      r.checks.filter((c) => c.check.startsWith("tools/") && c.status === "pass" && c.message === "matches").length,
      declared,
    );
    // a dual-era server: 2026-07-28 (no ping; liveness by an uncached discover), and initialize still served
    assert.is(r.protocolVersion, "2026-07-28");
    const basics = Object.fromEntries(
      r.checks.filter((c) => c.check.startsWith("protocol/")).map((c) => [c.check, c.status]),
    );
    assert.equal(basics, {
      "protocol/version": "pass",
      "protocol/ping": "skip",
      "protocol/discover": "pass",
      "protocol/legacy 2025-11-25": "pass",
      "protocol/unknown-tool": "pass",
    });
  } finally {
    await server.stop();
  }
});

test("a server whose output drifts fails, naming the example, the schema and the violation; --json and exit 1", () => {
  // the fixture is what pull wrote: it keeps a schema the server publishes broken, which needs --lenient
  const strict = runCli(["verify", "--stdio", scripted("drift"), "--manifest", scriptedManifest, "--json"], repoRoot);
  assert.is(strict.status, 1);
  assert.is(strict.stdout, "");
  assert.match(
    strict.stderr,
    /scripted\.manifest\.json:\d+:\d+: error: \/tools\/2\/inputSchema\/properties\/n\/type: not a valid JSON Schema.*--lenient/,
  );
  const r = runCli(
    ["verify", "--stdio", scripted("drift"), "--manifest", scriptedManifest, "--json", "--lenient"],
    repoRoot,
  );
  assert.is(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout) as { ok: boolean; checks: { check: string; status: string; message: string }[] };
  assert.not.ok(report.ok);
  const failed = report.checks.filter((c) => c.status === "fail");
  assert.equal(
    failed.map((c) => c.check),
    ["protocol/unknown-tool", "tools/add example 0 (small numbers)"],
  );
  assert.is(
    failed[1]!.message,
    "structuredContent does not satisfy /tools/0/outputSchema: / must have required property 'sum'",
  );
  assert.match(
    failed[0]!.message,
    /^tools\/call of unknown tool "mcpgen-verify-no-such-tool-[0-9a-f]{8}" succeeded; 2025-11-25 requires the JSON-RPC error -32602 \(Invalid params\) for an unknown tool$/,
  );
  const good = runCli(["verify", "--stdio", scripted("good"), "--manifest", scriptedManifest, "--lenient"], repoRoot);
  assert.is(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout, /ok {3}tools\/list: 3 listed/);
});

test("a server that serves other entries: missing and extra entries, differing schemas", async () => {
  const { dir, cleanup } = tempDir("mcpgen-verify-");
  try {
    const m = JSON.parse(readFileSync(scriptedManifest, "utf8")) as {
      revisions: string[];
      tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
    };
    m.revisions = ["2026-07-28", ...m.revisions];
    m.tools[0]!.inputSchema.properties.a = { type: "integer" };
    m.tools[1]!.name = "shout";
    const file = join(dir, "m.json");
    writeFileSync(file, JSON.stringify(m));
    const r = await runVerify({ stdio: scripted("good"), manifest: file, lenient: true });
    assert.not.ok(r.ok);
    const fail = Object.fromEntries(r.checks.filter((c) => c.status === "fail").map((c) => [c.check, c.message]));
    assert.equal(Object.keys(fail).sort(), ["protocol/version", "tools/add", "tools/echo", "tools/shout"]);
    assert.is(
      fail["protocol/version"],
      "negotiated 2025-11-25: the manifest lists 2026-07-28, but the server did not answer the server/discover probe",
    );
    assert.is(
      fail["tools/add"],
      'inputSchema differs at /tools/0/inputSchema/properties/a/type (manifest "integer", served "number")',
    );
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
    await runVerify({ stdio: scripted("good"), manifest: join(dir, "mcp.manifest.json"), lenient: true }).then(
      () => assert.unreachable(),
      (e: unknown) => {
        assert.instance(e, InputError);
        assert.match(
          (e as Error).message,
          /error: \/tools\/0\/examples\/0\/arguments: example does not satisfy the tool's inputSchema: \/a must be number/,
        );
      },
    );
    const gen = runCli(["generate", "--manifest", "mcp.manifest.json", "--out", "out", "--no-cache", "--lenient"], dir);
    assert.is(gen.status, 1);
    assert.match(gen.stderr, /\/tools\/0\/examples\/0\/arguments/);
    m.tools[0]!.examples = [{ argumentz: {} }];
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(m, null, 2));
    const shape = runCli(
      ["generate", "--manifest", "mcp.manifest.json", "--out", "out", "--no-cache", "--lenient"],
      dir,
    );
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
    assert.ok(
      r.checks.some(
        (c) => c.check === "tools/add example 0" && c.message === "structuredContent satisfies outputSchema",
      ),
      r.text,
    );
  } finally {
    cleanup();
  }
});

test("a server written with the official SDK v1 and zod from the same manifest passes: $schema, key order, $ref and annotations do not count", async () => {
  const r = await runVerify({ stdio: sdkV1("jsonrpc"), manifest: sdkV1Manifest });
  assert.ok(r.ok, r.text);
  const byName = Object.fromEntries(r.checks.map((c) => [c.check, c]));
  for (const tool of ["add", "distance", "hello"]) assert.is(byName[`tools/${tool}`]?.status, "pass", r.text);
  // the manifest's $ref to a $defs entry is zod's inline object; only prose differs, and it is noted where the manifest has it
  assert.is(
    byName["tools/distance"]!.message,
    "matches (note: inputSchema annotations (/tools/1/inputSchema/properties/from/description, /tools/1/inputSchema/properties/unit/default, /tools/1/inputSchema/properties/unit/description) differ)",
  );
  assert.is(byName["tools/add"]!.message, "matches");
  assert.match(byName["protocol/unknown-tool"]!.message, /^rejected \(JSON-RPC error -32602: /);
  assert.is(r.checks.filter((c) => c.check.includes(" example ")).length, 3);
});

test("the stock SDK v1 McpServer answers an unknown tool with isError: that check fails, saying what the revision requires (exit 1)", () => {
  const r = runCli(["verify", "--stdio", sdkV1("stock"), "--manifest", sdkV1Manifest, "--json"], repoRoot);
  assert.is(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout) as { ok: boolean; checks: { check: string; status: string; message: string }[] };
  const failed = report.checks.filter((c) => c.status === "fail");
  assert.equal(
    failed.map((c) => c.check),
    ["protocol/unknown-tool"],
  );
  assert.match(
    failed[0]!.message,
    /^tools\/call of unknown tool "(mcpgen-verify-no-such-tool-[0-9a-f]{8})" was answered with a tool result \(isError: true, "MCP error -32602: Tool \1 not found"\); 2025-11-25 requires the JSON-RPC error -32602 \(Invalid params\) for an unknown tool: isError is for errors the tool itself reports$/,
  );
});

test("another JSON-RPC error code for an unknown tool fails too", async () => {
  const r = await runVerify({ stdio: scripted("wrong-code"), manifest: scriptedManifest, lenient: true });
  const failed = r.checks.filter((c) => c.status === "fail");
  assert.equal(
    failed.map((c) => c.check),
    ["protocol/unknown-tool"],
  );
  assert.match(
    failed[0]!.message,
    /was answered with JSON-RPC error -32601: No such tool: .*; 2025-11-25 requires the JSON-RPC error -32602 \(Invalid params\) for an unknown tool$/,
  );
});

test("a real schema difference still fails against the SDK v1 server, at the manifest's pointer (through its $ref)", async () => {
  const { dir, cleanup } = tempDir("mcpgen-verify-sdk-v1-");
  try {
    type Schema = { [key: string]: any };
    const m = JSON.parse(readFileSync(sdkV1Manifest, "utf8")) as {
      tools: { inputSchema: Schema; outputSchema?: Schema }[];
    };
    const file = join(dir, "m.json");
    const verify = async (edit: (tools: typeof m.tools) => void) => {
      const copy = structuredClone(m);
      edit(copy.tools);
      writeFileSync(file, JSON.stringify(copy, null, 2));
      const r = await runVerify({ stdio: sdkV1("jsonrpc"), manifest: file });
      assert.not.ok(r.ok, r.text);
      return Object.fromEntries(r.checks.filter((c) => c.status === "fail").map((c) => [c.check, c.message]));
    };
    assert.equal(await verify((t) => (t[1]!.inputSchema.$defs.point.properties.lat.maximum = 80)), {
      "tools/distance":
        "inputSchema differs at /tools/1/inputSchema/$defs/point/properties/lat/maximum (manifest 80, served 90)",
    });
    assert.equal(await verify((t) => delete t[0]!.outputSchema!.additionalProperties), {
      "tools/add": "outputSchema differs at /tools/0/outputSchema/additionalProperties (manifest absent, served false)",
    });
    assert.equal(await verify((t) => (t[1]!.inputSchema.properties.unit.enum = ["km"])), {
      "tools/distance":
        'inputSchema differs at /tools/1/inputSchema/properties/unit/enum (manifest ["km"], served ["km","mi"])',
    });
    assert.equal(await verify((t) => (t[2]!.inputSchema.properties = { name: { type: "string" } })), {
      "tools/hello":
        'inputSchema differs at /tools/2/inputSchema/properties/name (manifest {"type":"string"}, served absent)',
    });
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
  const r = runCli(
    ["verify", "--stdio", scripted("silent"), "--manifest", scriptedManifest, "--timeout", "800", "--lenient"],
    repoRoot,
  );
  assert.is(r.status, 1);
  // the 2026-07-28 probe times out first, then the legacy handshake: both are named
  assert.match(
    r.stderr,
    /cannot connect to stdio: .*silent: Request initialize timed out after 800 ms \(the 2026-07-28 probe before it: Request server\/discover timed out after 800 ms\)/,
  );
  assert.ok(Date.now() - started < 15_000);
});

test.run();
