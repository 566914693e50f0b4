// The runtime ships bundled (bin/bundle-runtime.mjs): every "exports" entry is one file and the
// code entries share lives in shared chunks. A class reached through two entries must be one
// class, or `instanceof` fails across them; a dynamic import inside the runtime must stay lazy;
// what a stdio server imports at start is its entries and one core chunk.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import * as root from "@mcpgen/runtime";
import * as facades from "@mcpgen/runtime/facades";
import * as abi from "@mcpgen/runtime/abi/v8";
import { repoRoot, runtimeEntryFiles } from "../helpers.js";

test("McpError is one class whether imported from @mcpgen/runtime or @mcpgen/runtime/facades", () => {
  assert.type(root.McpError, "function");
  assert.type(root.createMcpServer, "function");
  assert.type(root.toolResult, "function");
  assert.is(root.McpError, facades.McpError);
  const fromFacades = new facades.McpError(-32602, "bad params");
  assert.ok(fromFacades instanceof root.McpError);
  assert.ok(new root.McpError(-32603, "internal") instanceof facades.McpError);
  // Not one function since ABI 8: the root's createMcpServer hands the server the legacy era itself,
  // the facades' takes it from the generated server (abi.legacyEra); both build the one McpServer.
  assert.type(facades.createMcpServer, "function");
  assert.type(abi.legacyEra.session, "function");
  assert.is(root.toolResult, facades.toolResult);
});

test("a protocol binding links the same ABI module the program imports", async () => {
  const rev = (await import("@mcpgen/runtime/protocol/2025-11-25/binding")) as { binding: { revision: string } };
  assert.is(rev.binding.revision, "2025-11-25");
  assert.is(abi.ABI_VERSION, (await import("@mcpgen/runtime/abi/v8")).ABI_VERSION);
});

const runtimeDir = join(repoRoot, "runtime");
const pkg = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")) as {
  exports: Record<string, string | { default: string }>;
};
/** exports key -> absolute path of its bundled JavaScript */
const entryFiles = runtimeEntryFiles(runtimeDir, pkg.exports);

/** Specifiers a bundled file imports statically (`import ... from`, `export ... from`, bare `import "x"`). */
function staticImports(file: string): string[] {
  const code = readFileSync(file, "utf8");
  return [...code.matchAll(/(?:^|;)\s*(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?"([^"]+)"/gm)].map((m) => m[1]!);
}

test("each exports entry is a single bundled file importing only chunks, other entries, dependencies and builtins", () => {
  const entries = new Set(entryFiles.values());
  for (const [key, file] of entryFiles) {
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) {
        const target = join(dirname(file), spec);
        const chunk = /^chunks\/[\w.-]+\.js$/.test(relative(join(runtimeDir, "dist"), target));
        assert.ok(chunk || entries.has(target), `${key} imports ${spec}, neither a shared chunk nor an exports entry`);
      } else
        assert.not.ok(
          spec.startsWith("@mcpgen/runtime"),
          `${key} imports ${spec}: the bundle must not load itself by name`,
        );
    }
    assert.match(
      readFileSync(file, "utf8"),
      /\/\/# sourceMappingURL=[\w.-]+\.js\.map\s*$/,
      `${key} links its source map`,
    );
  }
});

test("a stdio server's entries (stdio, facades, abi/v8) are one file that loads nothing else of the runtime", () => {
  const files = new Set(["./stdio", "./facades", "./abi/v8"].map((key) => entryFiles.get(key)!));
  assert.is(files.size, 1, `the stdio entries are ${[...files].map((f) => relative(runtimeDir, f)).join(", ")}`);
  const [core] = files;
  assert.is(relative(runtimeDir, core!), join("dist", "core.js"));
  assert.equal(
    staticImports(core!).filter((s) => s.startsWith(".")),
    [],
    "the core imports no other runtime file at load",
  );
  assert.not.ok(
    staticImports(core!).includes("url-template"),
    "a server only matches URI templates; url-template loads with the client",
  );
  // every name each entry declares is there (the file may export more: internal names for the chunks)
  for (const [key, mod] of [
    ["./facades", facades],
    ["./abi/v8", abi],
  ] as const) {
    for (const name of Object.keys(mod))
      assert.ok(name in root || name in abi || name in facades, `${key} exports ${name}`);
  }
});

