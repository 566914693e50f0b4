/**
 * What a minimal server costs to ship: one `add` tool over stdio, bundled with esbuild (ESM,
 * minified, node platform) and gzipped, as mcpgen generates it and as SDK v1 writes it.
 *   npm run build && node dist/bench/bundle.js
 * mcpgen's server is generated here from a one-tool manifest, once with every bundled revision
 * (the default) and once with a single revision (how a project drops revisions from a bundle).
 * The generated server's bindings import each revision's method table (`/server-side/table`) and,
 * one entry each, the validators of the methods its manifest serves (`/server-side/params/<method>`),
 * so the bundle carries neither the client's validators nor those of features it does not serve.
 * With code splitting, each method validator (and each group of definitions several methods share)
 * is a chunk of its own, loaded when a connection first needs it. "start" and "session" are
 * measured by running the split bundle (a module hook records every file Node loads): "start" is
 * what a server loads with no connection (its stdin closed at once), "session" what it loads over
 * a 2025-11-25 session of initialize, notifications/initialized, tools/list and tools/call;
 * "total" is every chunk.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { WRANGLER_OPTIONS, nodeBuiltins, nodeReach } from "./like-wrangler.js";
import { generate } from "../generator/generate.js";
import { bundledRevisions } from "../generator/load/schema-manifest.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const work = join(tmpdir(), `mcpgen-bundle-${process.pid}`);

const manifest = (revisions: string[]) => ({
  name: "add",
  version: "1.0.0",
  revisions,
  // The tool asks the client nothing: its server is given no code that gathers client input.
  clientRequests: [],
  tools: [
    {
      name: "add",
      description: "Add two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
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

const MCPGEN_WORKER = `import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createAddServer } from "./mcp/server.js";
const handler = createFetchHandler(createAddServer({ tools: { add: ({ a, b }) => String(a + b) } }));
export default { fetch: (request) => handler(request) };
`;

/** SDK v1's and v2's web-standard transport the way their docs serve a Worker: stateless, a server and transport per request. */
const sdkWorker = (server: string, transport: string) => `import { McpServer } from "${server}";
import { WebStandardStreamableHTTPServerTransport } from "${transport}";
import * as z from "zod";
export default {
  async fetch(request) {
    const server = new McpServer({ name: "add", version: "1.0.0" });
    server.registerTool("add", { description: "Add two numbers", inputSchema: ${server.includes("/sdk/") ? "{ a: z.number(), b: z.number() }" : "z.object({ a: z.number(), b: z.number() })"} }, async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(request);
  },
};
`;
const SDK1_WORKER = sdkWorker(
  "@modelcontextprotocol/sdk/server/mcp.js",
  "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
);
const SDK2_WORKER = sdkWorker("@modelcontextprotocol/server", "@modelcontextprotocol/server");

export interface Size {
  /** One file, no splitting: gzipped bytes (dynamic imports are inlined, evaluated on first use). */
  single: number;
  /** With splitting: gzipped bytes of the chunks a server loads with no connection. */
  start: number;
  /** With splitting: gzipped bytes of the chunks loaded over a 2025-11-25 session of initialize, tools/list and tools/call. */
  session: number;
  /** With splitting: gzipped bytes of every chunk. */
  total: number;
  chunks: number;
}

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/**
 * Bundles `dir`/`entry` into `outdir` as a user would (esbuild, ESM, minified, node20, packages
 * from this repository's node_modules); the metafile says which modules went in.
 */
export async function bundleAsUser(dir: string, entry: string, outdir: string, splitting: boolean): Promise<Metafile> {
  const result = await build({
    entryPoints: [join(dir, entry)],
    bundle: true,
    minify: true,
    splitting,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir,
    metafile: true,
    logLevel: "error",
    absWorkingDir: dir,
    nodePaths: [join(root, "node_modules")],
  });
  return result.metafile as Metafile;
}

async function esbuild(
  dir: string,
  entry: string,
  splitting: boolean,
): Promise<{ outputs: Metafile["outputs"]; entry: string }> {
  const { outputs } = await bundleAsUser(dir, entry, join(dir, splitting ? "split" : "single"), splitting);
  return { outputs, entry: Object.keys(outputs).find((k) => outputs[k]!.entryPoint === entry)! };
}

