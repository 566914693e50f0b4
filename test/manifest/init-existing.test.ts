// `mcpgen init` in a project that already has package.json and tsconfig.json: the files come from
// the tools themselves (`npm init -y`, `tsc --init` of TypeScript 7 and 5.9, run here), then init
// without --yes (lists every change, writes nothing) and with it (makes them, keeping comments),
// then the build those tools' users run. Temp projects live under the repository's tmp/ so
// @mcpgen/runtime and @types/node resolve from its node_modules.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HANDLERS_FILE, MANIFEST_FILE, TSCONFIG_FILE } from "../../generator/init.js";
import { generate } from "../../generator/generate.js";
import { listFiles } from "../../generator/write/compare.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { root, writeFiles } from "./helpers.js";
import { hasStack, runCli } from "../cli/run-cli.js";

type Compiler = "typescript" | "typescript-5";

/** The environment of a user's shell: none of the npm_* variables of an enclosing `npm test`. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !/^npm_(config|package|lifecycle)_/i.test(k) || /^npm_config_(cache|registry|userconfig)$/i.test(k),
  ),
);

function run(cwd: string, command: string, args: string[]): { code: number; output: string } {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000, env });
  return { code: r.status ?? 1, output: `${r.error?.message ?? ""}${r.stdout ?? ""}${r.stderr ?? ""}` };
}

const tsc = (compiler: Compiler, cwd: string, ...args: string[]) =>
  run(cwd, process.execPath, [join(root, "node_modules", compiler, "bin", "tsc"), ...args]);

/** A project as `npm init -y && npx tsc --init` leaves it, made by those tools. */
function npmAndTscInit(compiler: Compiler): string {
  const dir = tempDir("init-existing-");
  const npm = run(dir, "npm", ["init", "-y"]);
  assert.is(npm.code, 0, npm.output);
  const init = tsc(compiler, dir, "--init");
  assert.is(init.code, 0, init.output);
  return dir;
}

/** Files under `dir` (not node_modules) compiled output would be: .js, .d.ts, .map. */
const compiledIn = (dir: string) => listFiles(dir).filter((f) => /\.(js|d\.ts|map)$/.test(f));

for (const compiler of ["typescript", "typescript-5"] as const) {
  test(`npm init -y, tsc --init (${compiler}), mcpgen init: every change in one run, nothing written; --yes makes them keeping the comments; build, run, regenerate`, async () => {
    const dir = npmAndTscInit(compiler);
    try {
      const before = readFileSync(join(dir, TSCONFIG_FILE), "utf8");
      const pkgBefore = readFileSync(join(dir, "package.json"), "utf8");
      assert.match(before, /^\s*"types": \[\],$/m, "tsc --init still writes an empty types");
      assert.match(before, /^\s*\/\/ "outDir"/m, "and leaves outDir commented out");

      const listed = runCli(["init"], dir);
      assert.is(listed.status, 1, listed.stdout);
      assert.not.ok(hasStack(listed.stderr), listed.stderr);
      const line = (pattern: RegExp) => before.split("\n").findIndex((l) => pattern.test(l)) + 1;
      assert.match(listed.stderr, /^mcpgen: init: nothing was written \(3 problems\):$/m);
      assert.match(
        listed.stderr,
        new RegExp(
          `^  tsconfig\\.json:${line(/\/\/ "rootDir"/)}:5: error: /compilerOptions/rootDir: is not set: .*TS5011.*set "rootDir": "\\./src"$`,
          "m",
        ),
      );
      assert.match(
        listed.stderr,
        new RegExp(
          `^  tsconfig\\.json:${line(/\/\/ "outDir"/)}:5: error: /compilerOptions/outDir: is not set: tsc writes each \\.js and \\.d\\.ts next to its \\.ts, also into src/mcp/.*set "outDir": "\\./dist"$`,
          "m",
        ),
      );
      assert.match(
        listed.stderr,
        new RegExp(
          `^  tsconfig\\.json:${line(/^\s*"types": \[\]/)}:5: error: /compilerOptions/types: is \\[\\], without "node": .*TS2591.*add "node"$`,
          "m",
        ),
      );
      assert.match(
        listed.stderr,
        /^`mcpgen init --yes` makes the changes to tsconfig\.json itself \(tsconfig\.json keeps its comments\); or make them yourself, then mcpgen init again$/m,
      );
      assert.equal(readdirSync(dir).sort(), ["package.json", TSCONFIG_FILE]);
      assert.is(readFileSync(join(dir, TSCONFIG_FILE), "utf8"), before);
      assert.is(readFileSync(join(dir, "package.json"), "utf8"), pkgBefore);

      const yes = runCli(["init", "--yes"], dir);
      assert.is(yes.status, 0, yes.stderr);
      assert.match(
        yes.stdout,
        /^updated tsconfig\.json \(set "rootDir": "\.\/src", "outDir": "\.\/dist", "types": \["node"\]\)$/m,
      );
      assert.match(yes.stdout, /^updated package\.json \(set "type": "module" \(was "commonjs"\); added scripts\./m);
      const after = readFileSync(join(dir, TSCONFIG_FILE), "utf8");
      // the three lines changed in place; every other line, comments included, as tsc --init wrote it
      const expected = before
        .replace(/^(\s*)\/\/ "rootDir": "\.\/src",$/m, '$1"rootDir": "./src",')
        .replace(/^(\s*)\/\/ "outDir": "\.\/dist",$/m, '$1"outDir": "./dist",')
        .replace(/^(\s*)"types": \[\],$/m, '$1"types": ["node"],');
      assert.is(after, expected);
      assert.is(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts.start, "node dist/server.js");
      assert.ok(existsSync(join(dir, HANDLERS_FILE)));

      // what `npm run build` runs, with the compiler that wrote the tsconfig
      await generate({ cwd: dir, cache: false });
      const build = tsc(compiler, dir, "-p", ".");
      assert.is(build.code, 0, build.output);
      for (const f of ["server.js", "http.js", "handlers.js", "mcp/server.js", "mcp/server.d.ts"])
        assert.ok(existsSync(join(dir, "dist", f)), f);
      assert.equal(compiledIn(join(dir, "src")), [], "nothing compiled into src/");
      const served = spawnSync(process.execPath, ["dist/server.js"], {
        cwd: dir,
        encoding: "utf8",
        timeout: 30_000,
        input:
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
          }) + "\n",
      });
      assert.match(served.stderr, /serving MCP over stdio/);
      assert.is(served.status, 0, served.stderr);
      // the next generate finds only its own files
      const again = runCli(["generate"], dir);
      assert.is(again.status, 0, again.stderr);
    } finally {
      removeDir(dir);
    }
  });
}

