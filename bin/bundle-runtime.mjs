// Build step after `tsc -b`: bundles @mcpgen/runtime's JavaScript into what the package ships.
//
// tsc writes the runtime's JavaScript to runtime/build/ (not shipped) and its declarations to
// runtime/dist/. This script bundles every entry point of runtime/package.json "exports" (read
// from the file, so a new entry needs no change here) in ONE Rollup build with code splitting:
// each entry becomes runtime/dist/<same path>.js and shared code lands in runtime/dist/chunks/,
// so a class has one identity whichever entry a program imports it through, and a dynamic
// import() inside the runtime stays a lazy chunk.
//
// Why Rollup: on Node 20 every module file a program loads costs time and, past a dozen or so
// long-path resolutions, TurboFan compiles Node's own loader helpers, whose code pages stay in
// RSS (docs/bundling.md). Splitting by "which entries reach this code" (esbuild's only rule)
// left a stdio server loading 17 runtime files for stdio + facades + abi; Rollup's manualChunks
// puts their whole static closure into ONE file: runtime/package.json points the three entries at
// dist/core.js, which also carries the internal exports the other chunks import. Each legacy
// revision's method table (table.ts) is a chunk of its own that its methods, server-side and
// client-side entries (each with its loaders) import; each revision's eager validators module
// gets a chunk of its own so `protocol/<rev>/binding` exports only `binding`; the server's
// 2026-07-28 path, that era's tables and its `server/discover` validator are one chunk, every
// legacy revision's `initialize` validator another (the newest revision's `initialize` entry's own
// file), each legacy revision's table its server-side table entry's file. Everything else (http, auth, sqlite tasks,
// tasks, the client, every other validator) is split as usual and loads only when something
// imports it.
//
// esbuild still does the minifying, per chunk in renderChunk: whitespace and syntax only;
// identifiers stay, so a stack trace still names the runtime's functions and classes (and
// --enable-source-maps gives src/ file:line: tsc's maps are loaded with each module and Rollup
// chains them through esbuild's). Against no minification that ships 1.6 MB instead of 2.6 MB;
// renaming identifiers too would save 0.3 MiB of idle RSS and make traces unreadable.
import { rollup } from "@rollup/wasm-node";
import { transform } from "esbuild";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
    if (target.endsWith(".js"))
      fail(`runtime/package.json exports["${key}"] must name "types" and "default" (got a bare string)`);
    continue; // ./package.json
  }
  const js = target?.default;
  if (typeof js !== "string" || !/^\.\/dist\/.+\.js$/.test(js))
    fail(`runtime/package.json exports["${key}"].default must be "./dist/<path>.js" (got ${JSON.stringify(js)})`);
  if (key.includes("*")) continue; // a pattern: expanded below, once tsc's output is there to match
  entries.set(key, js.slice("./dist/".length));
}
// runtime/package.json "imports": internal specifiers each host resolves to its own file by
// condition (the HTTP client's default driver: node:http on Node, fetch elsewhere). Each target is
// an entry of the build, named after the file it becomes; the source it is built from is named here.
const IMPORT_SOURCES = {
  "chunks/http-driver-node.js": "http-client/default-driver-node.js",
  "chunks/http-driver-web.js": "http-client/default-driver-web.js",
  "chunks/legacy-http-node.js": "http-server/legacy-http-node.js",
  "chunks/legacy-http-none.js": "http-server/legacy-http-none.js",
  "chunks/on-first-use-node.js": "on-first-use/node.js",
  "chunks/on-first-use-bundled.js": "on-first-use/bundled.js",
};
const importEntries = new Map();
for (const [key, conditions] of Object.entries(pkg.imports ?? {})) {
  for (const [condition, target] of Object.entries(conditions)) {
    if (condition === "types") continue;
    const rel = /^\.\/dist\/(chunks\/[^/]+\.js)$/.exec(target)?.[1];
    if (!rel)
      fail(
        `runtime/package.json imports["${key}"].${condition} must be "./dist/chunks/<name>.js" (got ${JSON.stringify(target)})`,
      );
    if (!IMPORT_SOURCES[rel])
      fail(
        `runtime/package.json imports["${key}"].${condition}: no source for ${rel} in bin/bundle-runtime.mjs IMPORT_SOURCES`,
      );
    importEntries.set(rel, IMPORT_SOURCES[rel]);
  }
}
// A pattern export (`./protocol/<rev>/server-side/*`, one `*` standing for a path) is an entry per
// file of tsc's output it matches, so each such file keeps its name in dist/.
/** Per pattern export, the entries it expanded to: [key, file of tsc's output]. */
const patternEntries = new Map();
for (const [key, target] of Object.entries(pkg.exports ?? {})) {
  if (!key.includes("*")) continue;
  const expanded = [];
  patternEntries.set(key, expanded);
  const [head, tail] = target.default.slice("./dist/".length).split("*");
  if (tail !== ".js") fail(`runtime/package.json exports["${key}"].default must end in "*.js"`);
  const found = walk(join(tscOut, head), (name) => name.endsWith(".js"));
  if (found.length === 0) fail(`runtime/package.json exports["${key}"] matches no file of runtime/build/${head}`);
  for (const file of found) {
    const rel = relative(tscOut, file).split("\\").join("/");
    const expandedKey = key.replace("*", rel.slice(head.length, -".js".length));
    entries.set(expandedKey, rel);
    expanded.push([expandedKey, rel]);
  }
}
for (const rel of [...entries.values(), ...importEntries.values()]) {
  try {
    statSync(join(tscOut, rel));
  } catch {
    fail(`runtime/build/${rel} is missing: run tsc -b first`);
  }
}

