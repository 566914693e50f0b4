// Given/want fixtures of code-first extraction: test/fixtures/extract/<case>/given.ts is the
// handlers module, want.json the manifest `mcpgen extract` writes for it (plus want-warnings.txt
// when it warns); error-<form>/want-error.txt is the full error report. All cases share one
// ts-morph project so lib files are parsed once. MCPGEN_UPDATE_FIXTURES=1 rewrites the wants.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import prettier from "prettier";
import { extractFrom } from "../../generator/extract/index.js";
import { newProject } from "../../generator/extract/project.js";
import { formatDiagnostic } from "../../generator/load/diagnostics.js";
import { McpgenError } from "../../generator/errors.js";
import { repoRoot } from "../helpers.js";

const dir = join(repoRoot, "test", "fixtures", "extract");
const cases = readdirSync(dir).sort();
const update = process.env.MCPGEN_UPDATE_FIXTURES === "1";
const project = newProject(undefined, dir);
for (const c of cases) project.addSourceFileAtPath(join(dir, c, "given.ts"));
project.resolveSourceFileDependencies();

function compare(path: string, actual: string): void {
  if (update) {
    if (actual === "") rmSync(path, { force: true });
    else writeFileSync(path, actual);
    return;
  }
  const want = existsSync(path) ? readFileSync(path, "utf8") : "";
  assert.fixture(actual, want, path);
}

test("every form of the issue has a fixture, and every unsupported form an error fixture", () => {
  for (const c of [
    "primitives",
    "literal-unions",
    "optional-defaults",
    "arrays",
    "tuples",
    "nested",
    "recursive",
    "record",
    "unions",
    "discriminated",
    "date",
    "branded",
  ])
    assert.ok(cases.includes(c), c);
  for (const c of ["error-function", "error-class", "error-any", "error-generic"]) assert.ok(cases.includes(c), c);
});

for (const c of cases) {
  test(c, async () => {
    const file = project.getSourceFileOrThrow(join(dir, c, "given.ts"));
    const options = { cwd: repoRoot, name: c, version: "1.0.0" };
    if (c.startsWith("error-")) {
      let message = "";
      try {
        await extractFrom(project, file, options);
      } catch (e) {
        if (!(e instanceof McpgenError)) throw e;
        message = e.message + "\n";
      }
      assert.ok(message !== "", `${c}: extraction should fail`);
      assert.match(message, `test/fixtures/extract/${c}/given.ts:`);
      compare(join(dir, c, "want-error.txt"), message);
      return;
    }
    const r = await extractFrom(project, file, options);
    compare(join(dir, c, "want.json"), r.text);
    compare(join(dir, c, "want-warnings.txt"), r.warnings.map((w) => formatDiagnostic(w) + "\n").join(""));
  });
}

test("every extracted manifest is laid out as prettier prints it (the layout does not load prettier)", async () => {
  const wants = cases.filter((c) => existsSync(join(dir, c, "want.json"))).map((c) => join(dir, c, "want.json"));
  assert.ok(wants.length >= 16);
  for (const path of [...wants, join(repoRoot, "examples", "notes", "code-first", "mcp.manifest.json")]) {
    const text = readFileSync(path, "utf8");
    assert.is(await prettier.format(text, { parser: "json", printWidth: 120 }), text, path);
  }
});

test("the layout matches prettier on large JSON too (the bundled MCP schemas, package-lock.json)", async () => {
  const { layoutJson } = await import("../../generator/extract/json-layout.js");
  for (const rel of ["schema/2025-11-25/schema.json", "schema/manifest.schema.json", "package-lock.json"]) {
    const value = JSON.parse(readFileSync(join(repoRoot, rel), "utf8")) as unknown;
    assert.is(
      layoutJson(value),
      await prettier.format(JSON.stringify(value), { parser: "json", printWidth: 120 }),
      rel,
    );
  }
  assert.is(
    layoutJson({ n: Array.from({ length: 60 }, (_, i) => i * 1000) }),
    await prettier.format(JSON.stringify({ n: Array.from({ length: 60 }, (_, i) => i * 1000) }), {
      parser: "json",
      printWidth: 120,
    }),
  );
});

test("extraction is deterministic: the same module twice gives the same bytes", async () => {
  const file = project.getSourceFileOrThrow(join(dir, "recursive", "given.ts"));
  const a = await extractFrom(project, file, { cwd: repoRoot, name: "x" });
  const fresh = newProject(undefined, dir);
  const b = await extractFrom(fresh, fresh.addSourceFileAtPath(join(dir, "recursive", "given.ts")), {
    cwd: repoRoot,
    name: "x",
  });
  assert.is(a.text, b.text);
});

test.run();
