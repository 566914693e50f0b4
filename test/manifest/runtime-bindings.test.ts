// The bundled revisions' bindings ship once, in @mcpgen/runtime/protocol/<rev>, and a manifest's
// output imports them from there and states the runtime ABI it needs.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import ts from "typescript-5";
import { ABI_VERSION } from "@mcpgen/runtime/abi";
import { bindingsModule, RUNTIME_ABI } from "../../generator/emit/bindings.js";
import { generate } from "../../generator/generate.js";
import { bundledRevisions } from "../../generator/load/schema-manifest.js";
import { repoRoot, tempDir } from "../helpers.js";

test("the generator emits for the runtime's ABI, and the runtime exports every bundled revision", () => {
  assert.is(RUNTIME_ABI, ABI_VERSION);
  const pkg = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as { exports: Record<string, unknown> };
  const protocolEntries = Object.keys(pkg.exports).filter((k) => k.startsWith("./protocol/")).sort();
  assert.equal(protocolEntries, bundledRevisions().flatMap((r) => [`./protocol/${r}`, `./protocol/${r}/binding`, `./protocol/${r}/methods`, `./protocol/${r}/server-side`, `./protocol/${r}/client-side`]).sort());
});

test("each @mcpgen/runtime/protocol/<rev> entry is that revision's binding, and <rev>/methods its method table", async () => {
  for (const rev of bundledRevisions()) {
    const mod = (await import(`@mcpgen/runtime/protocol/${rev}`)) as { binding: { revision: string; methods: Record<string, unknown> } };
    assert.is(mod.binding.revision, rev);
    assert.ok(Object.keys(mod.binding.methods).length > 0, `${rev} has methods`);
    const methods = (await import(`@mcpgen/runtime/protocol/${rev}/methods`)) as { revision: string; methods: Record<string, unknown> };
    assert.is(methods.revision, rev);
    assert.is(methods.methods, mod.binding.methods, `${rev}: one method table`);
  }
});

test("a generated project resolves its bindings from the installed runtime, and copies none", async () => {
  const { dir, cleanup } = tempDir("mcpgen-bindings-");
  try {
    const out = join(dir, "src", "mcp");
    await generate({ cwd: dir, manifest: join(repoRoot, "examples", "weather", "mcp.manifest.json"), out, cache: false });
    const files = readFileSync(join(out, "bindings.ts"), "utf8");
    const specifiers = [...files.matchAll(/(?:from |import\()"([^"]+)"/g)].map((m) => m[1]!);
    assert.equal(specifiers.filter((s) => s.startsWith(".")), [], "nothing imported from inside the output folder");
    const protocol = specifiers.filter((s) => s.startsWith("@mcpgen/runtime/protocol/"));
    const entry = /^@mcpgen\/runtime\/protocol\/([^/]+)\/(server-side|client-side|methods)$/;
    assert.ok(protocol.every((s) => entry.test(s)), "validators are reached through each revision's method table (a role's loaders, or both)");
    // One entry per revision and role: the server's bindings never name a client-side entry.
    const spoken = [...new Set(protocol.map((s) => entry.exec(s)![1]!))];
    assert.ok(spoken.length > 0);
    for (const role of ["server-side", "client-side", "methods"]) {
      assert.equal(protocol.filter((s) => s.endsWith(`/${role}`)).map((s) => entry.exec(s)![1]), spoken, role);
    }
    const serverPart = files.slice(files.indexOf("export const serverBindings"), files.indexOf("export const clientBindings"));
    assert.not.match(serverPart, /import\("[^"]*(?:client-side|\/methods)"\)/, "serverBindings reach only server-side entries");
    // as installed: node_modules/@mcpgen/runtime in the user's project
    mkdirSync(join(dir, "node_modules", "@mcpgen"), { recursive: true });
    symlinkSync(join(repoRoot, "runtime"), join(dir, "node_modules", "@mcpgen", "runtime"), "dir");
    const require = createRequire(join(out, "bindings.js"));
    for (const s of protocol) {
      const [, rev, role] = entry.exec(s)!;
      const resolved = require.resolve(s).split("\\").join("/");
      assert.ok(resolved.endsWith(`runtime/dist/protocol/${rev}/${role}.js`), resolved);
    }
    const listed = readFileSync(join(out, "README.md"), "utf8");
    assert.not.match(listed, /protocol\/<revision>\/`/);
  } finally {
    cleanup();
  }
});

test("an output started against a runtime of another ABI fails at start with a message saying what to do", async () => {
  const { dir, cleanup } = tempDir("mcpgen-abi-");
  try {
    const runtime = join(dir, "node_modules", "@mcpgen", "runtime");
    mkdirSync(runtime, { recursive: true });
    const revs = ["2025-06-18"];
    writeFileSync(
      join(runtime, "package.json"),
      JSON.stringify({ name: "@mcpgen/runtime", type: "module", exports: { "./abi": "./abi.js", "./protocol/2025-06-18": "./binding.js" } }),
    );
    writeFileSync(join(runtime, "abi.js"), `export const ABI_VERSION = ${RUNTIME_ABI + 1};\n`);
    writeFileSync(join(runtime, "binding.js"), `export const binding = { revision: "2025-06-18" };\n`);
    const source = bindingsModule(revs).contents;
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } }).outputText;
    writeFileSync(join(dir, "bindings.mjs"), js);
    let error: unknown;
    try {
      await import(pathToFileURL(join(dir, "bindings.mjs")).href);
    } catch (e) {
      error = e;
    }
    assert.instance(error, Error);
    assert.match(
      (error as Error).message,
      `generated for @mcpgen/runtime ABI ${RUNTIME_ABI}, but the installed @mcpgen/runtime has ABI ${RUNTIME_ABI + 1}`,
    );
    assert.match((error as Error).message, /regenerate/);
  } finally {
    cleanup();
  }
});

test.run();
