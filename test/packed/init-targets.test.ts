// `mcpgen init --target workers|bun|deno`, the user's path: both packages packed with `npm pack`
// and installed from the tarballs (and the local npm cache) into a directory outside the
// repository, init, `npm run build`, `npm start` with PORT set, and the official SDK v2 client
// lists and calls the starter's tool at http://127.0.0.1:$PORT/mcp. wrangler, bun and deno come
// from the repository's dev dependencies on PATH rather than from an install per project
// (wrangler brings a 100 MB workerd); everything runs offline. Skipped only where `npm pack`
// cannot run; CI always runs it.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { repoRoot } from "../helpers.js";
import { background, freePort, killAll, waitForPort } from "../conformance/procs.js";

/** A user's shell: none of the npm_* variables of an enclosing `npm test`, the runtimes' binaries on PATH, nothing phoned home. */
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^npm_(config|package|lifecycle)_/i.test(k) || /^npm_config_(cache|registry|userconfig)$/i.test(k),
    ),
  ),
  PATH: `${process.env.PATH}${delimiter}${join(repoRoot, "node_modules", ".bin")}`,
  WRANGLER_SEND_METRICS: "false",
  DENO_NO_UPDATE_CHECK: "1",
  NO_COLOR: "1",
};

function run(cwd: string, command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000, env });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.is(r.status, 0, `${what} failed (${r.error?.message ?? `exit ${r.status}`})\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const npmWorks = spawnSync("npm", ["--version"], { encoding: "utf8", env }).status === 0;
const version = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
const install = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=warn"];

let base = "";
let tarballs: string[] = [];

test.before(() => {
  if (!npmWorks) return;
  base = realpathSync(mkdtempSync(join(tmpdir(), "mcpgen-init-targets-")));
  const packs = join(base, "packs");
  mkdirSync(packs);
  for (const dir of [repoRoot, join(repoRoot, "runtime")])
    ok(
      run(dir, "npm", ["pack", "--ignore-scripts", "--loglevel=warn", "--pack-destination", packs]),
      `npm pack in ${dir}`,
    );
  tarballs = readdirSync(packs)
    .sort()
    .map((f) => join(packs, f));
});

test.after(() => {
  killAll();
  if (base) rmSync(base, { recursive: true, force: true });
});

for (const target of ["workers", "bun", "deno"] as const) {
  test(`init --target ${target}: install the packed packages, init, build, npm start serves 127.0.0.1:$PORT/mcp to the SDK v2 client`, async () => {
    if (!npmWorks) {
      console.log("skipped: npm is not available, so the packages cannot be packed");
      return;
    }
    const app = join(base, target);
    mkdirSync(app);
    ok(
      run(app, "npm", [
        "i",
        "-D",
        ...install,
        tarballs[0]!,
        `typescript@${version(join(repoRoot, "node_modules", "typescript"))}`,
        // A Worker compiles with the web platform's types alone; Bun and Deno's stdio entry uses `process`.
        ...(target === "workers" ? [] : [`@types/node@${version(join(repoRoot, "node_modules", "@types", "node"))}`]),
      ]),
      "npm i -D mcpgen",
    );
    const init = ok(
      run(app, join(app, "node_modules", ".bin", "mcpgen"), ["init", "--name", "app", "--target", target]),
      `mcpgen init --target ${target}`,
    );
    assert.match(
      init,
      new RegExp(
        `next:\\n  npm i @mcpgen/runtime@\\^\\S+\\n  npm i -D ${target === "workers" ? "wrangler" : target}\\n`,
      ),
    );
    assert.match(readFileSync(join(app, "README.md"), "utf8"), /## Deploy/);
    ok(run(app, "npm", ["i", ...install, tarballs[1]!]), "npm i @mcpgen/runtime");
    ok(run(app, "npm", ["run", "build"]), "npm run build");

    const port = await freePort();
    const server = background("npm", ["start"], {
      cwd: app,
      env: { ...env, PORT: String(port), XDG_CONFIG_HOME: join(app, ".config"), DENO_DIR: join(app, ".deno") },
    });
    try {
      const notReady = await waitForPort(port, 60_000, server.exited);
      assert.is(notReady, undefined, `npm start: ${notReady}\n${server.tail()}`);
      const client = new Client({ name: "init-targets", version: "1.0.0" }, {
        versionNegotiation: { mode: "auto" },
      } as never);
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      try {
        assert.is(client.getServerVersion()?.name, "app");
        const { tools } = await client.listTools();
        assert.equal(
          tools.map((t) => t.name),
          ["echo"],
        );
        const called: any = await client.callTool({ name: "echo", arguments: { message: "hi", times: 2 } });
        assert.equal(called.structuredContent, { echoed: "hi hi", length: 5 });
      } finally {
        await client.close();
      }
    } finally {
      await server.stop(5000);
    }
  });
}

test.run();
