/**
 * What a minimal server costs to ship: one `add` tool over stdio, bundled with esbuild (ESM,
 * minified, node platform) and gzipped, as mcpgen generates it and as SDK v1 writes it.
 *   npm run build && node dist/bench/bundle.js
 * mcpgen's server is generated here from a one-tool manifest, once with every bundled revision
 * (the default) and once with a single revision (how a project drops revisions from a bundle).
 * With code splitting, each method validator (and each group of definitions several methods share)
 * is a chunk of its own, loaded when a connection first needs it: "start" is what loads before any
 * connection (entry chunk and what it imports statically), "session" that plus what a 2025-11-25
 * session of initialize, notifications/initialized, tools/list and tools/call loads (the server
 * validates what it receives: those methods' params), "total" every chunk.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import type { ValidatorLoaders } from "@mcpgen/runtime/abi";
import { generate } from "../generator/generate.js";
import { bundledRevisions } from "../generator/load/schema-manifest.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const work = join(tmpdir(), `mcpgen-bundle-${process.pid}`);

const manifest = (revisions: string[]) => ({
  name: "add",
  version: "1.0.0",
  revisions,
  tools: [
    {
      name: "add",
      description: "Add two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    },
  ],
});

const MCPGEN_ENTRY = `import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createAddServer } from "./mcp/server.js";
const server = createAddServer({ tools: { add: ({ a, b }) => String(a + b) } });
await server.connect(new StdioServerTransport());
`;

const SDK1_ENTRY = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";
const server = new McpServer({ name: "add", version: "1.0.0" });
server.registerTool("add", { description: "Add two numbers", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
await server.connect(new StdioServerTransport());
`;

export interface Size {
  /** One file, no splitting: gzipped bytes (dynamic imports are inlined, evaluated on first use). */
  single: number;
  /** With splitting: gzipped bytes of the chunks loaded before any connection (all but the validator chunks). */
  start: number;
  /** With splitting: `start` plus the chunks a 2025-11-25 session of initialize, tools/list and tools/call loads. */
  session: number;
  /** With splitting: gzipped bytes of every chunk. */
  total: number;
  chunks: number;
}

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

async function esbuild(dir: string, entry: string, splitting: boolean): Promise<{ outputs: Metafile["outputs"]; entry: string }> {
  const result = await build({
    entryPoints: [join(dir, entry)],
    bundle: true,
    minify: true,
    splitting,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: join(dir, splitting ? "split" : "single"),
    metafile: true,
    logLevel: "error",
    absWorkingDir: dir,
    nodePaths: [join(root, "node_modules")],
  });
  const outputs = (result.metafile as Metafile).outputs;
  return { outputs, entry: Object.keys(outputs).find((k) => outputs[k]!.entryPoint === entry)! };
}

async function bundle(dir: string, entry: string): Promise<Size> {
  const single = await esbuild(dir, entry, false);
  const split = await esbuild(dir, entry, true);
  const outputs = split.outputs;
  // Loaded before any connection: the entry chunk and what it imports, statically or at top level
  // (the revisions' method tables), but not the validator chunks a connection loads on first use.
  const lazy = (k: string) => Object.keys(outputs[k]!.inputs).some((i) => /\/protocol\/[^/]+\/validators\//.test(i));
  const closure = (roots: string[], into: Set<string>) => {
    const visit = (k: string, root: boolean) => {
      if (into.has(k) || (!root && lazy(k))) return;
      into.add(k);
      for (const i of outputs[k]!.imports) if (i.kind !== "dynamic-import" && outputs[i.path] !== undefined) visit(i.path, false);
    };
    for (const r of roots) visit(r, true);
    return into;
  };
  const start = closure([split.entry], new Set());
  // The modules a server's session loads: the params validators of what it receives.
  const { validators } = (await import(`@mcpgen/runtime/protocol/${SESSION_REVISION}/methods`)) as { validators: ValidatorLoaders };
  const modules = SESSION_METHODS.map((m) => {
    // The shipped runtime is bundled: a loader imports a chunk file (its path relative to
    // the importing chunk, so only the file name is compared).
    const found = /import\("\.\.?\/(?:[^"]*\/)?([^"/]+\.js)"\)/.exec(String(validators.params[m]));
    if (found === null) throw new Error(`no params loader of ${m} in ${SESSION_REVISION}'s loaders`);
    return `/${found[1]}`;
  });
  const sessionRoots = Object.keys(outputs).filter((k) => Object.keys(outputs[k]!.inputs).some((i) => modules.some((m) => i.endsWith(m))));
  const session = closure(sessionRoots, new Set(start));
  const js = Object.keys(outputs).filter((k) => k.endsWith(".js"));
  const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(join(dir, f)), 0);
  return { single: gz(join(dir, single.entry)), start: sum(start), session: sum(session), total: sum(js), chunks: js.length };
}

async function mcpgenServer(name: string, revisions: string[]): Promise<Size> {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest(revisions), null, 2));
  await generate({ cwd: dir, manifest: join(dir, "mcp.manifest.json"), out: join(dir, "mcp"), cache: false });
  writeFileSync(join(dir, "main.ts"), MCPGEN_ENTRY);
  return bundle(dir, "main.ts");
}

async function sdk1Server(): Promise<Size> {
  const dir = join(work, "sdk1");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.ts"), SDK1_ENTRY);
  return bundle(dir, "main.ts");
}

const SESSION_REVISION = "2025-11-25";
const SESSION_METHODS = ["initialize", "notifications/initialized", "tools/list", "tools/call"];

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;

export interface BundleSizes {
  sdk1: Size;
  /** mcpgen with every bundled revision (the default). */
  all: Size;
  revisions: number;
  /** mcpgen with 2025-11-25 only. */
  one: Size;
}

/** Bundles the three servers in a scratch folder (removed afterwards); a few seconds. */
export async function measureBundles(): Promise<BundleSizes> {
  try {
    const all = bundledRevisions();
    return { sdk1: await sdk1Server(), all: await mcpgenServer("all", all), revisions: all.length, one: await mcpgenServer("one", ["2025-11-25"]) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function printBundles(b: BundleSizes): void {
  const rows: [string, Size][] = [
    ["SDK v1 (@modelcontextprotocol/sdk)", b.sdk1],
    [`mcpgen, ${b.revisions} revisions (default)`, b.all],
    ["mcpgen, 2025-11-25 only", b.one],
  ];
  const sdk = b.sdk1.single;
  const ratio = (n: number) => `1/${(sdk / n).toFixed(1)}`;
  console.log("minimal one-tool stdio server, esbuild (ESM, minified, node20) + gzip -9; ratios to SDK v1's one file");
  console.log(`${"server".padEnd(36)}  ${"one file".padStart(9)}  ${"ratio".padStart(6)}  ${"split: start".padStart(12)}  ${"ratio".padStart(6)}  ${"+ session".padStart(9)}  ${"ratio".padStart(6)}  ${"all chunks".padStart(10)}  ${"chunks".padStart(6)}`);
  for (const [label, s] of rows) {
    console.log(
      `${label.padEnd(36)}  ${kb(s.single).padStart(9)}  ${ratio(s.single).padStart(6)}  ${kb(s.start).padStart(12)}  ${ratio(s.start).padStart(6)}  ${kb(s.session).padStart(9)}  ${ratio(s.session).padStart(6)}  ${kb(s.total).padStart(10)}  ${String(s.chunks).padStart(6)}`,
    );
  }
  console.log(`"+ session": start plus the validator chunks a ${SESSION_REVISION} session of ${SESSION_METHODS.join(", ")} loads`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) printBundles(await measureBundles());