/**
 * The entries a stdio server or client imports before its first message. runtime/package.json
 * points them at ONE file (src/core.ts re-exports the three): their static closure is that file,
 * which the other entries (the package root, http, ...) and the lazy chunks import from too.
 */
// The ABI entry carries its version (./abi/v<N>): the one that runtime/package.json lists.
const abiEntry =
  [...entries.keys()].find((key) => /^\.\/abi\/v\d+$/.test(key)) ??
  fail('runtime/package.json has no exports["./abi/v<N>"]');
const CORE_ENTRIES = ["./stdio", "./facades", abiEntry];
for (const key of CORE_ENTRIES)
  if (!entries.has(key)) fail(`runtime/package.json has no exports["${key}"] (bin/bundle-runtime.mjs CORE_ENTRIES)`);
const coreRel = entries.get(CORE_ENTRIES[0]);
for (const key of CORE_ENTRIES)
  if (entries.get(key) !== coreRel)
    fail(
      `runtime/package.json exports["${key}"] must name the same file as exports["${CORE_ENTRIES[0]}"] (${coreRel})`,
    );
const methodsEntry = /^\.\/protocol\/([^/]+)\/methods$/;
/**
 * The newest revision's server-side `initialize` entry: the file of the chunk every legacy session
 * loads for its first message (below), instead of a re-export of it. A server reads one file less
 * before it answers a legacy `initialize` of that revision, what current legacy clients send.
 */
const sessionStartRel = [...entries]
  .filter(([key]) => /^\.\/protocol\/[^/]+\/server-side\/params\/initialize$/.test(key))
  .map(([, rel]) => rel)
  .sort()
  .at(-1);

/**
 * Bundlers' per-module files (dist/esm/): each entry names them under the hosts' conditions, the
 * file of its own source (src/stdio.ts for ./stdio, not the core Node is served).
 */
