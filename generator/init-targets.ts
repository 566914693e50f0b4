/**
 * `mcpgen init --target`: where the starter runs. `node` is the stdio + node:http starter; the
 * others serve the same generated server through the runtime's web-standard handler
 * (`createFetchHandler` from `@mcpgen/runtime/fetch`): a Worker module and `wrangler.jsonc` for
 * Cloudflare Workers, `Bun.serve` for Bun, `Deno.serve` for Deno (both keep the stdio entry,
 * which their Node compatibility runs). Each one's `npm run build` then `npm start` serves
 * Streamable HTTP on 127.0.0.1 at the port in PORT, path /mcp, offline.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { DeployTarget } from "./config.js";
export const WORKER_ENTRY = "src/worker.ts";
export const BUN_ENTRY = "src/bun.ts";
export const DENO_ENTRY = "src/deno.ts";
export const WRANGLER_FILE = "wrangler.jsonc";
export const README_FILE = "README.md";

/**
 * The compatibility date a Worker starts with when no workerd is installed to read one from: one
 * that workerd 1.20260426 (what wrangler 4.86 runs) supports, and so every later one.
 */
export const PINNED_COMPATIBILITY_DATE = "2026-04-26";

/** The entry files of a target, besides the handlers (`[path, template]`). */
export function targetEntries(target: DeployTarget, stdioEntry: string, httpEntry: string): [string, string][] {
  switch (target) {
    case "node":
      return [
        [stdioEntry, "init/server.ts"],
        [httpEntry, "init/http.ts"],
      ];
    case "workers":
      return [[WORKER_ENTRY, "init/worker.ts"]];
    case "bun":
      return [
        [stdioEntry, "init/server.ts"],
        [BUN_ENTRY, "init/bun.ts"],
      ];
    case "deno":
      return [
        [stdioEntry, "init/server.ts"],
        [DENO_ENTRY, "init/deno.ts"],
      ];
  }
}

/** The npm scripts of a target whose compiled src/ is in `emitDir`. */
export function targetScripts(
  target: DeployTarget,
  emitDir: string,
  nodeScripts: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const { generate, build, dev } = nodeScripts;
  switch (target) {
    case "node":
      return nodeScripts;
    case "workers":
      // wrangler dev runs workerd locally (no account, no network); PORT picks the port.
      return {
        generate: generate!,
        build: build!,
        start: "wrangler dev --ip 127.0.0.1 --port ${PORT:-8787} --show-interactive-dev-session=false",
        deploy: "wrangler deploy",
        dev: dev!,
      };
    case "bun":
      return {
        generate: generate!,
        build: build!,
        start: `bun ${emitDir}/bun.js`,
        "start:stdio": `bun ${emitDir}/server.js`,
        dev: dev!,
      };
    case "deno":
      return {
        generate: generate!,
        build: build!,
        start: `deno run --allow-net=127.0.0.1 --allow-env=PORT ${emitDir}/deno.js`,
        "start:stdio": `deno run --allow-env --allow-read ${emitDir}/server.js`,
        dev: dev!,
      };
  }
}

/** The dev dependency that runs a target (its npm package ships the binary), if any. */
export function targetTool(target: DeployTarget): string | undefined {
  return target === "workers" ? "wrangler" : target === "node" ? undefined : target;
}

/**
 * The newest compatibility date the project's workerd supports (its version is 1.YYYYMMDD.n),
 * read from the workerd package wrangler brought, else PINNED_COMPATIBILITY_DATE; with where it
 * came from, for the comment beside it.
 */
export function compatibilityDate(dir: string): { date: string; source: string } {
  let version: string | undefined;
  try {
    const file = createRequire(join(dir, "package.json")).resolve("workerd/package.json");
    version = (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version;
  } catch {
    const direct = join(dir, "node_modules", "workerd", "package.json");
    if (existsSync(direct)) version = (JSON.parse(readFileSync(direct, "utf8")) as { version?: string }).version;
  }
  const m = /^\d+\.(\d{4})(\d{2})(\d{2})\./.exec(version ?? "");
  return m
    ? { date: `${m[1]}-${m[2]}-${m[3]}`, source: `The newest the installed workerd ${version} supports` }
    : {
        date: PINNED_COMPATIBILITY_DATE,
        source:
          "One every workerd since 1.20260426 (wrangler 4.86) supports; a later date enables newer runtime behaviour",
      };
}
