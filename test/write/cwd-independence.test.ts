import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { listFiles } from "../../generator/write/index.js";
import { runCli } from "../cli/run-cli.js";
import { repoRoot, tempDir } from "../helpers.js";

/** Every file of an output folder, path -> bytes. */
function snapshot(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}

test("generate and check give the same bytes from any working directory (manifest and schema by path)", () => {
  const { dir, cleanup } = tempDir("mcpgen-cwd-");
  try {
    const project = join(dir, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    mkdirSync(join(project, "schemas", "2025-06-18"), { recursive: true });
    copyFileSync(join(repoRoot, "examples", "weather", "mcp.manifest.json"), join(project, "mcp.manifest.json"));
    // a byte-identical copy is still "a schema given by path": it is named by its path
    copyFileSync(
      join(repoRoot, "schema", "2025-06-18", "schema.json"),
      join(project, "schemas", "2025-06-18", "schema.json"),
    );

    const runs: [string, string[], string[]][] = [
      [
        project,
        ["--manifest", "mcp.manifest.json", "--out", "src/mcp"],
        ["--schema", "schemas/2025-06-18/schema.json", "--out", "src/proto"],
      ],
      [
        join(project, "src"),
        ["--manifest", "../mcp.manifest.json", "--out", "mcp"],
        ["--schema", "../schemas/2025-06-18/schema.json", "--out", "proto"],
      ],
    ];
    const seen: Map<string, string>[][] = [];
    for (const [cwd, manifestArgs, schemaArgs] of runs) {
      const outputs: Map<string, string>[] = [];
      for (const [args, out] of [
        [manifestArgs, "src/mcp"],
        [schemaArgs, "src/proto"],
      ] as const) {
        const g = runCli(["generate", ...args, "--no-cache"], cwd);
        assert.is(g.status, 0, g.stderr);
        outputs.push(snapshot(join(project, out)));
      }
      seen.push(outputs);
      // the other directory's invocation sees this output as current
      for (const [otherCwd, m, s] of runs) {
        for (const args of [m, s]) {
          const c = runCli(["check", ...args], otherCwd);
          assert.is(c.status, 0, `${otherCwd} ${args.join(" ")}: ${c.stdout}${c.stderr}`);
        }
      }
    }
    assert.equal(seen[1], seen[0]);
    const server = seen[0]![0]!.get("server.ts")!;
    assert.match(server.split("\n")[0]!, / from \.\.\/\.\.\/mcp\.manifest\.json \(sha256 /);
    const readme = seen[0]![0]!.get("README.md")!;
    assert.match(readme, /npx mcpgen generate --manifest mcp\.manifest\.json --out src\/mcp\n/);
    const types = seen[0]![1]!.get("types.ts")!;
    assert.match(types.split("\n")[0]!, / from \.\.\/\.\.\/schemas\/2025-06-18\/schema\.json \(sha256 /);
  } finally {
    cleanup();
  }
});

test.run();