const esmDir = join(outDir, "esm");
const HOST_CONDITIONS = ["workerd", "worker", "browser", "bun", "deno"];
/** The hosts whose files a bundler reads (Bun and Deno load the runtime's files as they are). */
const BUNDLER_CONDITIONS = ["workerd", "worker", "browser"];
const esmTargets = new Map();
for (const [key, target] of Object.entries(pkg.exports ?? {})) {
  if (typeof target !== "object") continue;
  // A pattern export names the pattern of its files (`protocol/<rev>/server-side/*.js`).
  const source = key.includes("*")
    ? target.default.slice("./dist/".length)
    : CORE_ENTRIES.includes(key)
      ? `${key.slice(2)}.js`
      : entries.get(key);
  const hosts = Object.entries(target).filter(([c]) => c !== "types" && c !== "default");
  const missing = HOST_CONDITIONS.filter((c) => target[c] === undefined);
  if (missing.length > 0)
    fail(`runtime/package.json exports["${key}"] lacks the conditions ${missing.join(", ")} (./dist/esm/${source})`);
  const keys = Object.keys(target);
  if (keys.indexOf("default") !== keys.length - 1)
    fail(`runtime/package.json exports["${key}"]: "default" must come last`);
  // An entry whose bundlers' file differs (`protocol/server-load`: static imports where Node's has
  // dynamic ones) names its `-bundled` twin under their conditions.
  const bundled = `./dist/esm/${source.replace(/\.js$/, "-bundled.js")}`;
  for (const [condition, t] of hosts)
    if (t !== `./dist/esm/${source}` && !(BUNDLER_CONDITIONS.includes(condition) && t === bundled))
      fail(
        `runtime/package.json exports["${key}"].${condition} must be "./dist/esm/${source}" (got ${JSON.stringify(t)})`,
      );
  if (!key.includes("*")) {
    esmTargets.set(key, hosts);
    continue;
  }
  // ... and is one target per file it matched, as in the Node build
  for (const [k, rel] of patternEntries.get(key))
    esmTargets.set(
      k,
      hosts.map(([c]) => [c, `./dist/esm/${rel}`]),
    );
}

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

// Production dependencies stay imports of their packages (npm installs and dedupes them); the
// optional SQLite driver is a peer loaded by the durable task store only.
const external = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
/** The generated server's loaders (runtime/package.json `./protocol/server-load`), below dist/. */
const SERVER_LOAD_REL = "protocol/shared/server-side/load.js";
const isExternal = (id) =>
  id.startsWith("node:") || id.startsWith("#") || [...external].some((d) => id === d || id.startsWith(`${d}/`));

