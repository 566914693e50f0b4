// `mcpgen pull` against real child processes: the official server-everything over stdio, the
// project's own examples/everything over Streamable HTTP, and a scripted server that pages its
// lists, publishes a broken schema, stays silent, talks garbage, dies mid-listing or loops, or
// publishes what real servers do: lists it announces but does not serve (-32601), tools without
// `"type": "object"` or any inputSchema, an invalid keyword, an entry without a name.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runBreaking } from "../../generator/contract/breaking/index.js";
import { splitCommand } from "../../generator/contract/connect.js";
import { runPull } from "../../generator/contract/pull/index.js";
import { loadManifest } from "../../generator/load/manifest.js";
import { repoRoot, tempDir } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";
import { startEverything, type EverythingProcess } from "../examples/helpers/everything-process.js";
import { connectMcpClient, type McpClient } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createEverythingClient } from "../../examples/everything/src/mcp/client.js";
import { bindings } from "../runtime/helpers/binding.js";

const node = JSON.stringify(process.execPath);
const serverEverything = `${node} ${join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")} stdio`;
const scriptedJs = join(repoRoot, "test/fixtures/contract/scripted-server.mjs");
const scripted = (mode: string) => `${node} ${scriptedJs} ${mode}`;

/** `pull --stdio` of the scripted server in `mode` through the CLI; the manifest it wrote. */
function pullCli(mode: string) {
  const out = join(tmp.dir, `${mode}.manifest.json`);
  const r = runCli(["pull", "--stdio", scripted(mode), "--out", out], tmp.dir);
  const manifest =
    r.status === 0
      ? (JSON.parse(readFileSync(out, "utf8")) as {
          tools?: { name: string; inputSchema: unknown }[];
          prompts?: unknown[];
          resources?: unknown[];
          resourceTemplates?: unknown[];
        })
      : undefined;
  return { ...r, manifest, problems: r.stderr.split("\n").filter((l) => l.startsWith("problem: ")) };
}

/** The scripted server in `mode` as a child of a client (generic, or the generated everything client). */
async function listedBy(
  mode: string,
  typed = false,
): Promise<{ client: Pick<McpClient, "listProblems" | "callTool" | "close">; names: string[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [scriptedJs, mode] });
  const client = typed
    ? await createEverythingClient(transport, { clientInfo: { name: "t", version: "1" }, era: "legacy" })
    : await connectMcpClient(transport, { bindings, clientInfo: { name: "t", version: "1" } });
  return { client, names: (await client.listTools()).map((t) => t.name) };
}

let tmp: { dir: string; cleanup: () => void };
let everything: EverythingProcess | undefined;
test.before(() => {
  tmp = tempDir("mcpgen-pull-");
});
test.after(async () => {
  await everything?.stop();
  tmp.cleanup();
});

test("splitCommand: quotes group words, backslash escapes, no shell", () => {
  assert.equal(splitCommand(`node "my server.js" --name 'a b' x\\ y`), [
    "node",
    "my server.js",
    "--name",
    "a b",
    "x y",
  ]);
  assert.throws(() => splitCommand(`node "open`), /unterminated/);
  assert.throws(() => splitCommand("   "), /needs a command/);
});

