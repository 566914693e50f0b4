// What the two packages publish: only what runs, every declared dependency imported by shipped
// code (and nothing imported undeclared), and engines that hold for every Node.js version claimed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import semver from "semver";
import ts from "typescript-5";
import { repoRoot } from "../helpers.js";

interface Pkg {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  /** mcpgen's `pull` / `verify` connect through the user's own @mcpgen/runtime (an optional peer). */
  peerDependencies?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  imports?: Record<string, Record<string, string>>;
  bin?: Record<string, string>;
  type?: string;
  sideEffects?: boolean;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
}

const readPkg = (dir: string): Pkg => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const packages = [repoRoot, join(repoRoot, "runtime")];

/**
 * Peers that no shipped file imports, on purpose: the generated code is compiled by the user's own
 * TypeScript (an optional peer giving the versions it is written for), so `npm i -D mcpgen` brings
 * no compiler of its own. Anything else declared must be imported.
 */
const TOOLCHAIN_PEERS: Record<string, string[]> = { mcpgen: ["typescript"] };

/** `npm pack --dry-run`: the files the tarball would hold. */
function packedFiles(dir: string): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 60_000,
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
}

/**
 * Bare specifiers a JS file imports (static, dynamic, side-effect, re-export, require), as package
 * names. The compiler's scanner tells real imports from the import lines inside emitted-code strings.
 */
function importedPackages(code: string): Set<string> {
  const names = new Set<string>();
  for (const { fileName: spec } of ts.preProcessFile(code, true, true).importedFiles) {
    // "#..." are the package's own subpath imports (runtime/package.json "imports"), not packages
    if (
      spec.startsWith(".") ||
      spec.startsWith("#") ||
      spec.startsWith("node:") ||
      builtinModules.includes(spec.split("/")[0]!)
    )
      continue;
    names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
  }
  return names;
}

const files = new Map(packages.map((dir) => [dir, packedFiles(dir)]));

test("mcpgen ships dist, templates, schemas and bundled bindings, with README and LICENSE; no sources, tests or maintainer scripts", () => {
  const list = files.get(repoRoot)!;
  for (const f of [
    "LICENSE",
    "README.md",
    "package.json",
    "dist/bin/mcpgen.js",
    "dist/generator/index.js",
    "dist/generator/index.d.ts",
    "schema/manifest.schema.json",
    "templates/init/mcp.manifest.json.hbs",
    "templates/output/README.md.hbs",
    "generated/2025-11-25/index.ts",
  ]) {
    assert.ok(list.includes(f), `${f} is shipped`);
  }
  const unexpected = list.filter(
    (f) =>
      !/^(LICENSE|README\.md|package\.json|dist\/(bin|generator)\/.+\.(js|d\.ts)|generated\/[\d-]+\/[\w.-]+\.ts|schema\/([\w.-]+\.json|[\d-]+\/schema\.json)|templates\/.+\.hbs)$/.test(
        f,
      ),
  );
  assert.equal(unexpected, []);
  assert.not.ok(list.some((f) => f.startsWith("dist/test/") || f.startsWith("bin/") || f.includes("examples/")));
});

test("@mcpgen/runtime ships dist (bundled JS with its source maps, the per-module JS of bundlers' hosts, and types), README and LICENSE only", () => {
  const list = files.get(join(repoRoot, "runtime"))!;
  for (const f of ["LICENSE", "README.md", "package.json"]) assert.ok(list.includes(f), f);
  assert.equal(
    list.filter(
      (f) =>
        !/^(LICENSE|README\.md|package\.json|dist\/(chunks\/|esm\/)?package\.json|dist\/.+\.(js|js\.map|d\.ts))$/.test(
          f,
        ),
    ),
    [],
  );
  // the package-scope files beside the bundle say what the package's own says, with its
  // "imports" map pointed at the bundle's chunks (the host-picked #http-driver)
  const own = readPkg(join(repoRoot, "runtime"));
  for (const f of ["dist/package.json", "dist/chunks/package.json", "dist/esm/package.json"]) {
    assert.ok(list.includes(f), f);
    const scope = JSON.parse(readFileSync(join(repoRoot, "runtime", f), "utf8"));
    assert.equal(
      { type: scope.type, sideEffects: scope.sideEffects },
      { type: own.type, sideEffects: own.sideEffects },
      f,
    );
    assert.equal(
      Object.keys(scope.imports ?? {}),
      Object.keys(own.imports ?? {}),
      `${f} maps the package's own imports`,
    );
    for (const target of Object.values<Record<string, string>>(scope.imports ?? {}).flatMap((t) => Object.values(t))) {
      assert.ok(list.includes(join(dirname(f), target).replace(/\\/g, "/")), `${f}: ${target} is shipped`);
    }
  }
  // every JS file has its map beside it, and no map outlives its file; bundlers' per-module files
  // (dist/esm/) have none: a bundler makes its own
  const js = list.filter((f) => f.endsWith(".js") && !f.startsWith("dist/esm/"));
  assert.equal(list.filter((f) => f.endsWith(".js.map")).sort(), js.map((f) => f + ".map").sort());
  // tsc's unbundled output (runtime/build) never ships
  assert.not.ok(list.some((f) => f.startsWith("build/")));
});

