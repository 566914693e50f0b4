// What `@mcpgen/runtime` (the root entry, runtime/src/index.ts) exports is what
// docs/runtime-entries.md lists: its values (as the bundled package exports them), its types by
// name, and the modules whose every type it re-exports. A new root export is a deliberate act:
// it is added to the list too, or this fails (and so does one the list keeps after it left).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import ts from "typescript-5";
import * as root from "@mcpgen/runtime";
import { repoRoot } from "../helpers.js";

const doc = readFileSync(join(repoRoot, "docs", "runtime-entries.md"), "utf8");

/** The words of the fenced block tagged `tag` (```text <tag>) in the document. */
function listed(tag: string): string[] {
  const block = new RegExp("^```text " + tag + "\\n([\\s\\S]*?)^```", "m").exec(doc);
  assert.ok(block, `docs/runtime-entries.md has a \`\`\`text ${tag} block`);
  return block[1]!.split(/\s+/).filter(Boolean).sort();
}

/** The named type exports of index.ts and the modules it re-exports every type of (`export type *`). */
function declaredTypes(): { names: string[]; modules: string[] } {
  const file = join(repoRoot, "runtime", "src", "index.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  const modules: string[] = [];
  for (const s of source.statements) {
    if (!ts.isExportDeclaration(s)) continue;
    const from = s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : "";
    if (s.exportClause === undefined) {
      assert.ok(s.isTypeOnly, `index.ts: \`export * from "${from}"\` exports values nobody listed; name them`);
      modules.push(from.replace(/^\.\//, "").replace(/\.js$/, ".ts"));
    } else if (ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) if (s.isTypeOnly || e.isTypeOnly) names.push(e.name.text);
    }
  }
  return { names: names.sort(), modules: modules.sort() };
}

test("the root's values are the documented ones", () => {
  assert.equal(Object.keys(root).sort(), listed("root-values"));
});

test("the root's types are the documented ones", () => {
  const { names, modules } = declaredTypes();
  assert.equal(names, listed("root-types"));
  assert.equal(modules, listed("root-type-modules"));
});

test.run();