test("server-everything over stdio: every list pulled, revisions probed, loads as a manifest; twice byte-identical", async () => {
  const out = join(tmp.dir, "se.manifest.json");
  const first = await runPull({ stdio: serverEverything, out, cwd: tmp.dir });
  const bytes = readFileSync(out, "utf8");
  assert.is(first.text, bytes);
  assert.equal(first.revisions, ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  const m = loadManifest(out).manifest;
  assert.is(m.name, "mcp-servers/everything");
  for (const tool of ["echo", "get-sum", "get-structured-content"])
    assert.ok(
      m.tools!.some((t) => t.name === tool),
      tool,
    );
  assert.ok(m.prompts!.length > 0 && m.resources!.length > 0 && m.resourceTemplates!.length > 0);
  assert.ok(m.capabilities?.resources?.subscribe);
  // names sorted, schemas verbatim
  const names = m.tools!.map((t) => t.name);
  assert.equal(names, [...names].sort());
  await runPull({ stdio: serverEverything, out, cwd: tmp.dir });
  assert.is(readFileSync(out, "utf8"), bytes, "second pull writes the same bytes");
});

test("examples/everything over HTTP: the pulled manifest is the declared one, as far as clients can tell", async () => {
  everything = await startEverything();
  const out = join(tmp.dir, "ev.manifest.json");
  const client = join(tmp.dir, "ev-client");
  {
    const r = await runPull({ url: everything.url.href, out, client, cwd: tmp.dir });
    const declared = loadManifest(join(repoRoot, "examples/everything/mcp.manifest.json")).manifest;
    const pulled = loadManifest(out).manifest;
    // a dual-era server: 2026-07-28 through server/discover, and every legacy revision through initialize
    assert.equal(r.revisions, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    assert.equal(pulled.revisions, declared.revisions);
    assert.equal(pulled.tools!.map((t) => t.name).sort(), declared.tools!.map((t) => t.name).sort());
    assert.equal(
      pulled.tools!.map((t) => t.inputSchema),
      [...declared.tools!].sort((a, b) => (a.name < b.name ? -1 : 1)).map((t) => t.inputSchema),
    );
    // Both directions: nothing either side has breaks the other's clients.
    const there = await runBreaking({
      against: join(repoRoot, "examples/everything/mcp.manifest.json"),
      manifest: out,
      cwd: tmp.dir,
    });
    assert.equal(there.findings, [], there.text);
    const back = await runBreaking({
      against: out,
      manifest: join(repoRoot, "examples/everything/mcp.manifest.json"),
      cwd: tmp.dir,
    });
    assert.equal(back.findings, [], back.text);
    // --client: the typed server and client were generated from the pulled manifest.
    assert.ok(readdirSync(client).includes("client.ts"));
    assert.match(readFileSync(join(client, "types.ts"), "utf8"), /@generated by mcpgen/);
    assert.match(r.summary, /wrote \d+ files/);
  }
});

test("a paged listing is followed; a broken published schema is reported and typed leniently", async () => {
  const out = join(tmp.dir, "scripted.json");
  const client = join(tmp.dir, "scripted-client");
  const logged: string[] = [];
  const r = await runPull({ stdio: scripted("good"), out, client, cwd: tmp.dir, log: (l) => logged.push(l) });
  assert.equal(r.counts, { tools: 3, prompts: 1, resources: 1, resourceTemplates: 1 });
  assert.equal(r.problems.length, 1, r.problems.join("\n"));
  // reported once, though generating the client loads the same manifest again
  assert.equal(
    logged.filter((l) => l.includes("/tools/2/inputSchema/properties/n/type")).map((l) => l.split(":")[0]),
    ["problem"],
    logged.join("\n"),
  );
  assert.match(
    r.problems[0]!,
    /^\/tools\/2\/inputSchema\/properties\/n\/type: not a valid JSON Schema.*typed as Record<string, unknown>/,
  );
  const zeta = (JSON.parse(r.text) as { tools: { name: string; inputSchema: unknown }[] }).tools[2]!;
  assert.equal(zeta.inputSchema, { type: "object", properties: { n: { type: "integr" } } }, "kept verbatim");
  // --client generates from it leniently: zeta's arguments are the loose fallback type
  assert.match(r.summary, /wrote \d+ files/);
  assert.match(readFileSync(join(client, "types.ts"), "utf8"), /Record<string, unknown>/);
  // a strict load refuses what the server published, naming the pointer
  assert.throws(() => loadManifest(out), /\/tools\/2\/inputSchema\/properties\/n\/type: not a valid JSON Schema/);
});

for (const [mode, pattern] of [
  [
    "silent",
    /cannot connect to stdio: .*silent: Request initialize timed out after 800 ms \(the 2026-07-28 probe before it: Request server\/discover timed out after 800 ms\)/,
  ],
  [
    "garbage",
    /cannot connect to stdio: .*garbage: Request initialize timed out after 800 ms \(the 2026-07-28 probe before it: Request server\/discover timed out after 800 ms\)/,
  ],
  ["die", /die: Connection closed/],
  ["loop", /tools\/list: the server repeated cursor "again"/],
] as const) {
  test(`a server that is ${mode}: exit 1 in bounded time, the previous manifest untouched`, () => {
    const out = join(tmp.dir, `${mode}.json`);
    writeFileSync(out, "previous\n");
    const started = Date.now();
    const r = runCli(["pull", "--stdio", scripted(mode), "--out", out, "--timeout", "800"], tmp.dir);
    assert.is(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, pattern);
    assert.ok(Date.now() - started < 15_000, "bounded");
    assert.is(readFileSync(out, "utf8"), "previous\n");
    assert.equal(
      readdirSync(tmp.dir).filter((f) => f.endsWith(".mcpgen-tmp")),
      [],
    );
  });
}

test("a list the server announces but answers -32601 is empty, with a warning; exit 0", async () => {
  const r = pullCli("unlisted");
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /; 3 tools, 0 prompts, 0 resources, 0 templates; 4 problem\(s\) reported\n$/);
  for (const method of ["prompts/list", "resources/list", "resources/templates/list"]) {
    assert.ok(
      r.problems.some((l) => l.includes(`${method}: the server announces`) && l.includes("answered -32601")),
      `${method}: ${r.stderr}`,
    );
  }
  assert.equal(
    r.manifest!.tools!.map((t) => t.name),
    ["add", "echo", "zeta"],
  );
  assert.is(r.manifest!.prompts, undefined);
  assert.is(r.manifest!.resources, undefined);
});

test('tools without "type": "object" (or any inputSchema) are all written, each repair reported; the clients keep them', async () => {
  const r = pullCli("untyped");
  assert.is(r.status, 0, r.stderr);
  assert.not.match(r.stdout, /left out/);
  const byName = new Map(r.manifest!.tools!.map((t) => [t.name, t.inputSchema]));
  assert.equal([...byName.keys()], ["ping_host", "search", "status"]);
  assert.equal(
    byName.get("search"),
    { properties: { q: { type: "string" } }, required: ["q"] },
    "kept verbatim; the loader publishes it with type object",
  );
  assert.equal(byName.get("status"), {});
  assert.equal(byName.get("ping_host"), { type: "object" });
  assert.ok(
    r.problems.some((l) => /inputSchema: missing; tool "ping_host" published with \{"type":"object"\}/.test(l)),
    r.stderr,
  );
  assert.ok(
    r.problems.some((l) => /\/tools\/1\/inputSchema: root "type" is missing/.test(l)),
    r.stderr,
  );
  assert.ok(
    r.problems.some((l) => /\/tools\/2\/inputSchema: empty inputSchema/.test(l)),
    r.stderr,
  );
  // The written manifest generates (leniently) and loads.
  assert.is(
    loadManifest(join(tmp.dir, "untyped.manifest.json"), "m.json", { lenient: true }).manifest.tools!.length,
    3,
  );
  for (const typed of [false, true]) {
    const { client, names } = await listedBy("untyped", typed);
    try {
      assert.equal(names, ["search", "status", "ping_host"], typed ? "typed client" : "generic client");
      assert.equal(
        client.listProblems.map((p) => [p.entryName, p.kept]),
        [
          ["search", true],
          ["status", true],
          ["ping_host", true],
        ],
      );
      assert.equal((await client.callTool("ping_host", {})).content, [{ type: "text", text: "ok" }]);
    } finally {
      await client.close();
    }
  }
});

test("a tool with an invalid JSON Schema keyword is written verbatim, reported, typed loosely; the client keeps it", async () => {
  const r = pullCli("badkeyword");
  assert.is(r.status, 0, r.stderr);
  const lookup = r.manifest!.tools!.find((t) => t.name === "lookup");
  assert.equal(lookup?.inputSchema, { type: "object", properties: { id: { type: "string" } }, required: "id" });
  assert.ok(
    r.problems.some((l) =>
      /\/tools\/\d\/inputSchema\/required: not a valid JSON Schema.*Record<string, unknown>/.test(l),
    ),
    r.stderr,
  );
  const { client, names } = await listedBy("badkeyword");
  try {
    assert.equal(names, ["add", "echo", "zeta", "lookup"]);
    assert.equal(
      client.listProblems.map((p) => [p.entryName, p.kept]),
      [["lookup", true]],
    );
  } finally {
    await client.close();
  }
});

test("an entry without a name is left out, and pull says so: the reason, and fewer tools than listed", async () => {
  const r = pullCli("noname");
  assert.is(r.status, 0, r.stderr);
  assert.equal(
    r.manifest!.tools!.map((t) => t.name),
    ["add", "echo", "zeta"],
  );
  assert.match(
    r.stdout,
    /; 3 tools, 1 prompts, 1 resources, 1 templates; left out: 1 of the 4 tools listed; 2 problem\(s\) reported\n$/,
  );
  assert.ok(
    r.problems.includes(
      "problem: tools/list: entry 3 dropped: /tools/3/name must be a string: the entry cannot be used without it",
    ),
    r.stderr,
  );
  const { client, names } = await listedBy("noname");
  try {
    assert.equal(names, ["add", "echo", "zeta"]);
    assert.equal(
      client.listProblems.map((p) => [p.index, p.kept]),
      [[3, false]],
    );
  } finally {
    await client.close();
  }
});

test("--env reaches the child; the CLI prints the summary", () => {
  const r = runCli(
    ["pull", "--stdio", scripted("good"), "--env", "SCRIPTED_VERSION=9.9.9", "--out", "env.json"],
    tmp.dir,
  );
  assert.is(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^wrote env.json: scripted 9.9.9, revisions 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05; 3 tools, 1 prompts, 1 resources, 1 templates; 1 problem\(s\) reported\n$/,
  );
  assert.match(r.stderr, /problem: \/tools\/2\/inputSchema\/properties\/n\/type/);
  assert.is((JSON.parse(readFileSync(join(tmp.dir, "env.json"), "utf8")) as { version: string }).version, "9.9.9");
});

test("usage errors exit 2", () => {
  assert.is(runCli(["pull", "--out", "x.json"], tmp.dir).status, 2);
  assert.is(runCli(["pull", "--stdio", "x", "--url", "http://127.0.0.1:1/mcp"], tmp.dir).status, 2);
  assert.is(runCli(["pull", "--url", "ftp://127.0.0.1/"], tmp.dir).status, 2);
  assert.is(runCli(["pull", "--stdio", "x", "--env", "NOEQUALS"], tmp.dir).status, 2);
});

test("a command that does not exist fails with exit 1 and a message", () => {
  const r = runCli(["pull", "--stdio", "/nonexistent/mcp-server-binary", "--timeout", "800"], tmp.dir);
  assert.is(r.status, 1);
  assert.match(r.stderr, /cannot connect to stdio: \/nonexistent\/mcp-server-binary/);
});

test.run();
