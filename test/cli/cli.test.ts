import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { listFiles } from "../../generator/write/compare.js";
import { repoRoot, tempDir } from "../helpers.js";
import { hasStack, runCli } from "./run-cli.js";

// Every test runs in its own directory `t<n>/`; all share one output cache (MCPGEN_CACHE_DIR)
// so only the first generation of each input is cold.
let root = "";
let cleanup = () => {};
let dir = "";
let n = 0;
test.before(() => {
  ({ dir: root, cleanup } = tempDir("mcpgen-cli-"));
});
test.before.each(() => {
  dir = join(root, `t${n++}`);
  mkdirSync(dir);
  process.env.MCPGEN_CACHE_DIR = join(root, "cache");
});
test.after(() => cleanup());

function snapshot(out: string): Record<string, string> {
  return Object.fromEntries(listFiles(out).map((f) => [f, readFileSync(join(out, f), "utf8")]));
}

function expectFailure(args: string[], status: number, pattern: RegExp) {
  const r = runCli(args, dir);
  assert.is(r.status, status, `exit code of mcpgen ${args.join(" ")}\n${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.not.ok(hasStack(r.stderr), `stack trace printed:\n${r.stderr}`);
  return r;
}

test("--help, --version, schemas", () => {
  const help = runCli(["--help"], dir);
  assert.is(help.status, 0);
  assert.match(help.stdout, /generate/);
  assert.match(help.stdout, /check/);
  const version = runCli(["--version"], dir);
  assert.is(version.status, 0);
  assert.is(version.stdout.trim(), JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version);
  const schemas = runCli(["schemas"], dir);
  assert.is(schemas.status, 0);
  assert.is(schemas.stdout.trim().split("\n").length, 5);
  assert.match(
    schemas.stdout,
    /^2025-11-25 +sha256 268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7$/m,
  );
});

test("usage errors exit 2", () => {
  expectFailure(["generate", "--schema", "2025-11-25", "--out", "o", "--bogus"], 2, /Unknown option `--bogus`/);
  expectFailure(["generate", "--schema", "2025-11-25"], 2, /missing --out/);
  expectFailure(["check", "--out", "o"], 2, /missing --schema/);
  expectFailure(["generate", "--schema"], 2, /--schema/);
  expectFailure(["frobnicate"], 2, /unknown command "frobnicate"/);
});

test("user mode: no flags and nothing to generate says what to do; mcpgen's own generated/ needs the maintainer command", () => {
  for (const command of ["generate", "check"]) {
    const r = expectFailure(
      [command],
      2,
      /mcpgen: nothing to generate in .*: no mcpgen\.config\.json, mcpgen\.config\.ts, mcpgen\.config\.js, mcpgen\.config\.mjs or mcp\.manifest\.json; run `mcpgen init`/,
    );
    assert.is(r.stdout, "");
  }
  const bundled = runCli(["check-bundled"], dir);
  assert.is(bundled.status, 0, bundled.stderr);
  assert.match(bundled.stdout, /^maintainer: mcpgen's own bundled bindings in .+\/generated\/<revision>\/\nfresh: /);
  expectFailure(["check-bundled", "--out", "x"], 2, /Unknown option `--out`/);
});

test("missing schema file names the path", () => {
  expectFailure(
    ["generate", "--schema", "no/such/schema.json", "--out", "o"],
    1,
    /no\/such\/schema\.json: schema file not found/,
  );
  expectFailure(["generate", "--schema", "2019-01-01", "--out", "o"], 1, /not a bundled revision/);
});

test("invalid JSON reports line and column", () => {
  writeFileSync(join(dir, "bad.json"), '{\n  "$defs": {\n    "A": [1,,2]\n  }\n}\n');
  expectFailure(["generate", "--schema", "bad.json", "--out", "o"], 1, /bad\.json: invalid JSON at line 3 column 13/);
});

test("a JSON file that is not an MCP schema says what was expected", () => {
  writeFileSync(join(dir, "pkg.json"), JSON.stringify({ name: "x", version: "1.0.0" }));
  expectFailure(
    ["generate", "--schema", "pkg.json", "--out", "o"],
    1,
    /pkg\.json.*not an MCP schema.*expected a `definitions` or `\$defs` object containing JSONRPCRequest/,
  );
});

test("unwritable output directory", () => {
  writeFileSync(join(dir, "file"), "not a directory");
  expectFailure(
    ["generate", "--schema", "2024-11-05", "--out", "file/sub"],
    1,
    /file\/sub: cannot create output directory/,
  );
  expectFailure(
    ["generate", "--schema", "2024-11-05", "--out", "file"],
    1,
    /file: output path exists and is not a directory/,
  );
});

test("generate, then check: fresh, then a one-byte edit, a missing and an extra file are reported", () => {
  const gen = runCli(["generate", "--schema", "2025-03-26", "--out", "gen"], dir);
  assert.is(gen.status, 0, gen.stderr);
  const files = listFiles(join(dir, "gen"));
  assert.ok(files.includes("methods.ts") && files.includes("index.ts"), files.join());
  assert.is(runCli(["check", "--schema", "2025-03-26", "--out", "gen"], dir).status, 0);

  const target = join(dir, "gen", "methods.ts");
  const bytes = readFileSync(target);
  bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1;
  writeFileSync(target, bytes);
  const stale = expectFailure(
    ["check", "--schema", "2025-03-26", "--out", "gen"],
    1,
    /stale: gen\/methods\.ts \(stale\)/,
  );
  assert.match(stale.stderr, /1 generated file\(s\) out of date/);

  writeFileSync(
    join(dir, "gen", "extra.ts"),
    "// @generated by mcpgen 0.0.0 from x (sha256 000000000000). DO NOT EDIT.\n",
  );
  rmSync(join(dir, "gen", "index.ts"));
  const all = expectFailure(["check", "--schema", "2025-03-26", "--out", "gen"], 1, /gen\/extra\.ts \(extra\)/);
  assert.match(all.stderr, /gen\/index\.ts \(missing\)/);
  // check never writes
  assert.equal(listFiles(join(dir, "gen")).sort(), ["extra.ts", ...files.filter((f) => f !== "index.ts")].sort());

  assert.is(runCli(["generate", "--schema", "2025-03-26", "--out", "gen"], dir).status, 0);
  assert.is(runCli(["check", "--schema", "2025-03-26", "--out", "gen"], dir).status, 0);
});

test("two runs give byte-identical output; the input is never mutated", () => {
  const schema = join(dir, "in", "schema.json");
  mkdirSync(join(dir, "in"));
  writeFileSync(schema, readFileSync(join(repoRoot, "schema", "2026-07-28", "schema.json")));
  const before = statSync(schema);
  const bytes = readFileSync(schema);
  assert.is(runCli(["generate", "--schema", "in/schema.json", "--out", "a", "--no-cache"], dir).status, 0);
  assert.is(runCli(["generate", "--schema", "in/schema.json", "--out", "b", "--no-cache"], dir).status, 0);
  assert.equal(snapshot(join(dir, "a")), snapshot(join(dir, "b")));
  assert.ok(readFileSync(schema).equals(bytes));
  assert.is(statSync(schema).mtimeMs, before.mtimeMs);
  const first = readFileSync(join(dir, "a", "methods.ts"), "utf8").split("\n")[0]!;
  assert.is(first, "// @generated by mcpgen 0.1.0 from ../in/schema.json (sha256 ef70b61f99b6). DO NOT EDIT.");
  assert.not.match(
    readFileSync(join(dir, "a", "methods.ts"), "utf8"),
    new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  );
});

test("a failed run leaves the previous output untouched", () => {
  assert.is(runCli(["generate", "--schema", "2024-11-05", "--out", "gen"], dir).status, 0);
  const before = snapshot(join(dir, "gen"));
  writeFileSync(join(dir, "bad.json"), "{");
  expectFailure(["generate", "--schema", "bad.json", "--out", "gen"], 1, /invalid JSON/);
  assert.equal(snapshot(join(dir, "gen")), before);
  // a handwritten file in the output directory is never deleted
  writeFileSync(join(dir, "gen", "mine.ts"), "export const mine = 1;\n");
  expectFailure(
    ["generate", "--schema", "2025-06-18", "--out", "gen"],
    1,
    /gen: refusing to replace the output directory: 1 file in it is not written by mcpgen generate:\n    mine\.ts\n  Move it out of gen: mcpgen owns that folder/,
  );
  assert.equal(snapshot(join(dir, "gen")), { ...before, "mine.ts": "export const mine = 1;\n" });
  assert.equal(
    listFiles(dir).filter((f) => f.includes("mcpgen-tmp") || f.includes("mcpgen-old")),
    [],
  );
});

test("mcpgen.config.json is read; flags override it", () => {
  writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify({ schema: "2025-06-18", out: "from-config" }));
  const r = runCli(["generate"], dir);
  assert.is(r.status, 0, r.stderr);
  assert.match(readFileSync(join(dir, "from-config", "table.ts"), "utf8"), /revision = "2025-06-18"/);
  assert.is(runCli(["generate", "--schema", "2024-11-05"], dir).status, 0);
  assert.match(readFileSync(join(dir, "from-config", "table.ts"), "utf8"), /revision = "2024-11-05"/);
  writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify({ schema: "2025-06-18", output: "x" }));
  expectFailure(["generate"], 1, /mcpgen\.config\.json at \/output: invalid config/);
});

test("--target: another target is stale output (the banner's hash covers it); an unknown one exits 2 naming the targets", () => {
  const manifest = join(dir, "mcp.manifest.json");
  writeFileSync(
    manifest,
    JSON.stringify({
      name: "t",
      version: "1.0.0",
      tools: [{ name: "echo", inputSchema: { type: "object", properties: { s: { type: "string" } } } }],
    }),
  );
  assert.is(runCli(["generate"], dir).status, 0);
  const node = snapshot(join(dir, "src", "mcp"));
  const stale = runCli(["check", "--target", "workers"], dir);
  assert.is(stale.status, 1, stale.stderr);
  assert.match(stale.stdout + stale.stderr, /src\/mcp\/definition\.ts \(stale\)/);
  assert.is(runCli(["generate", "--target", "workers"], dir).status, 0);
  const workers = snapshot(join(dir, "src", "mcp"));
  assert.is(runCli(["check", "--target", "workers"], dir).status, 0);
  assert.match(workers["definition.ts"]!, /^ {2}toolValidators,$/m);
  assert.match(node["definition.ts"]!, /toolValidators: \(\) => import\("\.\/tool-validators\.js"\)/);
  assert.is.not(workers["types.ts"], node["types.ts"]);
  // bun runs what node runs: same code, its own hash
  assert.is(runCli(["generate", "--target", "bun"], dir).status, 0);
  const bun = snapshot(join(dir, "src", "mcp"));
  const body = (s: string) => s.slice(s.indexOf("\n"));
  assert.is(body(bun["definition.ts"]!), body(node["definition.ts"]!));
  assert.is.not(bun["definition.ts"], node["definition.ts"]);
  assert.is(runCli(["generate", "--target", "node"], dir).status, 0);
  assert.equal(snapshot(join(dir, "src", "mcp")), node);
  expectFailure(
    ["generate", "--target", "lambda"],
    2,
    /--target must be one of node, workers, bun, deno \(got "lambda"\)/,
  );
});

test("the unchanged re-run is served from the cache and still repairs edited output", () => {
  assert.is(runCli(["generate", "--schema", "2025-11-25", "--out", "gen"], dir).status, 0);
  const again = runCli(["generate", "--schema", "2025-11-25", "--out", "gen"], dir);
  assert.match(again.stdout, /up to date .*cached/);
  const before = snapshot(join(dir, "gen"));
  writeFileSync(join(dir, "gen", "index.ts"), "// edited\n");
  const repaired = runCli(["generate", "--schema", "2025-11-25", "--out", "gen"], dir);
  assert.match(repaired.stdout, /wrote .*cached/);
  assert.equal(snapshot(join(dir, "gen")), before);
  assert.is(runCli(["generate", "--schema", "2025-11-25", "--out", "uncached", "--no-cache"], dir).status, 0);
  assert.equal(snapshot(join(dir, "uncached")), before);
});

test("an unbundled schema prints what was inferred as warnings", () => {
  mkdirSync(join(dir, "2027-01-01"));
  const doc = JSON.parse(readFileSync(join(repoRoot, "schema", "2026-07-28", "schema.json"), "utf8"));
  doc.$defs.Extra = { type: "string" };
  writeFileSync(join(dir, "2027-01-01", "schema.json"), JSON.stringify(doc));
  const r = runCli(["generate", "--schema", "2027-01-01/schema.json", "--out", "gen"], dir);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stderr, /warning: 2027-01-01\/schema\.json: revision 2027-01-01 is not bundled/);
  assert.match(readFileSync(join(dir, "gen", "table.ts"), "utf8"), /revision = "2027-01-01"/);
});

test.run();
