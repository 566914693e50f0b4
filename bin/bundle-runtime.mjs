import { rollup } from "rollup";
import { transform } from "esbuild";
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
for (const rel of entries.values()) {
  try {
    statSync(join(tscOut, rel));
  } catch {
    fail(`runtime/build/${rel} is missing: run tsc -b first`);
  }
}

/** The entries a stdio server or client imports before its first message; their static closure is the core chunk. */
const CORE_ENTRIES = ["./stdio", "./facades", "./abi"];
for (const key of CORE_ENTRIES) if (!entries.has(key)) fail(`runtime/package.json has no exports["${key}"] (bin/bundle-runtime.mjs CORE_ENTRIES)`);
const methodsEntry = /^\.\/protocol\/([^/]+)\/methods$/;

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

const external = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
const isExternal = (id) => id.startsWith("node:") || [...external].some((d) => id === d || id.startsWith(`${d}/`));

const plugin = {
  name: "mcpgen-runtime",
  // The protocol bindings import the runtime by its package name (`@mcpgen/runtime/abi`): resolve
  // that to tsc's output so it joins the bundle instead of pointing at the package itself.
  resolveId(source) {
    if (!/^@mcpgen\/runtime(\/|$)/.test(source)) return null;
    const rel = entries.get("." + source.slice("@mcpgen/runtime".length));
    if (!rel) this.error(`${source} is not an entry of runtime/package.json "exports"`);
    return join(tscOut, rel);
  },
  // tsc's source map comes with each module, so the bundle's maps point into runtime/src.
  load(id) {
    if (!id.startsWith(tscOut)) return null;
    const code = readFileSync(id, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
    let map = null;
    try {
      map = JSON.parse(readFileSync(`${id}.map`, "utf8"));
    } catch {}
    return { code, map };
  },
  async renderChunk(code, chunk) {
    const out = await transform(code, {
      loader: "js",
      format: "esm",
      target: "node20",
      minifyWhitespace: true,
      minifySyntax: true,
      minifyIdentifiers: false,
      legalComments: "none",
      sourcemap: "external",
      sourcefile: chunk.fileName,
    });
    return { code: out.code, map: JSON.parse(out.map) };
  },
};

/** module id -> manual chunk name, for the core and each revision's method table. */
let groups;
function groupModules(getModuleInfo) {
  const closure = (roots, skip = new Set()) => {
    const seen = new Set();
    const todo = [...roots];
    while (todo.length) {
      const id = todo.pop();
      if (seen.has(id) || skip.has(id)) continue;
      const info = getModuleInfo(id);
      if (!info || info.isExternal) continue;
      seen.add(id);
      todo.push(...info.importedIds);
    }
    return seen;
  };
  const core = closure(CORE_ENTRIES.map((k) => join(tscOut, entries.get(k))));
  const out = new Map([...core].map((id) => [id, "core"]));
  for (const [key, rel] of entries) {
    const rev = methodsEntry.exec(key)?.[1];
    if (rev) for (const id of closure([join(tscOut, rel)], core)) out.set(id, `protocol-${rev}-methods`);
    const eager = /^\.\/protocol\/([^/]+)$/.exec(key)?.[1];
    if (eager) out.set(join(tscOut, dirname(rel), "validators.js"), `protocol-${eager}-validators`);
  }
  return out;
}

for (const f of walk(outDir, (n) => n.endsWith(".js") || n.endsWith(".js.map"))) rmSync(f);

const started = Date.now();
const bundle = await rollup({
  input: Object.fromEntries([...entries.values()].map((rel) => [rel.replace(/\.js$/, ""), join(tscOut, rel)])),
  external: isExternal,
  plugins: [plugin],
  treeshake: { moduleSideEffects: false },
  preserveEntrySignatures: "strict",
  onwarn(warning, warn) {
    if (warning.code === "CIRCULAR_DEPENDENCY") return;
    warn(warning);
  },
});
const { output } = await bundle.write({
  dir: outDir,
  format: "es",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  manualChunks(id, { getModuleInfo }) {
    groups ??= groupModules(getModuleInfo);
    return groups.get(id);
  },
  sourcemap: true,
  sourcemapExcludeSources: true,
  onlyExplicitManualChunks: true,
  hoistTransitiveImports: false,
});
await bundle.close();
const chunks = output.filter((o) => o.type === "chunk");
const bytes = chunks.reduce((n, c) => n + Buffer.byteLength(c.code), 0);
console.log(`bundle-runtime: ${entries.size} entries, ${chunks.length - entries.size} chunks, ${(bytes / 1024).toFixed(0)} KiB in ${relative(process.cwd(), outDir) || "."} (${Date.now() - started} ms)`);