const plugin = {
  name: "mcpgen-runtime",
  // The core entry is also the chunk every other file imports the core from, so it may export
  // more than src/core.ts does (internal names for those chunks; its declarations show none).
  // So may the file of the legacy sessions' first-message chunk (sessionStartRel).
  buildStart() {
    for (const rel of [coreRel, sessionStartRel])
      if (rel)
        this.emitFile({ type: "chunk", id: join(tscOut, rel), fileName: rel, preserveSignature: "allow-extension" });
  },
  // The protocol bindings import the runtime by its package name (`@mcpgen/runtime/abi/v<N>`): resolve
  // that to tsc's output so it joins the bundle instead of pointing at the package itself.
  resolveId(source) {
    if (!/^@mcpgen\/runtime(\/|$)/.test(source)) return null;
    const rel = entries.get("." + source.slice("@mcpgen/runtime".length));
    if (!rel) this.error(`${source} is not an entry of runtime/package.json "exports"`);
    return join(tscOut, rel);
  },
  // The generated server's loaders (`protocol/server-load`) import per-method server entries, each
  // a file of its own here: as they are, the way the generated server imported them before, so
  // Rollup adds no facade chunk for the entries whose module sits in a chunk of the core's.
  resolveDynamicImport(specifier, importer) {
    if (importer !== join(tscOut, SERVER_LOAD_REL) || typeof specifier !== "string") return null;
    return { id: specifier, external: true };
  },
  // tsc's source map comes with each module, so the bundle's maps point into runtime/src.
  load(id) {
    if (!id.startsWith(tscOut)) return null;
    const code = readFileSync(id, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
    let map = null;
    try {
      map = JSON.parse(readFileSync(`${id}.map`, "utf8"));
    } catch {
      // no map beside it: that module's positions are the bundle's own
    }
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
    return { code: out.code, map: out.map === "" ? null : JSON.parse(out.map) };
  },
};

/** module id -> manual chunk name: the core, each revision's method table, each revision's validators module. */
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
  const core = closure([join(tscOut, coreRel)]);
  const out = new Map([...core].map((id) => [id, "core"]));
  // Every session starts the same way: a legacy one with `initialize`, a 2026-07-28 one with
  // `server/discover`. The validators of those first messages (each revision's, as its server-side
  // loaders import them) load with the era's own path: 2026-07-28's with the server's 2026-07-28
  // path (one chunk, which the client and tasks import what they share with it from), every legacy
  // revision's `initialize` with the definitions they call in one more chunk. A session of either
  // era thus reads one file for its lifecycle and first message, not two or five.
  const first = { legacy: [], modern: [] };
  /** Revisions of the 2026-07-28 era (their sessions start with server/discover). */
  const modernRevisions = new Set();
  for (const rel of entries.values()) {
    if (!/^protocol\/[^/]+\/server-side\.js$/.test(rel)) continue;
    const loaders = readFileSync(join(tscOut, rel), "utf8");
    const found = /(\binitialize|"server\/discover"): \(\) => import\("([^"]+)"\)/.exec(loaders);
    if (!found) continue;
    first[found[1] === "initialize" ? "legacy" : "modern"].push(join(tscOut, dirname(rel), found[2]));
    if (found[1] !== "initialize") modernRevisions.add(rel.split("/")[1]);
  }
  // The Mcp-Param-* check (server/header-params.js, a feature loaded before a server's first
  // 2026-07-28 connection, as the path is) rides in the path's chunk: no chunk of its own to load.
  const modern = closure(
    [join(tscOut, "server", "modern-path.js"), join(tscOut, "server", "header-params.js"), ...first.modern],
    core,
  );
  const legacyStart = closure(first.legacy, core);
  // Definitions both eras' first messages validate (Implementation, ...; shared across revisions by
  // generate-bundled) join the core: in either chunk they would make the other era load it too.
  for (const id of legacyStart) out.set(id, modern.has(id) ? "core" : "protocol-session-start");
  if (sessionStartRel) out.set(join(tscOut, sessionStartRel), "protocol-session-start");
  for (const id of modern) if (!legacyStart.has(id)) out.set(id, "modern-path");
  for (const [key, rel] of entries) {
    const rev = methodsEntry.exec(key)?.[1];
    if (rev) {
      // The table is shared with the revision's server-side and client-side entries: not in either
      // entry, so importing one role's entry never reaches the other role's loaders. A legacy
      // revision's table is a chunk of its own; a 2026-07-28-era table joins that era's path, which
      // every session of the era loads anyway (one file less at its start).
      const table = join(tscOut, dirname(rel), "table.js");
      // A legacy table is the revision's server-side table entry itself (the chunk named after the
      // entry becomes its file): a server's first message loads one file for it, not a re-export and
      // the chunk behind it.
      const serverTable = `protocol/${rev}/server-side/table`;
      const tableChunk = modernRevisions.has(rev)
        ? "modern-path"
        : entries.has(`./${serverTable}`)
          ? serverTable
          : `protocol-${rev}-table`;
      if (tableChunk === serverTable) out.set(join(tscOut, `${serverTable}.js`), serverTable);
      for (const id of closure([join(tscOut, rel)], core))
        out.set(id, id === table ? tableChunk : `protocol-${rev}-methods`);
    }
    const eager = /^\.\/protocol\/([^/]+)$/.exec(key)?.[1];
    if (eager) out.set(join(tscOut, dirname(rel), "validators.js"), `protocol-${eager}-validators`);
  }
  return out;
}

// The previous bundle's files go first: chunk names carry content hashes, so stale ones would
// otherwise pile up in the tarball. Declarations (tsc's) stay.
for (const f of walk(outDir, (n) => n.endsWith(".js") || n.endsWith(".js.map"))) rmSync(f);

