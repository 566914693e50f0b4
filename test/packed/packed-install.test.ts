// The README's user path, executed: both packages packed with `npm pack`, installed from the
// tarballs (and the local npm cache) into a directory outside the repository, `mcpgen init`,
// `npm run build` (generate + TypeScript 7 under `tsc --init` defaults), the same sources built
// with TypeScript 5.9, then the starter served over stdio and over Streamable HTTP and driven by
// the official SDK client. A second project takes the path of someone with a TypeScript project
// already: `npm init -y`, `npx tsc --init`, then `mcpgen init --yes`, build, serve. Skipped only
// where `npm pack` cannot run; CI always runs it.
// MCPGEN_PACKED_TRANSCRIPT=<file> writes every command with its output there.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { repoRoot } from "../helpers.js";

const transcriptFile = process.env.MCPGEN_PACKED_TRANSCRIPT;
const log = (text: string) => {
  if (transcriptFile) appendFileSync(transcriptFile, text.endsWith("\n") ? text : text + "\n");
};

/** The environment of a user's shell: none of the npm_* variables of an enclosing `npm test`. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !/^npm_(config|package|lifecycle)_/i.test(k) || /^npm_config_(cache|registry|userconfig)$/i.test(k),
  ),
);

function run(
  cwd: string,
  command: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): SpawnSyncReturns<string> {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000, env: { ...env, ...extraEnv } });
  log(
    `$ ${[command === process.execPath ? "node" : command, ...args].join(" ")}    # ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${r.status}\n${r.stdout ?? ""}${r.stderr ?? ""}`,
  );
  return r;
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.is(r.status, 0, `${what} failed (${r.error?.message ?? `exit ${r.status}`})\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const npmWorks = spawnSync("npm", ["--version"], { encoding: "utf8", env }).status === 0;
const version = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;

/** Connects the SDK client, then checks the starter's tool and prompt. */
async function driveStarter(
  label: string,
  client: Client,
  transport: Parameters<Client["connect"]>[0],
  name = "app",
): Promise<void> {
  await client.connect(transport);
  log(`# SDK client over ${label}: connected to ${JSON.stringify(client.getServerVersion())}`);
  try {
    assert.is(client.getServerVersion()?.name, name);
    const tools = await client.listTools();
    assert.equal(
      tools.tools.map((t) => t.name),
      ["echo"],
    );
    const called = await client.callTool({ name: "echo", arguments: { message: "hi", times: 2 } });
    assert.equal(called.structuredContent, { echoed: "hi hi", length: 5 });
    const invalid = await client.callTool({ name: "echo", arguments: { times: 2 } });
    assert.is(invalid.isError, true, "arguments are validated against the inputSchema");
    const prompt = await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    assert.equal(prompt.messages[0]?.content, { type: "text", text: "Please greet Ada warmly." });
    log(
      `#   tools/list: ${tools.tools.map((t) => t.name).join(", ")}; tools/call echo -> ${JSON.stringify(called.structuredContent)}; invalid arguments -> isError; prompts/get greet -> ${JSON.stringify(prompt.messages[0]?.content)}`,
    );
  } finally {
    await client.close();
  }
}

/** Both packages packed once, into `packs` under `base`, for every test. */
let base = "";
let packs = "";
let tarballs: string[] = [];
const install = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=warn"];
const tsVersion = version(join(repoRoot, "node_modules", "typescript"));
const typesNode = version(join(repoRoot, "node_modules", "@types", "node"));

test.before(() => {
  if (!npmWorks) return;
  base = realpathSync(mkdtempSync(join(tmpdir(), "mcpgen-packed-")));
  packs = join(base, "packs");
  mkdirSync(packs);
  for (const dir of [repoRoot, join(repoRoot, "runtime")])
    ok(
      run(dir, "npm", ["pack", "--ignore-scripts", "--loglevel=warn", "--pack-destination", packs]),
      `npm pack in ${dir}`,
    );
  tarballs = readdirSync(packs).sort();
  assert.equal(tarballs, [
    `mcpgen-${version(repoRoot)}.tgz`,
    `mcpgen-runtime-${version(join(repoRoot, "runtime"))}.tgz`,
  ]);
});

