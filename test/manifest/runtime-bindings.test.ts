// The bundled revisions' bindings ship once, in @mcpgen/runtime/protocol/<rev>, and a manifest's
// output imports them from there and states the runtime ABI it needs.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import ts from "typescript-5";
import { ABI_VERSION } from "@mcpgen/runtime/abi/v8";
import { RUNTIME_ABI } from "../../generator/emit/runtime-imports.js";
import { generate } from "../../generator/generate.js";
import { bundledRevisions } from "../../generator/load/schema-manifest.js";
import { repoRoot, tempDir } from "../helpers.js";

test("the generator emits for the runtime's ABI, and the runtime exports every bundled revision", () => {
  assert.is(RUNTIME_ABI, ABI_VERSION);
  const pkg = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as {
    exports: Record<string, unknown>;
  };
  const protocolEntries = Object.keys(pkg.exports)
    .filter((k) => k.startsWith("./protocol/"))
    .sort();
  assert.equal(
    protocolEntries,
    bundledRevisions()
      .flatMap((r) => [
        `./protocol/${r}`,
        `./protocol/${r}/binding`,
        `./protocol/${r}/methods`,
        `./protocol/${r}/server-side`,
        `./protocol/${r}/server-side/*`,
        `./protocol/${r}/client-side`,
      ])
      // the generated server's loaders of every revision: static imports under the bundlers' conditions
      .concat("./protocol/server-load")
      .sort(),
  );
});

test("each @mcpgen/runtime/protocol/<rev> entry is that revision's binding, and <rev>/methods its method table", async () => {
  for (const rev of bundledRevisions()) {
    const mod = (await import(`@mcpgen/runtime/protocol/${rev}`)) as {
      binding: { revision: string; methods: Record<string, unknown> };
    };
    assert.is(mod.binding.revision, rev);
    assert.ok(Object.keys(mod.binding.methods).length > 0, `${rev} has methods`);
    const methods = (await import(`@mcpgen/runtime/protocol/${rev}/methods`)) as {
      revision: string;
      methods: Record<string, unknown>;
    };
    assert.is(methods.revision, rev);
    assert.is(methods.methods, mod.binding.methods, `${rev}: one method table`);
  }
});