/**
 * Registered with `--import` in the measured process: a module hook that appends the URL of every
 * file Node loads to the file named by MCPGEN_BUNDLE_LOG (hooks run off the main thread).
 */
const HOOKS = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(process.env.MCPGEN_BUNDLE_LOG, url + "\\n");
  return next(url, context);
}`;
const REGISTER = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

const SESSION_REVISION = "2025-11-25";
const SESSION_METHODS = ["initialize", "notifications/initialized", "tools/list", "tools/call"];
const SESSION: unknown[] = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: SESSION_REVISION, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
];

/**
 * Runs `main` (a split bundle's entry), sends `messages` over stdin (the next one once every
 * request so far is answered), closes stdin and returns the files Node loaded. Bounded: killed
 * after 20 s.
 */
async function loadedFiles(main: string, log: string, messages: unknown[]): Promise<Set<string>> {
  rmSync(log, { force: true });
  const child = spawn(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, main], {
    env: { ...process.env, MCPGEN_BUNDLE_LOG: log },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const answered = new Set<unknown>();
  let waiting: (() => void) | undefined;
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (id !== undefined) answered.add(id);
      waiting?.();
    }
  });
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  for (const m of messages) {
    child.stdin!.write(`${JSON.stringify(m)}\n`);
    const id = (m as { id?: unknown }).id;
    if (id === undefined) continue;
    while (!answered.has(id)) {
      const woken = new Promise<void>((wake) => (waiting = wake));
      if ((await Promise.race([woken.then(() => "data"), exited.then(() => "exit")])) === "exit") break;
    }
    if (!answered.has(id)) throw new Error(`${main}: no answer to ${JSON.stringify(m)}`);
  }
  child.stdin!.end();
  const code = await exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${main} exited with ${code}`);
  if (!existsSync(log)) throw new Error(`${main}: the module hook logged nothing`);
  return new Set(
    readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((u) => fileURLToPath(u)),
  );
}

async function bundle(dir: string, entry: string): Promise<Size> {
  const single = await esbuild(dir, entry, false);
  const split = await esbuild(dir, entry, true);
  const js = Object.keys(split.outputs).filter((k) => k.endsWith(".js"));
  const main = join(dir, split.entry);
  const chunksOf = (loaded: Set<string>) => js.filter((k) => loaded.has(join(dir, k)));
  const start = chunksOf(await loadedFiles(main, join(dir, "start.log"), []));
  const session = chunksOf(await loadedFiles(main, join(dir, "session.log"), SESSION));
  if (!start.includes(split.entry)) throw new Error(`${main} was not seen loading`);
  const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(join(dir, f)), 0);
  return {
    single: gz(join(dir, single.entry)),
    start: sum(start),
    session: sum(session),
    total: sum(js),
    chunks: js.length,
  };
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

/**
 * `dir`/`entry` as one Worker module, the way wrangler bundles one (like-wrangler.ts), minified;
 * `nodeCompat` leaves Node to the host (wrangler's nodejs_compat), which the SDKs need and mcpgen
 * must not: without it, a Node builtin imported or a Node global read fails the build. Gzipped
 * bytes and inputs.
 */
async function workerBundle(
  dir: string,
  entry: string,
  nodeCompat: boolean,
): Promise<{ gzip: number; inputs: string[] }> {
  const outfile = join(dir, "worker", "index.js");
  const builtins: string[] = [];
  const result = await build({
    ...WRANGLER_OPTIONS,
    entryPoints: [join(dir, entry)],
    minify: true,
    external: nodeCompat ? ["node:*"] : [],
    plugins: nodeCompat ? [] : [nodeBuiltins(builtins, dir)],
    outfile,
    metafile: true,
    logLevel: "error",
    absWorkingDir: dir,
    nodePaths: [join(root, "node_modules")],
  });
  if (!nodeCompat) {
    const reach = await nodeReach(readFileSync(outfile, "utf8"), builtins);
    if (reach.length > 0) throw new Error(`Node reaches the Worker bundle of ${entry}: ${reach.join("; ")}`);
  }
  // What has bytes in the bundle: esbuild also parses the modules an unused import names, then drops them.
  const out = Object.values(result.metafile!.outputs).find((o) => o.entryPoint !== undefined)!;
  return { gzip: gz(outfile), inputs: Object.keys(out.inputs).filter((f) => out.inputs[f]!.bytesInOutput > 0) };
}