test.after(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

test("packed install: npm pack, install outside the repo, init, build on TypeScript 7 and 5.9, serve stdio and HTTP to the SDK client", async () => {
  if (!npmWorks) {
    console.log("skipped: npm is not available, so the packages cannot be packed");
    return;
  }
  let http: ReturnType<typeof spawn> | undefined;
  try {
    const started = Date.now();
    const app = join(base, "app");

    // the README's path: install mcpgen, init, install what init names, build, start
    mkdirSync(app);
    const dev = run(app, "npm", [
      "i",
      "-D",
      ...install,
      join(packs, tarballs[0]!),
      `typescript@${tsVersion}`,
      `@types/node@${typesNode}`,
    ]);
    ok(dev, "npm i -D mcpgen");
    assert.not.match(`${dev.stdout}${dev.stderr}`, /EBADENGINE/, "no engine warnings on this Node.js");
    const init = ok(run(app, join(app, "node_modules", ".bin", "mcpgen"), ["init", "--name", "app"]), "mcpgen init");
    assert.match(
      init,
      /created mcp\.manifest\.json[\s\S]*created tsconfig\.json[\s\S]*updated package\.json[\s\S]*next:\n  npm i @mcpgen\/runtime@\^\d/,
    );
    const runtime = run(app, "npm", ["i", ...install, join(packs, tarballs[1]!)]);
    ok(runtime, "npm i @mcpgen/runtime");
    assert.not.match(`${runtime.stdout}${runtime.stderr}`, /EBADENGINE/);

    const build = ok(run(app, "npm", ["run", "build"]), "npm run build (TypeScript 7)");
    assert.match(
      build,
      /src\/mcp: wrote \d+ files \(mcp\.manifest\.json, revision 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\)/,
    );
    // the programmatic API, with its types, through the package's exports
    writeFileSync(
      join(app, "src", "uses-api.ts"),
      'import { check, defineConfig, type GenerateOptions } from "mcpgen";\n' +
        'export const config = defineConfig({ manifest: "mcp.manifest.json", out: "src/mcp" });\n' +
        "const options: GenerateOptions = { ...config, cache: false };\n" +
        "export const result = await check(options);\n" +
        'console.log(`api check: ${result.ok ? "fresh" : result.problems.join(", ")}`);\n',
    );
    const five = run(app, process.execPath, [
      join(repoRoot, "node_modules", "typescript-5", "bin", "tsc"),
      "-p",
      ".",
      "--outDir",
      "dist-ts5",
    ]);
    ok(five, "tsc 5.9 under the same tsconfig");
    assert.match(
      ok(run(app, process.execPath, ["dist-ts5/uses-api.js"]), "the API from the installed package"),
      /^api check: fresh$/m,
    );
    ok(run(app, join(app, "node_modules", ".bin", "mcpgen"), ["check"]), "mcpgen check");
    const maintainer = run(app, join(app, "node_modules", ".bin", "mcpgen"), ["check-bundled"]);
    assert.is(maintainer.status, 2, "the maintainer command refuses to run on an installed mcpgen");
    assert.match(maintainer.stderr, /maintainer command .* is an installed package/);
    run(app, "du", ["-sk", "node_modules"]);

    // stdio: the MCP client starts the server the way `npm start` does
    await driveStarter(
      "stdio",
      new Client({ name: "packed-test", version: "1.0.0" }),
      new StdioClientTransport({ command: process.execPath, args: ["dist/server.js"], cwd: app, stderr: "pipe" }),
    );

    // Streamable HTTP: `npm run start:http` with PORT=0 prints the endpoint it listens on
    http = spawn(process.execPath, ["dist/http.js"], {
      cwd: app,
      env: { ...env, PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no endpoint printed within 15 s: ${stderr}`)), 15_000);
      http!.stderr!.on("data", (d: Buffer) => {
        stderr += d.toString();
        const m = /serving MCP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(new URL(m[1]!));
        }
      });
      http!.on(
        "exit",
        (code) => (clearTimeout(timer), reject(new Error(`dist/http.js exited with ${code}: ${stderr}`))),
      );
    });
    log(`$ PORT=0 node dist/http.js\n${stderr}`);
    await driveStarter(
      "Streamable HTTP",
      new Client({ name: "packed-test", version: "1.0.0" }),
      new StreamableHTTPClientTransport(url),
    );
    log(
      `# packed-install test: ${((Date.now() - started) / 1000).toFixed(1)} s in ${relative(tmpdir(), base)} (under ${tmpdir()})`,
    );
  } finally {
    if (http && http.exitCode === null) http.kill("SIGKILL");
  }
});

test("packed install in a TypeScript project: npm init -y, npx tsc --init, mcpgen init lists the tsconfig changes, --yes makes them, build, serve stdio to the SDK client", async () => {
  if (!npmWorks) {
    console.log("skipped: npm is not available, so the packages cannot be packed");
    return;
  }
  const started = Date.now();
  const app = join(base, "existing");
  mkdirSync(app);
  ok(run(app, "npm", ["init", "-y"]), "npm init -y");
  ok(
    run(app, "npm", [
      "i",
      "-D",
      ...install,
      join(packs, tarballs[0]!),
      `typescript@${tsVersion}`,
      `@types/node@${typesNode}`,
    ]),
    "npm i -D mcpgen typescript @types/node",
  );
  ok(run(app, "npx", ["tsc", "--init"]), "npx tsc --init");
  const tsconfig = readFileSync(join(app, "tsconfig.json"), "utf8");
  const mcpgen = join(app, "node_modules", ".bin", "mcpgen");
  const listed = run(app, mcpgen, ["init"]);
  assert.is(listed.status, 1, `mcpgen init lists what it would change\n${listed.stdout}${listed.stderr}`);
  for (const option of ["rootDir", "outDir", "types"])
    assert.match(listed.stderr, new RegExp(`tsconfig\\.json:\\d+:\\d+: error: /compilerOptions/${option}: `));
  assert.is(readFileSync(join(app, "tsconfig.json"), "utf8"), tsconfig, "and changes nothing");
  const init = ok(run(app, mcpgen, ["init", "--yes"]), "mcpgen init --yes");
  assert.match(
    init,
    /^updated tsconfig\.json \(set "rootDir": "\.\/src", "outDir": "\.\/dist", "types": \["node"\]\)$/m,
  );
  ok(run(app, "npm", ["i", ...install, join(packs, tarballs[1]!)]), "npm i @mcpgen/runtime");
  ok(run(app, "npm", ["run", "build"]), "npm run build");
  assert.equal(
    readdirSync(join(app, "src", "mcp")).filter((f) => /\.(js|map)$|\.d\.ts$/.test(f)),
    [],
    "no compiler output in src/mcp",
  );
  ok(run(app, mcpgen, ["generate"]), "mcpgen generate after the build");
  await driveStarter(
    "stdio",
    new Client({ name: "packed-test", version: "1.0.0" }),
    new StdioClientTransport({ command: process.execPath, args: ["dist/server.js"], cwd: app, stderr: "pipe" }),
    "existing",
  );
  log(`# packed-install test, existing TypeScript project: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test.run();
