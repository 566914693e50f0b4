import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CONFIG_FILE,
  HANDLERS_FILE,
  HTTP_ENTRY,
  MANIFEST_FILE,
  STDIO_ENTRY,
  TSCONFIG_FILE,
  initProject,
} from "../../generator/init.js";
import { STARTER_SCRIPTS } from "../../generator/init-package.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { McpgenError } from "../../generator/errors.js";
import { generate } from "../../generator/generate.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { root, withTempDir, writeFiles } from "./helpers.js";
import { hasStack, runCli } from "../cli/run-cli.js";

/** tsconfig text with comments and trailing commas, as `tsc --init` writes it. */
function parseJsonc(text: string): { compilerOptions: Record<string, unknown> } {
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "").replace(/,(\s*[}\]])/g, "$1"));
}

function tsc(compiler: "typescript" | "typescript-5", cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, "node_modules", compiler, "bin", "tsc"), ...args], {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status ?? 1, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** init + generate in a temp dir under the repo (so @mcpgen/runtime and @types/node resolve). */
async function initAndGenerate(name?: string): Promise<string> {
  const dir = tempDir("init-");
  initProject(name === undefined ? { dir } : { dir, name });
  await generate({ cwd: dir, cache: false });
  return dir;
}

test("init in an empty directory: every file, package.json, .gitignore, and the next commands", () => {
  withTempDir((dir) => {
    const r = initProject({ dir, name: "demo" });
    assert.equal(r.written, [
      MANIFEST_FILE,
      CONFIG_FILE,
      HANDLERS_FILE,
      STDIO_ENTRY,
      HTTP_ENTRY,
      TSCONFIG_FILE,
      "package.json",
      ".gitignore",
    ]);
    assert.equal(r.updated, []);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8"));
    assert.is(manifest.$schema, "./node_modules/mcpgen/schema/manifest.schema.json");
    assert.is(manifest.name, "demo");
    // one revision per line, so serving another is a one-line change
    assert.match(
      readFileSync(join(dir, MANIFEST_FILE), "utf8"),
      /"revisions": \[\n    "2026-07-28",\n    "2025-11-25",\n    "2025-06-18",\n/,
    );
    assert.equal(JSON.parse(readFileSync(join(dir, CONFIG_FILE), "utf8")), {
      manifest: "mcp.manifest.json",
      out: "src/mcp",
    });
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    assert.is(pkg.type, "module");
    assert.equal(pkg.scripts, STARTER_SCRIPTS);
    assert.is(readFileSync(join(dir, ".gitignore"), "utf8"), "# mcpgen init\nnode_modules/\ndist/\n.mcpgen-cache/\n");
    assert.match(readFileSync(join(dir, STDIO_ENTRY), "utf8"), /createDemoServer\(handlers, /);
    assert.match(
      readFileSync(join(dir, HTTP_ENTRY), "utf8"),
      /createStreamableHttpServer\(\{\n  port: Number\(process\.env\["PORT"\] \?\? 3000\)/,
    );
    assert.is(
      r.next[0],
      `npm i @mcpgen/runtime@^${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}`,
    );
    assert.match(r.next[1]!, /^npm i -D mcpgen@\^\S+ typescript @types\/node$/);
    assert.match(r.next[2]!, /^npm run build/);
    assert.match(r.next[3]!, /^npm start/);
  });
});

test("init's tsconfig is what `tsc --init` writes (TypeScript 5.9 and 7), with its Node.js settings and src -> dist", () => {
  withTempDir((dir) => {
    initProject({ dir });
    const ours = parseJsonc(readFileSync(join(dir, TSCONFIG_FILE), "utf8")).compilerOptions;
    assert.equal(
      { rootDir: ours.rootDir, outDir: ours.outDir, lib: ours.lib, types: ours.types },
      { rootDir: "./src", outDir: "./dist", lib: ["esnext"], types: ["node"] },
    );
    for (const compiler of ["typescript", "typescript-5"] as const) {
      withTempDir((ref) => {
        assert.is(tsc(compiler, ref, "--init").code, 0);
        const theirs = parseJsonc(readFileSync(join(ref, "tsconfig.json"), "utf8")).compilerOptions;
        for (const [key, value] of Object.entries(theirs)) {
          if (key === "types") continue; // `tsc --init` says: for nodejs, "types": ["node"]
          assert.equal(ours[key], value, `${compiler} --init sets ${key}`);
        }
      });
    }
  });
});

test("the starter builds under init's tsconfig (tsc --init defaults) with TypeScript 7 and 5.9, declarations included", async () => {
  const dir = await initAndGenerate("demo");
  try {
    assert.equal(
      readdirSync(join(dir, "src", "mcp"))
        .filter((f) => !f.endsWith(".ts"))
        .sort(),
      [".gitattributes", "README.md"],
      "no protocol/ copies: bindings come from @mcpgen/runtime",
    );
    assert.match(
      readFileSync(join(dir, "src", "mcp", "README.md"), "utf8"),
      /Generated by mcpgen — do not edit[\s\S]*npx mcpgen generate --manifest mcp\.manifest\.json --out src\/mcp/,
    );
    assert.match(readFileSync(join(dir, "src", "mcp", ".gitattributes"), "utf8"), /^\* linguist-generated=true$/m);
    const seven = tsc("typescript", dir, "-p", ".");
    assert.is(seven.code, 0, seven.output);
    for (const f of ["server.js", "http.js", "handlers.d.ts", "mcp/server.d.ts"])
      assert.ok(existsSync(join(dir, "dist", f)), f);
    const five = tsc("typescript-5", dir, "-p", ".", "--outDir", "dist5");
    assert.is(five.code, 0, five.output);
    // isolatedDeclarations: the starter and the manifest output comply; the protocol method
    // tables (inferred object literals, generated for every revision) are the known exception
    // and the style options `tsc --init` leaves commented out
    const style = [
      "--noImplicitReturns",
      "--noImplicitOverride",
      "--noUnusedLocals",
      "--noUnusedParameters",
      "--noFallthroughCasesInSwitch",
      "--noPropertyAccessFromIndexSignature",
    ];
    const strictest = tsc("typescript", dir, "-p", ".", "--noEmit", ...style);
    assert.is(strictest.code, 0, strictest.output);
    const isolated = tsc("typescript", dir, "-p", ".", "--noEmit", "--isolatedDeclarations");
    const offenders = isolated.output
      .split("\n")
      .filter((l) => /error TS/.test(l) && !/^src\/mcp\/protocol\/[\d-]+\/methods\.ts\(/.test(l));
    assert.equal(offenders, []);
  } finally {
    removeDir(dir);
  }
});

test("the starter handler's return type is really checked against outputSchema", async () => {
  const dir = await initAndGenerate();
  try {
    const path = join(dir, HANDLERS_FILE);
    const text = readFileSync(path, "utf8");
    assert.ok(text.includes("return { echoed, length: echoed.length };"));
    writeFileSync(path, text.replace("return { echoed, length: echoed.length };", "return { echoed };"));
    const r = tsc("typescript", dir, "-p", ".", "--noEmit");
    assert.ok(r.code !== 0);
    assert.match(r.output, /length/);
  } finally {
    removeDir(dir);
  }
});

test("init in an existing npm project adds what is missing and keeps everything it finds", () => {
  withTempDir((dir) => {
    const pkg = {
      name: "@acme/weather-bot",
      version: "2.0.0",
      scripts: { build: "make", test: "uvu" },
      dependencies: { "@mcpgen/runtime": "^0.1.0" },
    };
    // a tsconfig init has nothing to change in (init-existing.test.ts has those that need changes)
    const tsconfig =
      '{ "compilerOptions": { "strict": true, "module": "node20", "rootDir": "src", "outDir": "dist", "types": ["node"] } }\n';
    writeFiles(dir, {
      "package.json": JSON.stringify(pkg, null, 4) + "\n",
      ".gitignore": "/node_modules\ncoverage",
      [TSCONFIG_FILE]: tsconfig,
    });
    const r = initProject({ dir });
    assert.equal(r.written, [MANIFEST_FILE, CONFIG_FILE, HANDLERS_FILE, STDIO_ENTRY, HTTP_ENTRY]);
    assert.equal(r.updated, [
      'package.json (added "type": "module", scripts.generate, scripts.start, scripts.start:http, scripts.dev)',
      ".gitignore (added dist/ .mcpgen-cache/)",
    ]);
    assert.match(r.notes.join("\n"), /kept your scripts\.build \("make"\); the starter's is "mcpgen generate && tsc"/);
    const text = readFileSync(join(dir, "package.json"), "utf8");
    assert.match(text, /^{\n    "name"/, "indentation kept");
    const after = JSON.parse(text);
    assert.equal(after.scripts, {
      build: "make",
      test: "uvu",
      generate: "mcpgen generate",
      start: "node dist/server.js",
      "start:http": "node dist/http.js",
      dev: STARTER_SCRIPTS.dev,
    });
    assert.equal(after.dependencies, pkg.dependencies);
    assert.is(after.type, "module");
    assert.is(
      readFileSync(join(dir, ".gitignore"), "utf8"),
      "/node_modules\ncoverage\n# mcpgen init\ndist/\n.mcpgen-cache/\n",
    );
    assert.is(readFileSync(join(dir, TSCONFIG_FILE), "utf8"), tsconfig);
    assert.is(
      JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")).name,
      "weather-bot",
      "named after the package",
    );
    assert.not.ok(
      r.next.some((c) => c.includes("@mcpgen/runtime")),
      "the runtime is already a dependency",
    );
  });
});

function refusal(dir: string, options: { name?: string; out?: string; yes?: boolean } = {}): Error {
  try {
    initProject({ dir, ...options });
  } catch (e) {
    assert.instance(e, Error);
    return e as Error;
  }
  return assert.unreachable("init should refuse") as never;
}

test("init refuses, writing nothing, when a file exists or package.json cannot take the additions", () => {
  withTempDir((dir) => {
    writeFiles(dir, { [STDIO_ENTRY]: "// mine\n", [MANIFEST_FILE]: "{}" });
    const e = refusal(dir);
    assert.instance(e, InputError);
    assert.match(e.message, /mcp\.manifest\.json.*already exists; mcpgen init never overwrites/);
    assert.match(e.message, /src\/server\.ts.*already exists/);
    assert.equal(readdirSync(dir).sort(), [MANIFEST_FILE, "src"]);
    assert.equal(readdirSync(join(dir, "src")), ["server.ts"]);
    assert.is(readFileSync(join(dir, STDIO_ENTRY), "utf8"), "// mine\n");
  });
  withTempDir((dir) => {
    writeFiles(dir, { "package.json": '{ "name": "x", "type": "commonjs" }', "index.js": "module.exports = 1;\n" });
    assert.match(
      refusal(dir).message,
      /package\.json.*\/type: is "commonjs" and the project has code of its own \(index\.js\); the starter is an ES module/,
    );
    assert.equal(readdirSync(dir).sort(), ["index.js", "package.json"]);
    writeFiles(dir, { "package.json": '{ "name": "x", "type": "esm" }' });
    assert.match(refusal(dir).message, /\/type: is "esm"; expected "module".*npm pkg set type=module/);
    writeFiles(dir, { "package.json": "{ nope" });
    assert.match(refusal(dir).message, /package\.json.*invalid JSON/);
    assert.equal(readdirSync(dir).sort(), ["index.js", "package.json"]);
  });
  withTempDir((dir) => {
    const name = refusal(dir, { name: "bad name`" });
    assert.instance(name, McpgenError);
    assert.match(name.message, /--name must be/);
    assert.match(refusal(dir, { out: "../elsewhere" }).message, /--out must be a directory under src\//);
    assert.equal(readdirSync(dir), []);
  });
});

/** package.json as `npm init -y` writes it since npm 11 (11.19.1 here), in a folder named "npminit". */
const NPM_INIT_Y = `{
  "name": "npminit",
  "version": "1.0.0",
  "description": "",
  "main": "index.js",
  "scripts": {
    "test": "echo \\"Error: no test specified\\" && exit 1"
  },
  "keywords": [],
  "author": "",
  "license": "ISC",
  "type": "commonjs"
}
`;

test("`npm init -y` then `mcpgen init` (CLI): a commonjs package with no code of its own becomes a module, and init says so", () => {
  withTempDir((dir) => {
    // what does not count as the project's own code: dependencies, dot folders, files that name their module system, declarations
    writeFiles(dir, {
      "package.json": NPM_INIT_Y,
      "node_modules/dep/index.js": "module.exports = 1;\n",
      ".husky/hook.js": "",
      "tools/gen.cjs": "",
      "types/env.d.ts": "",
    });
    const r = runCli(["init"], dir);
    assert.is(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^updated package\.json \(set "type": "module" \(was "commonjs"\); added scripts\.generate, scripts\.build, scripts\.start, scripts\.start:http, scripts\.dev\)$/m,
    );
    assert.match(
      r.stdout,
      /^note: package\.json said "type": "commonjs" \(`npm init -y` writes it\) and the project has no JavaScript or TypeScript yet, so init made it "module"/m,
    );
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    assert.is(pkg.type, "module");
    const before = JSON.parse(NPM_INIT_Y);
    assert.equal({ ...pkg, type: before.type, scripts: before.scripts }, before, "nothing else changed");
    assert.is(pkg.scripts.test, before.scripts.test);
    assert.ok(existsSync(join(dir, MANIFEST_FILE)));
    assert.is(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")).name, "npminit");
  });
});

test("a commonjs package with code of its own: init prints the command that fixes it and writes nothing", () => {
  for (const own of ["index.js", "src/app.ts", "lib/deep/er/util.jsx"]) {
    withTempDir((dir) => {
      writeFiles(dir, { "package.json": NPM_INIT_Y, [own]: "module.exports = {};\n" });
      const r = runCli(["init"], dir);
      assert.is(r.status, 1, r.stdout);
      assert.match(
        r.stderr,
        new RegExp(
          `package\\.json.*/type: is "commonjs" and the project has code of its own \\(${own.replaceAll(".", "\\.")}\\)`,
        ),
      );
      assert.match(
        r.stderr,
        /run `npm pkg set type=module` \(rename files that use require\(\) or module\.exports to \.cjs first\), then mcpgen init again/,
      );
      assert.not.ok(hasStack(r.stderr), r.stderr);
      assert.is(readFileSync(join(dir, "package.json"), "utf8"), NPM_INIT_Y);
      assert.not.ok(existsSync(join(dir, MANIFEST_FILE)));
    });
  }
});

test("--yes in a commonjs package with code of its own: it becomes a module, and init names a file to look at", () => {
  withTempDir((dir) => {
    writeFiles(dir, { "package.json": NPM_INIT_Y, "lib/index.js": "module.exports = {};\n" });
    const r = runCli(["init", "--yes"], dir);
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stdout, /^updated package\.json \(set "type": "module" \(was "commonjs"\); added scripts\./m);
    assert.match(
      r.stdout,
      /^note: package\.json's "type" is "module" now \(was "commonjs"\); your own \.js and \.ts files \(lib\/index\.js among them\) are ES modules from now on: rename those that use require\(\) or module\.exports to \.cjs \(\.cts\)$/m,
    );
    assert.is(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type, "module");
    assert.is(readFileSync(join(dir, "lib/index.js"), "utf8"), "module.exports = {};\n", "init renames nothing");
  });
  withTempDir((dir) => {
    writeFiles(dir, { "package.json": '{ "name": "x", "type": "esm" }' });
    assert.is(
      initProject({ dir, yes: true }).updated[0],
      'package.json (set "type": "module" (was "esm"); added scripts.generate, scripts.build, scripts.start, scripts.start:http, scripts.dev)',
    );
  });
});

test("what --yes does not change: an unreadable tsconfig, src/ outside rootDir or excluded, files in the output folder; all listed in one run", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [
      { [TSCONFIG_FILE]: '{\n  "compilerOptions": { "strict": true\n}\n' },
      /tsconfig\.json:4:1: error: \(root\): is not valid JSON with comments: '\}' expected/,
    ],
    [
      { [TSCONFIG_FILE]: '{ "compilerOptions": [] }' },
      /tsconfig\.json:1:3: error: \/compilerOptions: expected an object/,
    ],
    [
      { [TSCONFIG_FILE]: " ".repeat(1024 * 1024 + 1) },
      /tsconfig\.json: error: \(root\): is 1048577 bytes; mcpgen init reads at most 1048576/,
    ],
    [
      {
        [TSCONFIG_FILE]:
          '{ "compilerOptions": { "rootDir": "./lib", "outDir": "dist", "module": "nodenext", "types": ["node"] } }',
      },
      /\/compilerOptions\/rootDir: is "\.\/lib", which does not hold src\//,
    ],
    [
      {
        [TSCONFIG_FILE]:
          '{ "compilerOptions": { "rootDir": "src", "outDir": "dist", "module": "nodenext", "types": ["node"] }, "exclude": ["src/mcp"] }',
      },
      /\/exclude: leaves out src\/mcp\/server\.ts, which the starter needs compiled/,
    ],
    [
      { "src/mcp/server.ts": "// mine\n", "src/mcp/server.js": "" },
      /src\/mcp: error: \(root\): mcpgen generate would refuse to replace this folder: 2 files in it are not written by mcpgen generate:\n {4}server\.js\n {4}server\.ts\n {2}1 of them is TypeScript compiler output, .* rm src\/mcp\/\*\.js\n {2}Move the other 1 out of src\/mcp/,
    ],
  ];
  for (const [files, pattern] of cases) {
    withTempDir((dir) => {
      writeFiles(dir, { "package.json": '{ "name": "x", "type": "module" }', ...files });
      const e = refusal(dir, { yes: true });
      assert.instance(e, InputError);
      assert.match(e.message, pattern);
      assert.not.match(e.message, /--yes/, "nothing --yes would do");
      assert.not.ok(existsSync(join(dir, MANIFEST_FILE)));
    });
  }
  // one run names all of them, the changes --yes would make among them
  withTempDir((dir) => {
    writeFiles(dir, {
      "package.json": NPM_INIT_Y,
      "index.ts": "",
      [STDIO_ENTRY]: "",
      [TSCONFIG_FILE]: '{ "compilerOptions": { "rootDir": "./lib" } }',
    });
    const e = refusal(dir);
    assert.match(
      e.message,
      /^init: nothing was written \(6 problems\):\n  package\.json: error: \/type: .*\n  tsconfig\.json:1:3: error: \/compilerOptions\/outDir: .*\n  tsconfig\.json:1:3: error: \/compilerOptions\/module: .*\n  tsconfig\.json:1:3: error: \/compilerOptions\/types: .*\n  src\/server\.ts: error: \(root\): already exists.*\n  tsconfig\.json:1:24: error: \/compilerOptions\/rootDir: .*\n`mcpgen init --yes` makes the changes to package\.json and tsconfig\.json itself \(tsconfig\.json keeps its comments\), not the rest; or make them yourself, then mcpgen init again$/,
    );
  });
});

test.run();
