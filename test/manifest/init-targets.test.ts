// `mcpgen init --target`: which files each target writes, its npm scripts, the Worker's
// compatibility date, a bad target refused with nothing written, and every target's starter
// compiling under strict TypeScript 7 and 5.9 once generated.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CONFIG_FILE,
  HANDLERS_FILE,
  MANIFEST_FILE,
  STDIO_ENTRY,
  TSCONFIG_FILE,
  initProject,
} from "../../generator/init.js";
import {
  BUN_ENTRY,
  DENO_ENTRY,
  PINNED_COMPATIBILITY_DATE,
  README_FILE,
  WORKER_ENTRY,
  WRANGLER_FILE,
} from "../../generator/init-targets.js";
import { McpgenError } from "../../generator/errors.js";
import { generate } from "../../generator/generate.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { root, withTempDir } from "./helpers.js";
import { hasStack, runCli } from "../cli/run-cli.js";

function jsonc(text: string): Record<string, unknown> {
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""));
}

test("--target workers: a Worker entry, wrangler.jsonc, a README, wrangler's scripts; no stdio entry", () => {
  withTempDir((dir) => {
    const r = initProject({ dir, name: "edge", target: "workers" });
    assert.equal(r.written, [
      MANIFEST_FILE,
      CONFIG_FILE,
      HANDLERS_FILE,
      WORKER_ENTRY,
      WRANGLER_FILE,
      README_FILE,
      TSCONFIG_FILE,
      "package.json",
      ".gitignore",
    ]);
    assert.equal(jsonc(readFileSync(join(dir, WRANGLER_FILE), "utf8")), {
      name: "edge",
      main: "dist/worker.js",
      compatibility_date: PINNED_COMPATIBILITY_DATE,
    });
    assert.match(
      readFileSync(join(dir, WORKER_ENTRY), "utf8"),
      /createFetchHandler\(server\)[\s\S]*export default \{ fetch: handler \};/,
    ); // the handler itself is fetch: it receives ctx.waitUntil
    const { scripts } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    assert.match(scripts.start, /^wrangler dev --ip 127\.0\.0\.1 --port \$\{PORT:-8787\}/);
    assert.is(scripts.deploy, "wrangler deploy");
    assert.is(scripts.build, "mcpgen generate && tsc");
    assert.match(r.next[1]!, / wrangler$/);
    assert.not.ok(existsSync(join(dir, STDIO_ENTRY)));
    // a bundled deployment: generate imports the generated parts statically
    assert.equal(JSON.parse(readFileSync(join(dir, CONFIG_FILE), "utf8")), {
      manifest: MANIFEST_FILE,
      out: "src/mcp",
      target: "workers",
    });
  });
});

test("--target workers: the compatibility date is the newest the project's workerd supports", () => {
  withTempDir((dir) => {
    mkdirSync(join(dir, "node_modules", "workerd"), { recursive: true });
    writeFileSync(
      join(dir, "node_modules", "workerd", "package.json"),
      '{ "name": "workerd", "version": "1.20270105.0" }',
    );
    initProject({ dir, target: "workers" });
    const text = readFileSync(join(dir, WRANGLER_FILE), "utf8");
    assert.is(jsonc(text).compatibility_date, "2027-01-05");
    assert.match(text, /installed workerd 1\.20270105\.0/);
  });
});

