// `mcpgen breaking`: one fixture pair per rule under test/fixtures/breaking/<rule>/ (old.json ->
// new.json) reports exactly that rule with both pointers, and its `<rule>-compatible`
// counterpart reports nothing; warning rules fail only under --strict. Plus the config's ignore
// list, git refs, and the CLI's exit codes.
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { RULES, runBreaking } from "../../generator/contract/breaking/index.js";
import { McpgenError } from "../../generator/errors.js";
import { resolvePointer, repoRoot, tempDir } from "../helpers.js";
import { runCli } from "../cli/run-cli.js";

const fixtures = join(repoRoot, "test/fixtures/breaking");
const ruleOf = (dir: string) => dir.toUpperCase().replaceAll("-", "_");
const cases = readdirSync(fixtures)
  .filter((d) => !d.endsWith("-compatible"))
  .sort();
const read = (p: string) => JSON.parse(readFileSync(p, "utf8")) as unknown;

test("there is a fixture pair and a compatible counterpart for every rule", () => {
  assert.equal(cases.map(ruleOf), Object.keys(RULES).sort());
  for (const c of cases) assert.ok(readdirSync(fixtures).includes(`${c}-compatible`), c);
});

for (const c of cases) {
  const severity = RULES[ruleOf(c) as keyof typeof RULES].severity;
  test(`${c}: reports ${ruleOf(c)} with pointers into both manifests; exit status breaking${severity === "warning" ? " only under --strict" : ""}`, async () => {
    const dir = join(fixtures, c);
    const r = await runBreaking({ against: join(dir, "old.json"), manifest: join(dir, "new.json"), cwd: dir });
    assert.is(r.breaking, severity === "breaking");
    if (severity === "warning")
      assert.ok(
        (await runBreaking({ against: join(dir, "old.json"), manifest: join(dir, "new.json"), cwd: dir, strict: true }))
          .breaking,
      );
    assert.ok(r.findings.length > 0);
    for (const f of r.findings) {
      assert.is(f.rule, ruleOf(c), f.message);
      assert.is(f.severity, severity);
      // Every pointer resolves in its manifest.
      if (f.old !== null) assert.ok(resolvePointer(read(join(dir, "old.json")), f.old) !== undefined, `old ${f.old}`);
      if (f.new !== null) assert.ok(resolvePointer(read(join(dir, "new.json")), f.new) !== undefined, `new ${f.new}`);
    }
  });
  test(`${c}-compatible: no finding`, async () => {
    const dir = join(fixtures, `${c}-compatible`);
    const r = await runBreaking({ against: join(dir, "old.json"), manifest: join(dir, "new.json"), cwd: dir });
    assert.equal(r.findings, [], r.text);
    assert.not.ok(r.breaking);
  });
}

test("entry-removed names each kind of entry", async () => {
  const dir = join(fixtures, "entry-removed");
  const r = await runBreaking({ against: join(dir, "old.json"), manifest: join(dir, "new.json"), cwd: dir });
  assert.equal(
    r.findings.map((f) => f.entry),
    ["prompts/upsell", "resourceTemplates/order", "resources/shop://stock", "tools/ping_shop"],
  );
  assert.equal(
    r.findings.map((f) => f.new),
    [null, null, null, null],
  );
});