export interface WorkerSizes {
  /** mcpgen, a one-tool server that speaks only 2026-07-28, behind createFetchHandler. */
  modern: number;
  /** The files with bytes in that bundle (the runtime's modules among them). */
  modernInputs: string[];
  /** The same server with every bundled revision, and its inputs. */
  all: number;
  allInputs: string[];
  sdk1: number;
  sdk2: number;
}

/** The Worker bundles of the one-tool server: mcpgen (2026-07-28 only, and every revision), SDK v1, SDK v2. */
export async function measureWorkerBundles(): Promise<WorkerSizes> {
  try {
    const server = async (name: string, revisions: string[]) => {
      const dir = join(work, `worker-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest(revisions), null, 2));
      // as `mcpgen init --target workers` configures it: the generated parts imported statically
      await generate({
        cwd: dir,
        manifest: join(dir, "mcp.manifest.json"),
        out: join(dir, "mcp"),
        target: "workers",
        cache: false,
      });
      writeFileSync(join(dir, "worker.ts"), MCPGEN_WORKER);
      return workerBundle(dir, "worker.ts", false);
    };
    const sdk = async (name: string, source: string) => {
      const dir = join(work, `worker-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "worker.ts"), source);
      return (await workerBundle(dir, "worker.ts", true)).gzip;
    };
    const modern = await server("modern", ["2026-07-28"]);
    const all = await server("all", bundledRevisions());
    return {
      modern: modern.gzip,
      modernInputs: modern.inputs,
      all: all.gzip,
      allInputs: all.inputs,
      sdk1: await sdk("sdk1", SDK1_WORKER),
      sdk2: await sdk("sdk2", SDK2_WORKER),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function printWorkerBundles(w: WorkerSizes): void {
  console.log(
    "one-tool server as a Cloudflare Worker, esbuild (ESM, minified, workerd conditions) + gzip -9; ratios to SDK v1",
  );
  const rows: [string, number][] = [
    ["SDK v1 (WebStandardStreamableHTTPServerTransport)", w.sdk1],
    ["SDK v2 (WebStandardStreamableHTTPServerTransport)", w.sdk2],
    ["mcpgen createFetchHandler, every revision", w.all],
    ["mcpgen createFetchHandler, 2026-07-28 only", w.modern],
  ];
  for (const [label, n] of rows) console.log(`${label.padEnd(52)}  ${kb(n).padStart(9)}  1/${(w.sdk1 / n).toFixed(1)}`);
}

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
    return {
      sdk1: await sdk1Server(),
      all: await mcpgenServer("all", all),
      revisions: all.length,
      one: await mcpgenServer("one", ["2025-11-25"]),
    };
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
  console.log(
    `${"server".padEnd(44)}  ${"one file".padStart(9)}  ${"ratio".padStart(6)}  ${"split: start".padStart(12)}  ${"ratio".padStart(6)}  ${"session".padStart(9)}  ${"ratio".padStart(6)}  ${"all chunks".padStart(10)}  ${"chunks".padStart(6)}`,
  );
  for (const [label, s] of rows) {
    console.log(
      `${label.padEnd(44)}  ${kb(s.single).padStart(9)}  ${ratio(s.single).padStart(6)}  ${kb(s.start).padStart(12)}  ${ratio(s.start).padStart(6)}  ${kb(s.session).padStart(9)}  ${ratio(s.session).padStart(6)}  ${kb(s.total).padStart(10)}  ${String(s.chunks).padStart(6)}`,
    );
  }
  console.log(
    `"start": chunks a server loads with no connection; "session": chunks it loads over a ${SESSION_REVISION} session of ${SESSION_METHODS.join(", ")} (measured by running the split bundle)`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  printBundles(await measureBundles());
  printWorkerBundles(await measureWorkerBundles());
}
