/**
 * Real JavaScript runtimes for the host tests: workerd (through Miniflare, which starts it as a
 * child process), Bun and Deno (their npm packages' binaries). Code reaches each as one ESM file
 * bundled by esbuild with that host's export conditions, so the runtime's per-host choices (the
 * HTTP client's driver) are the ones a user's bundler makes. Everything is offline, on 127.0.0.1,
 * bounded in time, and stopped by the caller in `finally`.
 */
import { build } from "esbuild";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers.js";
import { compatibilityDate } from "../../generator/init-targets.js";
import { background, run, type Background, type RunResult } from "../conformance/procs.js";
import { WORKERD_CONDITIONS, WRANGLER_OPTIONS, nodeBuiltins, nodeReach } from "../../bench/like-wrangler.js";

export type Host = "workerd" | "bun" | "deno";
export const HOSTS: readonly Host[] = ["workerd", "bun", "deno"];

const bin = (name: string): string => join(repoRoot, "node_modules", ".bin", name);

/** The export conditions each host's bundler resolves with (wrangler's for workerd). */
const CONDITIONS: Record<Host, string[]> = { workerd: [...WORKERD_CONDITIONS], bun: ["bun"], deno: ["deno"] };

/**
 * The HTTP client's driver files by host, under either name: the hosts that bundle get the runtime
 * per module (dist/esm/http-client/default-driver-*.js), Node the bundled chunks (chunks/http-driver-*.js).
 */
export const WEB_DRIVER = /(http-driver-web|\/http-client\/default-driver-web)\.js$/;
export const NODE_DRIVER = /(http-driver-node|\/http-client\/default-driver-node)\.js$/;

export interface HostBundle {
  code: string;
  /** Bundled input files (repository-relative). */
  inputs: string[];
}

/**
 * One ESM file for `host` from `source` (resolved from the repository root). For workerd it is
 * made as wrangler makes a Worker (bench/like-wrangler.ts) and nothing of Node may reach it: an
 * import of a Node builtin or a read of a Node global fails it, each named.
 */
export async function bundleFor(
  host: Host,
  source: string,
  o: { minify?: boolean; external?: readonly string[] } = {},
): Promise<HostBundle> {
  const builtins: string[] = [];
  const r = await build({
    ...(host === "workerd"
      ? WRANGLER_OPTIONS
      : { bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], target: "es2022" }),
    stdin: { contents: source, resolveDir: repoRoot, sourcefile: `${host}-entry.js` },
    write: false,
    conditions: CONDITIONS[host],
    external: [...(host === "workerd" ? [] : ["node:*"]), ...(o.external ?? [])],
    plugins: host === "workerd" ? [nodeBuiltins(builtins, repoRoot)] : [],
    minify: o.minify ?? false,
    metafile: true,
    logLevel: "silent",
  });
  const code = r.outputFiles[0]!.text;
  if (host === "workerd") {
    const reach = await nodeReach(code, builtins);
    if (reach.length > 0) throw new Error(`Node reaches the workerd bundle: ${reach.join("; ")}`);
  }
  return { code, inputs: Object.keys(r.metafile.inputs) };
}

/** The compatibility date of the installed workerd (the one `mcpgen init --target workers` writes). */
export function workerdCompatibilityDate(): string {
  return compatibilityDate(repoRoot).date;
}

export interface Served {
  url: URL;
  stop(): Promise<void>;
}

/** A Worker module (`export default { fetch }`) served by workerd on 127.0.0.1, persistence in `persistDir`. */
export async function serveWorker(code: string, persistDir: string, timeoutMs = 30_000): Promise<Served> {
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: workerdCompatibilityDate(),
    host: "127.0.0.1",
    port: 0,
    defaultPersistRoot: persistDir,
    // No Request.cf: Miniflare would fetch it from workers.cloudflare.com (the tests are offline).
    cf: false,
    verbose: false,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      mf.ready,
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`workerd did not start within ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]);
    return { url, stop: () => mf.dispose() };
  } catch (e) {
    await mf.dispose().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Makes `dir` a place a Bun or Deno bundle with external npm packages runs from, as a user's
 * project is: a package.json (Deno reads node_modules only where one is) and the repository's
 * node_modules.
 */
export function npmProjectDir(dir: string): void {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }) + "\n");
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
}

/** The command line that runs `file` on a host with a process (Deno: network to 127.0.0.1 only, nothing fetched). */
function commandFor(
  host: "bun" | "deno",
  file: string,
  denoDir: string,
  args: readonly string[] = [],
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const env = { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  if (host === "bun") return { command: bin("bun"), args: ["run", file, ...args], env };
  return {
    command: bin("deno"),
    args: ["run", "--no-remote", "--cached-only", "--no-prompt", "--allow-net=127.0.0.1", "--allow-env", file, ...args],
    env,
  };
}

/** Runs `file` on Bun or Deno to its end (bounded). */
export function runOn(
  host: "bun" | "deno",
  file: string,
  denoDir: string,
  timeoutMs = 60_000,
  args: readonly string[] = [],
): Promise<RunResult> {
  const c = commandFor(host, file, denoDir, args);
  return run(c.command, c.args, { env: c.env, timeoutMs });
}

/** Starts `file` on Bun or Deno and waits (bounded) for it to print `listening on <url>`. */
export async function serveOn(
  host: "bun" | "deno",
  file: string,
  denoDir: string,
  timeoutMs = 30_000,
  args: readonly string[] = [],
): Promise<Served & { proc: Background }> {
  const c = commandFor(host, file, denoDir, args);
  const proc = background(c.command, c.args, { env: c.env });
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = /listening on (http:\/\/\S+)/.exec(proc.tail());
    if (m) return { url: new URL(m[1]!), proc, stop: async () => void (await proc.stop(3000)) };
    const gone = proc.exited();
    if (gone !== undefined || Date.now() > until) {
      await proc.stop(1000);
      throw new Error(`${host} did not start: ${gone ?? `no "listening on" within ${timeoutMs} ms`}\n${proc.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
