// A comment or document that cites a section of a Markdown file (`limits.md §2`) cites a file this
// repository holds: notes kept elsewhere are not there for a reader of the code, so the protocol is
// cited by its specification URL (https://modelcontextprotocol.io/specification/<revision>/...).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "../helpers.js";

/** Where the project's own prose and code live; generated and installed trees are not read. */
const roots = ["generator", "bin", join("runtime", "src"), "test", "bench", "examples", "templates", "docs"];
const readmes = ["README.md", join("runtime", "README.md")];
const skippedDirs = new Set(["node_modules", "dist", "build", "golden", ".git"]);
const readable = /\.(ts|mts|mjs|js|hbs|md)$/;

/** `name.md §N`, `dir/name.md §N.M`, `name.md§N`: the file part of every section citation. */
const citation = /([\w./-]*[\w-]\.md) ?§/g;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skippedDirs.has(name) ? [] : files(path);
    return readable.test(name) ? [path] : [];
  });
}

/** Every Markdown file of the repository by its base name (what a bare `limits.md §` means). */
function markdownNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!skippedDirs.has(name)) walk(path);
      } else if (name.endsWith(".md")) names.add(name);
    }
  };
  walk(repoRoot);
  return names;
}

/** The citations in `text` of Markdown files that neither `names` nor a path from `dir` or the root finds. */
function missingCitations(text: string, dir: string, names: Set<string>): string[] {
  const missing: string[] = [];
  for (const m of text.matchAll(citation)) {
    const cited = m[1]!;
    const found = cited.includes("/")
      ? existsSync(join(dir, cited)) || existsSync(join(repoRoot, cited))
      : names.has(basename(cited));
    if (!found) missing.push(cited);
  }
  return missing;
}

test("the citation pattern finds a note that is not in the repository", () => {
  const names = new Set(["limits.md"]);
  assert.equal(missingCitations("// see features.md §9 and limits.md §2", repoRoot, names), ["features.md"]);
  assert.equal(missingCitations(" * (shared/spec-notes/lifecycle.md§12.2)", repoRoot, names), [
    "shared/spec-notes/lifecycle.md",
  ]);
  assert.equal(missingCitations("docs/limits.md lists it; README.md is long", repoRoot, names), []);
});

test("every `<name>.md §` citation names a Markdown file of the repository", () => {
  const names = markdownNames();
  const problems: string[] = [];
  const self = join(repoRoot, "test", "packages", "note-citations.test.ts"); // its samples cite missing notes on purpose
  const all = [...roots.flatMap((root) => files(join(repoRoot, root))), ...readmes.map((f) => join(repoRoot, f))];
  for (const file of all) {
    if (file === self) continue;
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      for (const cited of missingCitations(line, dirname(file), names)) {
        problems.push(`${relative(repoRoot, file)}:${i + 1} cites ${cited}, which is not in the repository`);
      }
    });
  }
  assert.equal(problems, [], problems.join("\n"));
});

test.run();
