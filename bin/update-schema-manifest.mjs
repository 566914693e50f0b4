#!/usr/bin/env node
// Rewrites schema/manifest.json from the files under schema/<revision>/ after a deliberate,
// reviewed update of the vendored upstream schemas. Usage:
//   npm run schema:manifest -- <upstream commit> <upstream commit date>
// The schema manifest test fails whenever these files and the manifest disagree.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const schemaDir = fileURLToPath(new URL("../schema/", import.meta.url));
const previous = JSON.parse(readFileSync(join(schemaDir, "manifest.json"), "utf8"));
const [commit = previous.upstream.commit, date = previous.upstream.date] = process.argv.slice(2);
const revisions = readdirSync(schemaDir)
  .filter((n) => /^\d{4}-\d{2}-\d{2}$/.test(n) && statSync(join(schemaDir, n)).isDirectory())
  .sort();

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

const files = {};
for (const rev of revisions) {
  for (const path of walk(join(schemaDir, rev))) {
    const bytes = readFileSync(path);
    const key = relative(schemaDir, path).split("\\").join("/");
    files[key] = { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
  }
}
const manifest = { ...previous, upstream: { ...previous.upstream, commit, date }, revisions, files };
writeFileSync(join(schemaDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`schema/manifest.json: ${revisions.length} revisions, ${Object.keys(files).length} files`);
