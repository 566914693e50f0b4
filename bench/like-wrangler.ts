/**
 * A Worker bundle made the way wrangler makes one, and what of Node reaches it: the one setup the
 * bench's Worker sizes (bundle.ts), its test and the host tests (test/hosts/runtimes.ts,
 * test/runtime/fetch-entry-bundle.test.ts) all build with and check against.
 *
 * wrangler (v4) hands esbuild its default platform (browser) and the export conditions workerd,
 * worker, browser. Without the nodejs_compat flag it leaves a `node:` import external with a
 * warning, and workerd then has no such module; Node's globals (process, Buffer, ...) are simply
 * not there. So a Worker that must run without nodejs_compat imports no Node builtin (not even
 * one whose code tree-shaking drops: wrangler warns about those too) and reads no Node global.
 */
import { transform, type BuildOptions, type Plugin } from "esbuild";

/** The export conditions wrangler resolves with (its WRANGLER_BUILD_CONDITIONS default). */
export const WORKERD_CONDITIONS: readonly string[] = ["workerd", "worker", "browser"];

/** esbuild options of a modules-format Worker as wrangler bundles it (wrangler 4 targets ES2024, what workerd's V8 runs). */
export const WRANGLER_OPTIONS = {
  bundle: true,
  format: "esm",
  platform: "browser",
  conditions: [...WORKERD_CONDITIONS],
  target: "es2024",
} satisfies BuildOptions;

/** Names a host without Node does not have. */
const NODE_GLOBALS: readonly string[] = [
  "Buffer",
  "process",
  "require",
  "__dirname",
  "__filename",
  "global",
  "setImmediate",
  "clearImmediate",
];

/** Node's builtin modules, by either spelling (`node:fs`, `fs`, `fs/promises`). */
const BUILTIN =
  /^(node:|(assert|async_hooks|buffer|child_process|cluster|crypto|dgram|diagnostics_channel|dns|events|fs|http|http2|https|inspector|module|net|os|path|perf_hooks|process|querystring|readline|repl|stream|string_decoder|timers|tls|tty|url|util|v8|vm|worker_threads|zlib)(\/|$))/;

/**
 * Records every Node builtin an input imports (`"node:http" from runtime/dist/esm/x.js`) and keeps
 * it external, as wrangler does without nodejs_compat, so one build reports them all. `seen` is
 * filled while the build runs.
 */
export function nodeBuiltins(seen: string[], root = ""): Plugin {
  return {
    name: "node-builtins",
    setup(b) {
      b.onResolve({ filter: BUILTIN }, (a) => {
        const from = a.importer.startsWith(root) ? a.importer.slice(root.length) : a.importer;
        seen.push(`"${a.path}" from ${from}`);
        return { path: a.path, external: true };
      });
    },
  };
}

const marker = (name: string): string => `__mcpgen_node_global_${name}__`;

/**
 * The Node globals `code` (a bundle's text) reads free: esbuild itself finds them (define), so a
 * member (`globalThis.process`), a binding of the same name, a string or a comment is not a read,
 * and a `typeof process` probe is one (the Worker must not need Node for anything).
 */
export async function nodeGlobalReads(code: string): Promise<string[]> {
  const define = Object.fromEntries(NODE_GLOBALS.map((g) => [g, marker(g)]));
  const marked = (await transform(code, { define, format: "esm", logLevel: "silent" })).code;
  return NODE_GLOBALS.filter((g) => marked.includes(marker(g)));
}

/**
 * What of Node reaches a Worker bundle: the builtins `nodeBuiltins` saw imported and the globals
 * its code reads; empty when nothing does.
 */
export async function nodeReach(code: string, builtins: readonly string[]): Promise<string[]> {
  const globals = await nodeGlobalReads(code);
  return [
    ...builtins.map((b) => `import of ${b}`),
    ...(globals.length > 0 ? [`Node globals read: ${globals.join(", ")}`] : []),
  ];
}
