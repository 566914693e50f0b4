// Given/want fixtures of code-first extraction: test/fixtures/extract/<case>/given.ts is the
// handlers module, want.json the manifest `mcpgen extract` writes for it (plus want-warnings.txt
// when it warns); error-<form>/want-error.txt is the full error report. All cases share one
// ts-morph project so lib files are parsed once. MCPGEN_UPDATE_FIXTURES=1 rewrites the wants.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractFrom } from "../../generator/extract/index.js";
import { newProject } from "../../generator/extract/project.js";
import { formatDiagnostic } from "../../generator/load/diagnostics.js";
import { McpgenError } from "../../generator/errors.js";
import { repoRoot } from "../helpers.js";

const dir = join(repoRoot, "test", "fixtures", "extract");
const cases = readdirSync(dir).sort();
const update = process.env.MCPGEN_UPDATE_FIXTURES === "1";
const project = newProject(undefined);
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
  for (const c of ["primitives", "literal-unions", "optional-defaults", "arrays", "tuples", "nested", "recursive", "record", "unions", "discriminated", "date", "branded"]) assert.ok(cases.includes(c), c);
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

test("extraction is deterministic: the same module twice gives the same bytes", async () => {
  const file = project.getSourceFileOrThrow(join(dir, "recursive", "given.ts"));
  const a = await extractFrom(project, file, { cwd: repoRoot, name: "x" });
  const fresh = newProject(undefined);
  const b = await extractFrom(fresh, fresh.addSourceFileAtPath(join(dir, "recursive", "given.ts")), { cwd: repoRoot, name: "x" });
  assert.is(a.text, b.text);
});

test.run();