test("every exports / bin target of both packages is in the tarball, with types for each JS entry", () => {
  for (const dir of packages) {
    const pkg = readPkg(dir);
    const list = new Set(files.get(dir)!);
    const targets = [
      ...Object.values(pkg.bin ?? {}),
      ...Object.values(pkg.exports ?? {}).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t))),
    ];
    for (const t of targets) {
      const path = t.replace(/^\.\//, "");
      if (!path.includes("*")) {
        assert.ok(list.has(path), `${pkg.name}: ${t} is shipped`);
        continue;
      }
      // A pattern entry (`./protocol/<rev>/server-side/*`): some shipped file of that shape.
      const [head, tail] = path.split("*") as [string, string];
      assert.ok(
        [...list].some((f) => f.startsWith(head) && f.endsWith(tail) && f.length > head.length + tail.length),
        `${pkg.name}: ${t} matches a shipped file`,
      );
    }
    for (const [key, t] of Object.entries(pkg.exports ?? {})) {
      if (typeof t !== "string") assert.ok(t.types && t.default, `${pkg.name} exports ${key} with types and default`);
    }
  }
});

test("every declared dependency is imported by shipped code, and shipped code imports nothing undeclared", () => {
  for (const dir of packages) {
    const pkg = readPkg(dir);
    const used = new Set<string>();
    for (const f of files.get(dir)!.filter((f) => f.endsWith(".js")))
      for (const n of importedPackages(readFileSync(join(dir, f), "utf8"))) used.add(n);
    const declared = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
    const exempt = TOOLCHAIN_PEERS[pkg.name] ?? [];
    assert.equal(
      declared.filter((d) => !used.has(d) && !exempt.includes(d)),
      [],
      `${pkg.name}: declared but imported by no shipped file`,
    );
    for (const d of exempt)
      assert.not.ok(pkg.dependencies?.[d], `${pkg.name}: ${d} is the user's toolchain, a peer, never a dependency`);
    // a package importing its own name (the runtime's protocol/<rev> entries import @mcpgen/runtime/abi/v<N>) is a self-reference
    assert.equal(
      [...used].filter((u) => !declared.includes(u) && u !== pkg.name).sort(),
      [],
      `${pkg.name}: imported but not declared`,
    );
  }
});