test("ignore entries with a reason silence one rule for one entry; unused ones are reported", async () => {
  const { dir, cleanup } = tempDir("mcpgen-breaking-");
  try {
    copyFileSync(join(fixtures, "tool-input-property-required/old.json"), join(dir, "old.json"));
    copyFileSync(join(fixtures, "tool-input-property-required/new.json"), join(dir, "mcp.manifest.json"));
    writeFileSync(
      join(dir, "mcpgen.config.json"),
      JSON.stringify({
        manifest: "mcp.manifest.json",
        out: "src/mcp",
        breaking: {
          ignore: [
            {
              rule: "TOOL_INPUT_PROPERTY_REQUIRED",
              entry: "tools/find_items",
              reason: "no client omits limit yet (checked logs)",
            },
            { rule: "ENTRY_REMOVED", entry: "tools/gone", reason: "stale" },
          ],
        },
      }),
    );
    const r = await runBreaking({ against: "old.json", cwd: dir });
    assert.not.ok(r.breaking);
    assert.is(r.findings[0]!.ignored, "no client omits limit yet (checked logs)");
    assert.equal(
      r.unusedIgnores.map((i) => i.entry),
      ["tools/gone"],
    );
    const cli = runCli(["breaking", "--against", "old.json"], dir);
    assert.is(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /ignored {2}TOOL_INPUT_PROPERTY_REQUIRED/);
    assert.match(cli.stdout, /note: breaking.ignore entry ENTRY_REMOVED tools\/gone matched nothing/);

    writeFileSync(
      join(dir, "mcpgen.config.json"),
      JSON.stringify({ breaking: { ignore: [{ rule: "ENTRY_REMOVED", entry: "tools/x" }] } }),
    );
    await runBreaking({ against: "old.json", cwd: dir }).then(
      () => assert.unreachable("a reasonless ignore must fail"),
      (e: unknown) =>
        assert.match(
          String((e as Error).message),
          /mcpgen.config.json at \/breaking\/ignore\/0\/reason: invalid config \(expected a non-empty reason/,
        ),
    );
  } finally {
    cleanup();
  }
});

test("--against <git-ref>:<path> reads the earlier manifest from git; CLI exit 1 with --json findings", () => {
  const { dir, cleanup } = tempDir("mcpgen-breaking-git-");
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: dir,
        stdio: "pipe",
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.invalid",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.invalid",
        },
      });
    git("init", "-q");
    copyFileSync(join(fixtures, "tool-output-property-optional/old.json"), join(dir, "mcp.manifest.json"));
    git("add", "mcp.manifest.json");
    git("commit", "-qm", "v1");
    copyFileSync(join(fixtures, "tool-output-property-optional/new.json"), join(dir, "mcp.manifest.json"));
    const r = runCli(["breaking", "--against", "HEAD:mcp.manifest.json", "--json"], dir);
    assert.is(r.status, 1, r.stderr);
    const json = JSON.parse(r.stdout) as { breaking: boolean; findings: { rule: string; old: string; new: string }[] };
    assert.ok(json.breaking);
    assert.equal(
      json.findings.map((f) => [f.rule, f.old, f.new]),
      [["TOOL_OUTPUT_PROPERTY_OPTIONAL", "/tools/0/outputSchema/required", "/tools/0/outputSchema/properties/items"]],
    );
    const same = runCli(["breaking", "--against", "HEAD:mcp.manifest.json"], dir);
    assert.is(same.status, 1);
    const missing = runCli(["breaking", "--against", "HEAD:nope.json"], dir);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /HEAD:nope.json: cannot read from git/);
  } finally {
    cleanup();
  }
});

test("an invalid earlier manifest fails like generate, naming the file and pointer", async () => {
  const { dir, cleanup } = tempDir("mcpgen-breaking-bad-");
  try {
    writeFileSync(join(dir, "old.json"), '{"name": "x"}');
    copyFileSync(join(fixtures, "entry-renamed/old.json"), join(dir, "mcp.manifest.json"));
    await runBreaking({ against: "old.json", cwd: dir }).then(
      () => assert.unreachable(),
      (e: unknown) => {
        assert.instance(e, McpgenError);
        assert.match((e as Error).message, /old.json/);
      },
    );
  } finally {
    cleanup();
  }
});

test("warnings: exit 0 without --strict and 1 with it; the text and the JSON say which findings warn", () => {
  const dir = join(fixtures, "tool-default-changed");
  const plain = runCli(["breaking", "--against", "old.json", "--manifest", "new.json"], dir);
  assert.is(plain.status, 0, plain.stderr);
  assert.match(
    plain.stdout,
    /^warning  TOOL_DEFAULT_CHANGED: tools\/find_items input limit: default 10 -> 20\n  old old\.json#\/tools\/0\/inputSchema\/properties\/limit\/default\n/,
  );
  assert.match(plain.stdout, /\nno breaking changes against old\.json \(1 warning\(s\); --strict fails on them\)\n$/);
  const strict = runCli(["breaking", "--against", "old.json", "--manifest", "new.json", "--strict", "--json"], dir);
  assert.is(strict.status, 1, strict.stderr);
  const json = JSON.parse(strict.stdout) as {
    strict: boolean;
    breaking: boolean;
    findings: { rule: string; severity: string }[];
  };
  assert.equal(
    [json.strict, json.breaking, json.findings.map((f) => [f.rule, f.severity])],
    [true, true, [["TOOL_DEFAULT_CHANGED", "warning"]]],
  );
  // a breaking finding next to a warning: both listed, the count says which is which
  const both = runCli(
    [
      "breaking",
      "--against",
      join(fixtures, "tool-became-destructive", "old.json"),
      "--manifest",
      join(fixtures, "tool-input-range-narrowed", "new.json"),
    ],
    dir,
  );
  assert.is(both.status, 1);
  assert.match(
    both.stdout,
    /^BREAKING TOOL_INPUT_RANGE_NARROWED: tools\/find_items input limit: maximum \(none\) -> 20 \(accepts less\)$/m,
  );
  // annotations dropped: destructiveHint falls back to MCP's default, true
  assert.match(
    both.stdout,
    /^warning  TOOL_BECAME_DESTRUCTIVE: tools\/find_items: annotations now say it may destroy data \(destructiveHint\)$/m,
  );
  assert.match(both.stdout, /\n1 breaking change\(s\) against \S+ \(1 warning\(s\); --strict fails on them\)\n$/);
});

test.run();