for (const [target, entry, tool] of [
  ["bun", BUN_ENTRY, "bun"],
  ["deno", DENO_ENTRY, "deno"],
] as const) {
  test(`--target ${target}: its serve entry beside the stdio one, start and start:stdio on ${tool}`, () => {
    withTempDir((dir) => {
      const r = initProject({ dir, name: "app", target });
      assert.equal(r.written, [
        MANIFEST_FILE,
        CONFIG_FILE,
        HANDLERS_FILE,
        STDIO_ENTRY,
        entry,
        README_FILE,
        TSCONFIG_FILE,
        "package.json",
        ".gitignore",
      ]);
      const { scripts } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      assert.match(scripts.start, new RegExp(`^${tool} .*dist/${target}\\.js$`));
      assert.match(scripts["start:stdio"], new RegExp(`^${tool} .*dist/server\\.js$`));
      assert.match(
        readFileSync(join(dir, entry), "utf8"),
        new RegExp(`${target === "bun" ? "Bun" : "Deno"}\\.serve\\(`),
      );
      assert.match(r.next[1]!, new RegExp(` ${tool}$`));
      assert.is(JSON.parse(readFileSync(join(dir, CONFIG_FILE), "utf8")).target, target);
    });
  });
}

test("an unknown --target is a usage error and nothing is written", () => {
  withTempDir((dir) => {
    let error: unknown;
    try {
      initProject({ dir, target: "lambda" as never });
    } catch (e) {
      error = e;
    }
    assert.instance(error, McpgenError);
    assert.match((error as Error).message, /--target must be one of node, workers, bun, deno \(got "lambda"\)/);
    assert.equal(readdirSync(dir), []);
  });
});

test("the CLI: --target workers scaffolds the Worker; an unknown one exits 2 naming the targets, no stack", () => {
  withTempDir((dir) => {
    const bad = runCli(["init", "--target", "lambda"], dir);
    assert.is(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /--target must be one of node, workers, bun, deno \(got "lambda"\)/);
    assert.not.ok(hasStack(bad.stderr));
    assert.equal(readdirSync(dir), []);
    const ok = runCli(["init", "--name", "edge", "--target", "workers"], dir);
    assert.is(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /created src\/worker\.ts\ncreated wrangler\.jsonc\n/);
    assert.match(ok.stdout, /npm start {8}# wrangler dev/);
    // the starter's config makes generate write the bundled deployment's static imports
    const gen = runCli(["generate", "--no-cache"], dir);
    assert.is(gen.status, 0, gen.stderr);
    const definition = readFileSync(join(dir, "src", "mcp", "definition.ts"), "utf8");
    assert.match(definition, /^import \{ allErrorsValidators, toolValidators \} from "\.\/tool-validators\.js";$/m);
    assert.not.ok(/\bimport\(/.test(definition), definition);
    assert.not.ok(/\bimport\(/.test(readFileSync(join(dir, "src", "mcp", "server.ts"), "utf8")));
  });
});

test("every target's starter compiles under strict TypeScript 7 and 5.9 once generated; the Worker's without Node's types", async () => {
  for (const target of ["workers", "bun", "deno"] as const) {
    const dir = tempDir(`init-${target}-`);
    try {
      const { next } = initProject({ dir, name: "app", target });
      // Bun and Deno run the stdio entry through their Node.js compatibility: it uses `process`.
      assert.is(next.join("\n").includes("@types/node"), target !== "workers", `${target}: ${next.join("; ")}`);
      const options = jsonc(readFileSync(join(dir, TSCONFIG_FILE), "utf8")).compilerOptions as Record<string, unknown>;
      assert.equal(
        [options.lib, options.types],
        target === "workers" ? [["esnext", "webworker"], []] : [["esnext"], ["node"]],
        target,
      );
      await generate({ cwd: dir, cache: false });
      for (const compiler of ["typescript", "typescript-5"]) {
        const r = spawnSync(
          process.execPath,
          [join(root, "node_modules", compiler, "bin", "tsc"), "-p", ".", "--noEmit", "--listFiles"],
          { cwd: dir, encoding: "utf8", timeout: 120_000 },
        );
        assert.is(r.status, 0, `${target} on ${compiler}:\n${r.stdout}${r.stderr}`);
        // @types/node is there to be found (the repository's node_modules): the Worker's config never reads it.
        assert.is(/[\\/]@types[\\/]node[\\/]/.test(r.stdout), target !== "workers", `${target} on ${compiler}`);
      }
    } finally {
      removeDir(dir);
    }
  }
});

test.run();