test("a generated project resolves its bindings from the installed runtime, and copies none", async () => {
  const { dir, cleanup } = tempDir("mcpgen-bindings-");
  try {
    const out = join(dir, "src", "mcp");
    await generate({
      cwd: dir,
      manifest: join(repoRoot, "examples", "weather", "mcp.manifest.json"),
      out,
      cache: false,
    });
    // Each role's list is in its own facade (server.ts, client.ts); bindings.ts has both roles'.
    // The client and bindings.ts name one entry per revision; the server names each revision's
    // table and the validators it serves (`server-side/table`, `server-side/params/<method>`), one
    // loader each, from the loaders of every revision's server entries (`protocol/server-load`).
    const roleOf = { "client.ts": "client-side", "bindings.ts": "methods" } as const;
    const protocol: string[] = [];
    const entry = /^@mcpgen\/runtime\/protocol\/([^/]+)\/(client-side|methods)$/;
    const lists = new Map<string, string[]>();
    const specifiersOf = (file: string) => {
      const text = readFileSync(join(out, file), "utf8");
      const specifiers = [...text.matchAll(/(?:from |import\()"([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(
        specifiers.filter((s) => s.startsWith(".")).every((s) => ["./definition.js", "./types.js"].includes(s)),
        `${file} imports from the output folder only its definition and types`,
      );
      return { text, found: specifiers.filter((s) => s.startsWith("@mcpgen/runtime/protocol/")) };
    };
    for (const [file, role] of Object.entries(roleOf)) {
      const { found } = specifiersOf(file);
      assert.ok(
        found.every((s) => entry.exec(s)?.[2] === role),
        `${file} reaches each revision only through its ${role} entry`,
      );
      lists.set(
        file,
        found.map((s) => entry.exec(s)![1]!),
      );
      protocol.push(...found);
    }
    const server = specifiersOf("server.ts");
    assert.equal(
      server.found,
      ["@mcpgen/runtime/protocol/server-load"],
      "server.ts reaches the revisions only through their loaders",
    );
    lists.set(
      "server.ts",
      [...server.text.matchAll(/\bload\s*\.table_(\d{4})_(\d\d)_(\d\d)\(\)/g)].map((m) => `${m[1]}-${m[2]}-${m[3]}`),
    );
    // One entry per revision and role, the same revisions in the same order in every list.
    const spoken = lists.get("bindings.ts")!;
    assert.ok(spoken.length > 0);
    assert.equal(lists.get("server.ts"), spoken);
    assert.equal(lists.get("client.ts"), spoken);
    // as installed: node_modules/@mcpgen/runtime in the user's project
    mkdirSync(join(dir, "node_modules", "@mcpgen"), { recursive: true });
    symlinkSync(join(repoRoot, "runtime"), join(dir, "node_modules", "@mcpgen", "runtime"), "dir");
    const require = createRequire(join(out, "bindings.js"));
    for (const s of protocol) {
      const [, rev, role] = entry.exec(s)!;
      const resolved = require.resolve(s).split("\\").join("/");
      assert.ok(resolved.endsWith(`runtime/dist/protocol/${rev}/${role}.js`), resolved);
    }
    const loads = require.resolve("@mcpgen/runtime/protocol/server-load").split("\\").join("/");
    assert.ok(loads.endsWith("runtime/dist/protocol/shared/server-side/load.js"), loads);
    const listed = readFileSync(join(out, "README.md"), "utf8");
    assert.not.match(listed, /protocol\/<revision>\/`/);
  } finally {
    cleanup();
  }
});

/** Generates the weather example into `dir`/gen and transpiles its facades and bindings to JavaScript there. */
async function generatedJs(dir: string): Promise<string> {
  const out = join(dir, "gen");
  await generate({ cwd: dir, manifest: join(repoRoot, "examples", "weather", "mcp.manifest.json"), out, cache: false });
  for (const file of ["server.ts", "client.ts", "bindings.ts", "definition.ts", "lists.ts"]) {
    const js = ts.transpileModule(readFileSync(join(out, file), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    }).outputText;
    writeFileSync(join(out, file.replace(/\.ts$/, ".js")), js);
  }
  return out;
}

/**
 * A fake installed runtime: `abi.js` below node_modules/@mcpgen/runtime, exported as `entry`, beside
 * the loaders the generated server imports (`protocol/server-load`, called only once a connection
 * uses a revision: empty here).
 */
function fakeRuntime(dir: string, entry: string, abiJs: string): void {
  const runtime = join(dir, "node_modules", "@mcpgen", "runtime");
  mkdirSync(runtime, { recursive: true });
  writeFileSync(
    join(runtime, "package.json"),
    JSON.stringify({
      name: "@mcpgen/runtime",
      type: "module",
      exports: {
        [entry]: "./abi.js",
        "./protocol/server-load": "./load.js",
      },
    }),
  );
  writeFileSync(join(runtime, "abi.js"), abiJs);
  writeFileSync(join(runtime, "load.js"), "export {};\n");
}

async function startError(file: string): Promise<Error> {
  try {
    await import(pathToFileURL(file).href);
  } catch (e) {
    assert.instance(e, Error, file);
    return e as Error;
  }
  throw new Error(`${file} started against a runtime of another ABI`);
}

const abiJs = (version: number) =>
  `export const ABI_VERSION = ${version};\nexport function lazyRevision() { return {}; }\nexport function createMcpServer() {}\nexport function createMcpClient() {}\n`;

test("an output started against a runtime without its ABI fails to resolve the entry that names it", async () => {
  // an older runtime (ABI 6 had "./abi") and a newer one that dropped ABI 8
  for (const entry of ["./abi", `./abi/v${RUNTIME_ABI + 1}`]) {
    const { dir, cleanup } = tempDir("mcpgen-abi-");
    try {
      fakeRuntime(dir, entry, abiJs(RUNTIME_ABI + 1));
      const out = await generatedJs(dir);
      for (const file of ["server.js", "client.js", "bindings.js"]) {
        const error = await startError(join(out, file));
        assert.is((error as Error & { code?: string }).code, "ERR_PACKAGE_PATH_NOT_EXPORTED", file);
        assert.match(error.message, `./abi/v${RUNTIME_ABI}`, file);
      }
    } finally {
      cleanup();
    }
  }
});

test("an output started against a build that serves its ABI entry with another ABI fails with a message saying what to do", async () => {
  const { dir, cleanup } = tempDir("mcpgen-abi-");
  try {
    fakeRuntime(dir, `./abi/v${RUNTIME_ABI}`, abiJs(RUNTIME_ABI + 1));
    const out = await generatedJs(dir);
    for (const file of ["server.js", "client.js", "bindings.js"]) {
      const error = await startError(join(out, file));
      assert.match(
        error.message,
        `generated for @mcpgen/runtime ABI ${RUNTIME_ABI}, but the installed @mcpgen/runtime has ABI ${RUNTIME_ABI + 1}:`,
        file,
      );
      assert.match(error.message, /regenerate/);
    }
  } finally {
    cleanup();
  }
});

test.run();
