// Build step after `tsc -b`: bundles @mcpgen/runtime's JavaScript into what the package ships.
//
// tsc writes the runtime's JavaScript to runtime/build/ (not shipped) and its declarations to
// runtime/dist/. This script bundles every entry point of runtime/package.json "exports" (read
// from the file, so a new entry needs no change here) in ONE esbuild invocation with code
// splitting: each entry becomes runtime/dist/<same path>.js and the code entries share lands in
// runtime/dist/chunks/, so a class has one identity whichever entry a program imports it through,
// and a dynamic import() inside the runtime stays a lazy chunk. On Node 20 loading a module costs
// about as much as evaluating it, so a server that starts from a few files starts measurably
// faster than one that loads seventy (bench/README.md, "stdio start").
//
// Minified in whitespace and syntax only: identifiers stay, so a stack trace still names the
// runtime's functions and classes (and --enable-source-maps gives src/ file:line from the maps
// beside each file). Against no minification that ships 1.6 MB instead of 2.6 MB, and a stdio
// server holds about 0.6 MiB less at idle; renaming identifiers too would save 0.3 MiB more and
// unreadable traces (docs/bundling.md has the measurement).
import { build } from "esbuild";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const runtimeDir = join(dirname(fileURLToPath(import.meta.url)), "..", "runtime");
const tscOut = join(runtimeDir, "build");
const outDir = join(runtimeDir, "dist");
const pkg = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8"));

function fail(message) {
  console.error(`bundle-runtime: ${message}`);
  process.exit(1);
}

/** exports key -> path below dist/ of its JavaScript ("default" condition), e.g. "./stdio" -> "stdio.js". */
const entries = new Map();
for (const [key, target] of Object.entries(pkg.exports ?? {})) {
  if (typeof target === "string") {
    if (target.endsWith(".js")) fail(`runtime/package.json exports["${key}"] must name "types" and "default" (got a bare string)`);
    continue; // ./package.json
  }
  const js = target?.default;
  if (typeof js !== "string" || !/^\.\/dist\/.+\.js$/.test(js)) fail(`runtime/package.json exports["${key}"].default must be "./dist/<path>.js" (got ${JSON.stringify(js)})`);
  entries.set(key, js.slice("./dist/".length));
}

// The protocol bindings import the runtime by its package name (`@mcpgen/runtime/abi`): resolve
// that to tsc's output so it joins the shared chunks instead of pointing at the bundle itself.
const selfReference = {
  name: "mcpgen-runtime-self",
  setup(b) {
    b.onResolve({ filter: /^@mcpgen\/runtime(\/|$)/ }, (args) => {
      const key = "." + args.path.slice("@mcpgen/runtime".length);
      const rel = entries.get(key);
      if (!rel) return { errors: [{ text: `${args.path} is not an entry of runtime/package.json "exports"` }] };
      return { path: join(tscOut, rel) };
    });
  },
};

/** Every file below dir whose name passes keep. */
function walk(dir, keep, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, keep, out);
    else if (keep(name)) out.push(p);
  }
  return out;
}

for (const rel of entries.values()) {
  try {
    statSync(join(tscOut, rel));
  } catch {
    fail(`runtime/build/${rel} is missing: run tsc -b first`);
  }
}

// The previous bundle's files go first: chunk names carry content hashes, so stale ones would
// otherwise pile up in the tarball. Declarations (tsc's) stay.
for (const f of walk(outDir, (n) => n.endsWith(".js") || n.endsWith(".js.map"))) rmSync(f);

const started = Date.now();
const result = await build({
  absWorkingDir: runtimeDir,
  entryPoints: [...entries.values()].map((rel) => ({ in: join(tscOut, rel), out: rel.replace(/\.js$/, "") })),
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  // Production dependencies stay imports of their packages (npm installs and dedupes them); the
  // optional SQLite driver is a peer loaded by the durable task store only.
  external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})],
  plugins: [selfReference],
  sourcemap: "linked",
  // Maps carry positions into runtime/src (not shipped), not the sources themselves: stack traces
  // under --enable-source-maps name src files and lines; the tarball stays small.
  sourcesContent: false,
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: false,
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
});
if (result.errors.length) process.exit(1);

const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith(".js"));
const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
console.log(`bundle-runtime: ${entries.size} entries, ${outputs.length - entries.size} chunks, ${(bytes / 1024).toFixed(0)} KiB in ${relative(process.cwd(), outDir) || "."} (${Date.now() - started} ms)`);