test("the client behind facades' createMcpClient and the 2026-07-28 server path stay lazy chunks", () => {
  const chunks = join(repoRoot, "runtime", "dist", "chunks");
  const all = [
    ...readdirSync(chunks)
      .filter((f) => f.endsWith(".js"))
      .map((f) => join(chunks, f)),
    entryFiles.get("./facades")!,
  ]
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  for (const name of ["manifest-client", "modern-path"]) {
    assert.ok(
      readdirSync(chunks).some((f) => f.startsWith(`${name}-`) && f.endsWith(".js")),
      `${name} is a chunk of its own`,
    );
    assert.match(
      all,
      new RegExp(`import\\("\\./(?:chunks/)?${name}-[\\w-]+\\.js"\\)`),
      `${name} is loaded by a dynamic import`,
    );
  }
});

test("no runtime file reaches the server's task machinery: only a definition with task tools imports it", () => {
  const tasks = entryFiles.get("./tasks/server");
  assert.ok(tasks, "runtime/package.json exports ./tasks/server");
  const dist = join(runtimeDir, "dist");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith(".js") ? [join(dir, d.name)] : [],
    );
  for (const file of files(dist)) {
    if (file === tasks) continue;
    const code = readFileSync(file, "utf8");
    assert.not.match(
      code,
      /["']\.{1,2}\/(?:[\w.-]+\/)*tasks\/server\.js["']/,
      `${relative(dist, file)} imports the task machinery`,
    );
  }
});

test("a session's first message loads its validator with its era's path: legacy initialize from one chunk, 2026-07-28's server/discover from the 2026-07-28 path", () => {
  const legacy = new Set<string>();
  const chunkFiles = readdirSync(join(runtimeDir, "dist", "chunks"));
  const modernPath = chunkFiles.find((f) => /^modern-path-[\w-]+\.js$/.test(f));
  assert.ok(modernPath, "the 2026-07-28 path is a chunk");
  for (const [key, file] of entryFiles) {
    if (!/^\.\/protocol\/[^/]+\/server-side$/.test(key)) continue;
    const found = /(\binitialize|"server\/discover"):\s*\(\)\s*=>\s*import\("([^"]+)"\)/.exec(
      readFileSync(file, "utf8"),
    );
    assert.ok(found, `${key} loads a validator for the first message of a session`);
    const chunk = join(dirname(file), found![2]!);
    if (found![1] === "initialize") {
      // The core is loaded already (a server's entries are it). The chunk may be an entry's own file
      // (the newest legacy revision's `initialize`), so its imports are compared as paths.
      const core = join(runtimeDir, "dist", "core.js");
      const runtimeImports = staticImports(chunk).filter((s) => s.startsWith(".") && join(dirname(chunk), s) !== core);
      assert.equal(runtimeImports, [], `${relative(runtimeDir, chunk)} imports nothing of the runtime but the core`);
      legacy.add(chunk);
    } else {
      assert.is(
        relative(join(runtimeDir, "dist", "chunks"), chunk),
        modernPath,
        `${key}'s server/discover validator is in the 2026-07-28 path`,
      );
    }
  }
  assert.is(legacy.size, 1, "one chunk for every legacy revision's initialize");
  assert.not.ok(
    [...legacy].some((f) => f.includes("modern-path")),
    "a legacy session never loads the 2026-07-28 path",
  );
  // the folder's package scope says what the package says (Node stops its walk there), its
  // "imports" too, each target relative to that folder and naming the same file
  const pkgImports = (
    JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")) as {
      imports: Record<string, Record<string, string>>;
    }
  ).imports;
  for (const dir of [join(runtimeDir, "dist"), join(runtimeDir, "dist", "chunks")]) {
    const scope = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      imports: Record<string, Record<string, string>>;
    };
    assert.equal({ ...scope, imports: undefined }, { type: "module", sideEffects: false, imports: undefined });
    assert.equal(Object.keys(scope.imports), Object.keys(pkgImports));
    for (const [key, conditions] of Object.entries(pkgImports)) {
      const expected = Object.entries(conditions).filter(([c]) => c !== "types");
      assert.equal(
        Object.entries(scope.imports[key]!).map(([c, t]) => [c, join(dir, t)]),
        expected.map(([c, t]) => [c, join(runtimeDir, t)]),
        `${key} in ${relative(runtimeDir, dir)}/package.json`,
      );
      for (const [, t] of expected) assert.ok(existsSync(join(runtimeDir, t)), `${t} is built`);
    }
  }
});

test.run();