test("the issue's second build: tsc output in src/mcp makes generate name every stray file and the rm that deletes them; after it, generate runs", async () => {
  const dir = tempDir("init-stray-");
  try {
    writeFiles(dir, { "package.json": JSON.stringify({ name: "stray", type: "module" }) });
    assert.is(runCli(["init"], dir).status, 0);
    // a tsconfig without outDir, as a user had before init checked it
    writeFileSync(
      join(dir, TSCONFIG_FILE),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          types: ["node"],
          strict: true,
          declaration: true,
          declarationMap: true,
          sourceMap: true,
          skipLibCheck: true,
        },
      }),
    );
    await generate({ cwd: dir, cache: false });
    const build = tsc("typescript", dir, "-p", ".");
    assert.is(build.code, 0, build.output);
    const stray = compiledIn(join(dir, "src", "mcp"));
    assert.ok(stray.length >= 27, `tsc wrote ${stray.length} files into src/mcp`);
    writeFileSync(join(dir, "src", "mcp", "notes.txt"), "mine\n");

    const refused = runCli(["generate"], dir);
    assert.is(refused.status, 1);
    assert.not.ok(hasStack(refused.stderr), refused.stderr);
    const listed = refused.stderr
      .split("\n")
      .filter((l) => l.startsWith("    "))
      .map((l) => l.trim());
    assert.equal(listed, [...stray, "notes.txt"].sort(), "every stray file, each once");
    assert.match(
      refused.stderr,
      new RegExp(
        `^mcpgen: src/mcp: refusing to replace the output directory: ${stray.length + 1} files in it are not written by mcpgen generate:$`,
        "m",
      ),
    );
    assert.match(
      refused.stderr,
      new RegExp(
        `^  ${stray.length} of them are TypeScript compiler output, .*set "outDir": "\\./dist" and "rootDir": "\\./src".*then delete them: rm src/mcp/\\*\\.d\\.ts src/mcp/\\*\\.d\\.ts\\.map src/mcp/\\*\\.js src/mcp/\\*\\.js\\.map$`,
        "m",
      ),
    );
    assert.match(
      refused.stderr,
      /^  Move the other 1 out of src\/mcp: mcpgen owns that folder and replaces it whole$/m,
    );
    const rm = /then delete them: (rm .*)$/m.exec(refused.stderr)![1]!;
    const removed = run(dir, "sh", ["-c", rm]);
    assert.is(removed.code, 0, removed.output);
    assert.equal(compiledIn(join(dir, "src", "mcp")), []);
    assert.ok(existsSync(join(dir, "src", "mcp", "server.ts")), "the generated sources stay");
    assert.ok(existsSync(join(dir, "src", "mcp", "notes.txt")), "and the user's file");
    removeDir(join(dir, "src", "mcp", "notes.txt"));
    const again = runCli(["generate"], dir);
    assert.is(again.status, 0, again.stderr);
  } finally {
    removeDir(dir);
  }
});

