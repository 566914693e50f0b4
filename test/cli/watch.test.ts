// `mcpgen watch` / `mcpgen generate --watch` against real file changes in a temp directory.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { listFiles } from "../../generator/write/compare.js";
import { tempDir } from "../helpers.js";
import { cliPath } from "./run-cli.js";

const manifest = (tools: string[]) =>
  JSON.stringify({
    name: "watched",
    version: "1.0.0",
    revisions: ["2025-11-25"],
    tools: tools.map((name) => ({ name, inputSchema: { type: "object", properties: { q: { type: "string" } } } })),
  });

/** A running watcher whose output is collected; `until` waits (bounded) for a pattern to appear after `from`. */
class Watcher {
  out = "";
  err = "";
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, [cliPath, ...args], {
      cwd,
      env: { ...process.env, MCPGEN_DEBUG: "", MCPGEN_CACHE_DIR: join(cwd, ".cache") },
    });
    this.child.stdout!.on("data", (d: Buffer) => (this.out += d.toString()));
    this.child.stderr!.on("data", (d: Buffer) => (this.err += d.toString()));
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }
  async until(stream: "out" | "err", pattern: RegExp, from = 0, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this[stream].slice(from);
      const m = pattern.exec(text);
      if (m) return from + m.index + m[0].length;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`timed out waiting for ${pattern} on std${stream}\nstdout:\n${this.out}\nstderr:\n${this.err}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  stop(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

const snapshot = (dir: string) =>
  Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, "g"))?.length ?? 0;

test("watch: regenerates on change, debounces bursts, reports errors without exiting, never leaves partial output", async () => {
  const { dir, cleanup } = tempDir("mcpgen-watch-");
  const manifestPath = join(dir, "mcp.manifest.json");
  writeFileSync(manifestPath, manifest(["alpha"]));
  const w = new Watcher(["watch", "--debounce", "200"], dir);
  try {
    let at = await w.until("out", /src\/mcp: wrote \d+ files \(mcp\.manifest\.json, revision 2025-11-25\)\n/);
    await w.until("out", /watching 5 input file\(s\) for changes/);
    const types = join(dir, "src", "mcp", "types.ts");
    assert.match(readFileSync(types, "utf8"), /AlphaInput/);

    // a burst of writes within the debounce window is one regeneration
    const before = count(w.out, /wrote \d+ files/);
    for (const tools of [
      ["alpha", "b1"],
      ["alpha", "b2"],
      ["alpha", "beta"],
    ])
      writeFileSync(manifestPath, manifest(tools));
    at = await w.until("out", /src\/mcp: wrote \d+ files/, at);
    await new Promise((r) => setTimeout(r, 600));
    assert.is(count(w.out, /wrote \d+ files/), before + 1, w.out);
    assert.match(readFileSync(types, "utf8"), /BetaInput/);
    assert.not.match(readFileSync(types, "utf8"), /B2Input/);

    // an invalid manifest: reported, the process keeps running, the output stays as it was
    const good = snapshot(join(dir, "src", "mcp"));
    const errAt = w.err.length;
    writeFileSync(manifestPath, '{ "name": "watched", ');
    await w.until(
      "err",
      /mcpgen: mcp\.manifest\.json[\s\S]*invalid JSON[\s\S]*previous output is unchanged; waiting for the next change\n/,
      errAt,
    );
    assert.is(w.child.exitCode, null, "still watching");
    assert.equal(snapshot(join(dir, "src", "mcp")), good);
    assert.equal(readdirSync(join(dir, "src")), ["mcp"], "no temporary directory left behind");

    // an editor-style save (write a new file, rename it over the old one) is seen too
    writeFileSync(join(dir, "mcp.manifest.json.swp"), manifest(["alpha", "gamma"]));
    renameSync(join(dir, "mcp.manifest.json.swp"), manifestPath);
    at = await w.until("out", /src\/mcp: wrote \d+ files/, at);
    assert.match(readFileSync(types, "utf8"), /GammaInput/);

    // a new config file changes what is generated
    writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify({ manifest: "mcp.manifest.json", out: "gen" }));
    await w.until("out", /gen: wrote \d+ files/, at);
    assert.match(readFileSync(join(dir, "gen", "types.ts"), "utf8"), /GammaInput/);

    w.child.kill("SIGINT");
    assert.is(await w.exited, 0);
  } finally {
    w.stop();
    cleanup();
  }
});

test("generate --watch: same loop; --with runs a companion for as long as watching goes on", async () => {
  const { dir, cleanup } = tempDir("mcpgen-watch-");
  writeFileSync(join(dir, "mcp.manifest.json"), manifest(["alpha"]));
  const companion = `node -e "console.log('companion ' + process.pid); setInterval(() => {}, 1000)"`;
  const w = new Watcher(["generate", "--watch", "--with", companion], dir);
  let pid = 0;
  try {
    await w.until("out", /src\/mcp: wrote \d+ files/);
    await w.until("out", /companion \d+\n/);
    pid = Number(/companion (\d+)\n/.exec(w.out)![1]);
    process.kill(pid, 0); // alive
    w.child.kill("SIGINT");
    assert.is(await w.exited, 0);
    let alive = true;
    for (let i = 0; i < 100 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        alive = false;
      }
    }
    assert.not.ok(alive, "the companion is stopped with the watcher");
  } finally {
    w.stop();
    try {
      if (pid) process.kill(pid, "SIGKILL");
    } catch {
      // already gone (the expected case)
    }
    cleanup();
  }
});

test("watch: a companion that exits stops the watcher with its exit code", async () => {
  const { dir, cleanup } = tempDir("mcpgen-watch-");
  writeFileSync(join(dir, "mcp.manifest.json"), manifest(["alpha"]));
  const w = new Watcher(["watch", "--with", `node -e "process.exit(3)"`], dir);
  try {
    assert.is(await w.exited, 3);
    assert.match(w.err, /exited \(code 3\); stopping/);
  } finally {
    w.stop();
    cleanup();
  }
});

test("watch --from: a change to the handlers module or a type it imports re-extracts and regenerates; a bad edit is reported and watching goes on", async () => {
  const { dir, cleanup } = tempDir("mcpgen-watch-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "codefirst", version: "1.0.0", type: "module" }));
  writeFileSync(join(dir, "src", "types.ts"), "export interface Query {\n  /** What to look for */\n  q: string;\n}\n");
  const tools = (body: string) => `import type { Query } from "./types.js";\nexport const tools = {\n${body}};\n`;
  writeFileSync(
    join(dir, "src", "tools.ts"),
    tools("  /** Find things */\n  async find(input: Query) {\n    return input.q;\n  },\n"),
  );
  const w = new Watcher(["watch", "--from", "src/tools.ts", "--debounce", "100"], dir);
  const manifestText = () => readFileSync(join(dir, "mcp.manifest.json"), "utf8");
  try {
    let at = await w.until("out", /src\/mcp: wrote \d+ files/);
    assert.match(manifestText(), /"find"/);
    // the imported module is watched too
    at = await w.until("out", /watching \d+ input file\(s\)/, 0);
    writeFileSync(
      join(dir, "src", "types.ts"),
      "export interface Query {\n  /** What to look for */\n  q: string;\n  limit?: number;\n}\n",
    );
    at = await w.until("out", /src\/mcp: wrote \d+ files/, at);
    assert.match(manifestText(), /"limit"/);
    // a type JSON cannot carry: reported, previous manifest and output kept, still watching
    writeFileSync(
      join(dir, "src", "tools.ts"),
      tools(
        '  async find(input: Query, cb: () => void) {\n    return input.q;\n  },\n  async bad(input: { f: () => void }) {\n    return "x";\n  },\n',
      ),
    );
    await w.until("err", /the previous output is unchanged/, 0);
    assert.match(manifestText(), /"limit"/);
    assert.not.match(manifestText(), /"bad"/);
    at = w.out.length;
    writeFileSync(
      join(dir, "src", "tools.ts"),
      tools(
        "  async find(input: Query) {\n    return input.q;\n  },\n  async count(input: Query) {\n    return { n: input.q.length };\n  },\n",
      ),
    );
    await w.until("out", /src\/mcp: wrote \d+ files/, at);
    assert.match(manifestText(), /"count"/);
    assert.match(readFileSync(join(dir, "src", "mcp", "types.ts"), "utf8"), /CountInput/);
  } finally {
    w.stop();
    cleanup();
  }
});

test.run();