const started = Date.now();
const bundle = await rollup({
  input: Object.fromEntries([
    ...[...new Set(entries.values())]
      .filter((rel) => rel !== coreRel && rel !== sessionStartRel)
      .map((rel) => [rel.replace(/\.js$/, ""), join(tscOut, rel)]),
    ...[...importEntries].map(([rel, source]) => [rel.replace(/\.js$/, ""), join(tscOut, source)]),
  ]),
  external: isExternal,
  plugins: [plugin],
  // runtime/package.json says "sideEffects": false; an unused import of a dependency is dropped too.
  treeshake: { moduleSideEffects: false },
  // An entry file exports what its module exports, nothing more (else Rollup may hang internal
  // exports for other chunks on it and make it the chunk itself).
  preserveEntrySignatures: "strict",
});
const { output } = await bundle.write({
  dir: outDir,
  format: "es",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  // Only the modules groupModules names go into its chunks: by default Rollup would also pull every
  // static dependency of a revision's validators module (all its per-method validators) into it.
  manualChunks(id, { getModuleInfo }) {
    groups ??= groupModules(getModuleInfo);
    return groups.get(id);
  },
  sourcemap: true,
  sourcemapExcludeSources: true,
  onlyExplicitManualChunks: true,
  // Rollup would repeat the core chunk's own imports (node:module, ...) in every entry: each is a
  // module resolution more at start for nothing.
  hoistTransitiveImports: false,
});
// Bundlers (a Cloudflare Worker, Bun, Deno, a browser) get the same code once more as one module
// per source file, under dist/esm/ and the host conditions of runtime/package.json: esbuild keeps or
// drops a whole module by whether anything uses it ("sideEffects": false), but cannot split the one
// core module Node is served, so a Worker of 2026-07-28 alone would carry the legacy era inside it.
// Node keeps the core (its start-up reads few files).
await bundle.close();
// A build of its own: the entries Node is served from the core (./stdio, ./facades, the ABI) are
// files of their own here, which the core's build must not make.
const esmSources = new Set(
  [...esmTargets.values()].flatMap((hosts) => hosts.map(([, t]) => t.slice("./dist/esm/".length))),
);
for (const source of Object.values(IMPORT_SOURCES)) esmSources.add(source);
const esmBundle = await rollup({
  input: Object.fromEntries([...esmSources].map((rel) => [rel.replace(/\.js$/, ""), join(tscOut, rel)])),
  external: isExternal,
  plugins: [{ ...plugin, buildStart: undefined }],
  treeshake: { moduleSideEffects: false },
  preserveEntrySignatures: "strict",
});
// No source maps: a bundler makes its own, and the tarball carries the code twice already.
const { output: perModule } = await esmBundle.write({
  dir: esmDir,
  format: "es",
  preserveModules: true,
  preserveModulesRoot: tscOut,
  entryFileNames: "[name].js",
});
await esmBundle.close();
const esmFiles = new Set(perModule.filter((o) => o.type === "chunk").map((o) => o.fileName));
for (const [key, conditions] of esmTargets)
  for (const [condition, target] of conditions)
    if (!esmFiles.has(target.slice("./dist/esm/".length)))
      fail(`runtime/package.json exports["${key}"].${condition}: ${target} was not built`);
// A package.json beside the files (dist/ and dist/chunks/) ends Node's package-scope walk for each
// module it loads one or two folders earlier. That walk runs per module load, path by path, and is
// what makes Node's loader helpers hot enough for TurboFan at start (docs/bundling.md). Same type and
// sideEffects as the package's own, so Node and bundlers read the files exactly as before.
// The package's "imports" go there too, as Node and bundlers resolve `#` specifiers against the
// nearest package.json; its targets are relative to each file's folder.
for (const dir of ["", "chunks", "esm"]) {
  const prefix = `./dist/${dir === "" ? "" : `${dir}/`}`;
  // The per-module files import their own twin of each host's file (its source's path), not the chunk.
  const target = (t) =>
    dir === "esm" ? `./${IMPORT_SOURCES[t.slice("./dist/".length)]}` : `./${t.slice(prefix.length)}`;
  const imports =
    pkg.imports === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(pkg.imports).map(([key, conditions]) => [
            key,
            Object.fromEntries(
              Object.entries(conditions)
                .filter(([c]) => c !== "types")
                .map(([c, t]) => [c, target(t)]),
            ),
          ]),
        );
  writeFileSync(
    join(outDir, dir, "package.json"),
    JSON.stringify({ type: pkg.type, sideEffects: pkg.sideEffects, imports }) + "\n",
  );
}
const chunks = output.filter((o) => o.type === "chunk");
const bytes = chunks.reduce((n, c) => n + Buffer.byteLength(c.code), 0);
console.log(
  `bundle-runtime: ${entries.size + importEntries.size} entries, ${chunks.length - entries.size - importEntries.size} chunks, ${(bytes / 1024).toFixed(0)} KiB in ${relative(process.cwd(), outDir) || "."} (${Date.now() - started} ms)`,
);