test("an existing project's tsconfig: extends followed, every problem listed with its line; --yes fixes them all and the project builds into its own outDir", async () => {
  const dir = tempDir("init-custom-");
  try {
    const tsconfig = [
      "{",
      "  // our settings",
      '  "extends": "./tsconfig.base.json",',
      '  "compilerOptions": {',
      '    "module": "commonjs", // legacy',
      '    "moduleResolution": "node",',
      '    "types": ["semver"],',
      '    "noEmit": true,',
      "  },",
      '  "include": ["lib"],',
      "}",
      "",
    ].join("\n");
    writeFiles(dir, {
      "package.json": JSON.stringify(
        { name: "legacy", type: "commonjs", devDependencies: { "@types/semver": "^7" } },
        null,
        2,
      ),
      [TSCONFIG_FILE]: tsconfig,
      "tsconfig.base.json": JSON.stringify({
        compilerOptions: { outDir: "./build", strict: true, target: "es2016", skipLibCheck: true },
      }),
      "lib/util.ts": "export const answer: number = 42;\n",
    });
    const listed = runCli(["init"], dir);
    assert.is(listed.status, 1, listed.stdout);
    const problems = listed.stderr.split("\n").filter((l) => /^  \S+: error: /.test(l));
    assert.equal(
      problems.map((l) => /^  (\S+?)(?::\d+:\d+)?: error: (\S+):/.exec(l)!.slice(1).join(" ")),
      [
        "package.json /type",
        "tsconfig.json /compilerOptions/rootDir",
        "tsconfig.json /compilerOptions/module",
        "tsconfig.json /compilerOptions/moduleResolution",
        "tsconfig.json /compilerOptions/target",
        "tsconfig.json /compilerOptions/types",
        "tsconfig.json /compilerOptions/noEmit",
        "tsconfig.json /include",
      ],
    );
    assert.match(
      listed.stderr,
      /package\.json: error: \/type: is "commonjs" and the project has code of its own \(lib\/util\.ts\).*npm pkg set type=module/,
    );
    assert.match(
      listed.stderr,
      /tsconfig\.json:4:3: error: \/compilerOptions\/rootDir: is not set: .*set "rootDir": "\." \(lib\/util\.ts is outside src\/\)/,
    );
    assert.match(
      listed.stderr,
      /tsconfig\.json:5:5: error: \/compilerOptions\/module: is "commonjs": .*"module": "nodenext"/,
    );
    assert.match(
      listed.stderr,
      /tsconfig\.json:6:5: error: \/compilerOptions\/moduleResolution: is "node", which "module": "nodenext" does not allow \(TS5110\): remove it/,
    );
    assert.match(
      listed.stderr,
      /tsconfig\.json:4:3: error: \/compilerOptions\/target: is "es2016" \(from the config it extends\): top-level await needs es2017 or later/,
    );
    assert.match(listed.stderr, /tsconfig\.json:7:5: error: \/compilerOptions\/types: is \["semver"\], without "node"/);
    assert.match(
      listed.stderr,
      /tsconfig\.json:10:3: error: \/include: is \["lib"\], which leaves out src\/handlers\.ts, src\/server\.ts, src\/http\.ts, src\/mcp\/server\.ts: add "src"/,
    );
    assert.match(listed.stderr, /makes the changes to package\.json and tsconfig\.json itself/);
    assert.is(readFileSync(join(dir, TSCONFIG_FILE), "utf8"), tsconfig);

    const yes = runCli(["init", "-y", "--name", "legacy"], dir);
    assert.is(yes.status, 0, yes.stderr);
    assert.is(
      readFileSync(join(dir, TSCONFIG_FILE), "utf8"),
      [
        "{",
        "  // our settings",
        '  "extends": "./tsconfig.base.json",',
        '  "compilerOptions": {',
        '    "rootDir": ".",',
        '    "target": "esnext",',
        '    "module": "nodenext", // legacy',
        '    "types": ["semver", "node"],',
        "  },",
        '  "include": ["lib", "src"],',
        "}",
        "",
      ].join("\n"),
    );
    assert.match(
      yes.stdout,
      /^note: package\.json's "type" is "module" now \(was "commonjs"\); your own \.js and \.ts files \(lib\/util\.ts among them\) are ES modules from now on/m,
    );
    assert.match(
      yes.stdout,
      /^note: tsconfig\.json: "rootDir" is "\." \(lib\/util\.ts is outside src\/\), so tsc writes src\/server\.ts to build\/src\/server\.js and the npm scripts run it from there$/m,
    );
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    assert.equal(
      [pkg.type, pkg.scripts.start, pkg.scripts["start:http"]],
      ["module", "node build/src/server.js", "node build/src/http.js"],
    );
    assert.match(readFileSync(join(dir, ".gitignore"), "utf8"), /^build\/$/m);

    await generate({ cwd: dir, cache: false });
    const build = tsc("typescript", dir, "-p", ".");
    assert.is(build.code, 0, build.output);
    assert.ok(existsSync(join(dir, "build", "src", "server.js")));
    assert.ok(existsSync(join(dir, "build", "lib", "util.js")));
    assert.equal(compiledIn(join(dir, "src")), []);
    assert.is(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")).name, "legacy");
  } finally {
    removeDir(dir);
  }
});

test.run();