/** The installed copy of `name` as Node would resolve it from `from` (walking up node_modules). */
function installed(from: string, name: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (from ${from})`);
  }
}

/** Every package a production install of `dir`'s package brings, transitively (name → directory). */
function productionClosure(dir: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (from: string, deps: Record<string, string> | undefined) => {
    for (const name of Object.keys(deps ?? {})) {
      const at = installed(from, name);
      if ([...seen.values()].includes(at)) continue;
      seen.set(name, at);
      walk(at, readPkg(at).dependencies);
    }
  };
  walk(dir, readPkg(dir).dependencies);
  return seen;
}

test("`npm i -D mcpgen` installs no TypeScript compiler of its own (the user compiles with theirs)", () => {
  for (const dir of packages) {
    const closure = productionClosure(dir);
    assert.ok(closure.size > 0 || dir !== repoRoot);
    assert.not.ok(closure.has("typescript"), `${readPkg(dir).name}: a production dependency brings typescript`);
  }
});

test("engines: every production dependency, transitively, supports every Node.js line the packages claim", () => {
  for (const dir of packages) {
    const pkg = readPkg(dir);
    const claim = pkg.engines?.node;
    assert.ok(claim, `${pkg.name} declares engines.node`);
    // the lowest version claimed, and the lowest claimed release of each later LTS line
    const lines = [semver.minVersion(claim!)!.version, lowestOfLine(claim!, 22), lowestOfLine(claim!, 24)].filter(
      (v): v is string => v !== undefined,
    );
    const seen = new Set<string>();
    const problems: string[] = [];
    const walk = (from: string, deps: Record<string, string> | undefined, path: string) => {
      for (const name of Object.keys(deps ?? {})) {
        const at = installed(from, name);
        if (seen.has(at)) continue;
        seen.add(at);
        const dep = readPkg(at);
        const range = dep.engines?.node;
        for (const v of lines)
          if (range && !semver.satisfies(v, range))
            problems.push(
              `${path} > ${dep.name}@${dep.version} requires node ${range}; ${pkg.name} claims ${claim} (${v})`,
            );
        walk(at, dep.dependencies, `${path} > ${dep.name}`);
      }
    };
    walk(dir, pkg.dependencies, pkg.name);
    assert.equal(problems, []);
    assert.ok(seen.size >= Object.keys(pkg.dependencies ?? {}).length);
  }
});

/** The lowest `major.minor.0` that `claim` admits, if any (minors up to 40). */
function lowestOfLine(claim: string, major: number): string | undefined {
  for (let minor = 0; minor <= 40; minor++)
    if (semver.satisfies(`${major}.${minor}.0`, claim)) return `${major}.${minor}.0`;
  return undefined;
}

/**
 * The Node.js releases with process.getBuiltinModule, through which the runtime loads node:http,
 * node:https, node:stream and node:child_process (runtime/src/node-builtin.ts): added in 22.3.0
 * and backported to 20.16.0; not in 21.
 */
const HAS_GET_BUILTIN_MODULE = "^20.16.0 || >=22.3.0";

test("engines: both packages claim the same Node.js versions, each of them with process.getBuiltinModule", () => {
  const claims = packages.map((dir) => readPkg(dir).engines?.node ?? "");
  assert.is(claims[0], claims[1], "mcpgen and @mcpgen/runtime claim the same Node.js versions");
  for (const claim of claims) {
    assert.ok(semver.subset(claim, HAS_GET_BUILTIN_MODULE), `${claim} admits a Node.js without getBuiltinModule`);
    for (const without of ["20.0.0", "20.15.1", "21.7.3", "22.2.0"]) assert.not.ok(semver.satisfies(without, claim));
    for (const supported of ["20.16.0", "22.3.0", "24.0.0"])
      assert.ok(semver.satisfies(supported, claim), `${claim} leaves out ${supported}`);
  }
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  assert.match(readme, "(Node.js 20.16 or newer, 22.3 or newer on the 22 line)", "the README's quick start says so");
});

const REPOSITORY = "https://github.com/mcpgen/mcpgen";

test("both packages point at the repository, their docs and the issue tracker; README links work from the npm page", () => {
  for (const dir of packages) {
    const pkg = readPkg(dir);
    const sub = relative(repoRoot, dir) || undefined;
    assert.equal(
      pkg.repository,
      { type: "git", url: `git+${REPOSITORY}.git`, ...(sub === undefined ? {} : { directory: sub }) },
      pkg.name,
    );
    assert.is(
      pkg.homepage,
      sub === undefined ? `${REPOSITORY}#readme` : `${REPOSITORY}/tree/main/${sub}#readme`,
      pkg.name,
    );
    assert.equal(pkg.bugs, { url: `${REPOSITORY}/issues` }, pkg.name);
    // npm renders the README away from the repository: a relative link there leads nowhere, and
    // an absolute one into the repository must name a file that exists
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
      assert.ok(/^(https?:|mailto:|#)/.test(target!), `${pkg.name} README: relative link ${target}`);
      const inRepo = target!.startsWith(`${REPOSITORY}/blob/main/`)
        ? target!.slice(`${REPOSITORY}/blob/main/`.length).replace(/#.*$/, "")
        : undefined;
      if (inRepo !== undefined)
        assert.ok(existsSync(join(repoRoot, inRepo)), `${pkg.name} README links to ${inRepo}, which does not exist`);
    }
  }
});

test.run();
