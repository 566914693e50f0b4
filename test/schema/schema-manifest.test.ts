import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readSchemaManifest, verifyBundledFile } from "../../generator/load/schema-manifest.js";
import { repoRoot, revisions } from "../helpers.js";

const schemaDir = join(repoRoot, "schema");
const manifest = readSchemaManifest();

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

test("manifest lists the five bundled revisions and the upstream commit", () => {
  assert.equal(manifest.revisions, [...revisions]);
  assert.match(manifest.upstream.commit, /^[0-9a-f]{40}$/);
  assert.match(manifest.upstream.repository, /modelcontextprotocol\/modelcontextprotocol$/);
  for (const rev of revisions) assert.ok(manifest.files[`${rev}/schema.json`], `${rev}/schema.json listed`);
  assert.ok(
    Object.keys(manifest.files).some((f) => f.startsWith("2026-07-28/examples/")),
    "examples listed",
  );
});

test("every listed file exists with the recorded sha256 and size", () => {
  for (const [rel, entry] of Object.entries(manifest.files)) {
    const bytes = readFileSync(join(schemaDir, rel));
    assert.is(bytes.length, entry.bytes, `${rel} size`);
    assert.is(createHash("sha256").update(bytes).digest("hex"), entry.sha256, `${rel} sha256`);
  }
});

test("no unlisted file under schema/", () => {
  const allowedTop = new Set(["manifest.json", "manifest.schema.json", ...revisions.map((r) => `methods.${r}.json`)]);
  for (const abs of walk(schemaDir)) {
    const rel = relative(schemaDir, abs).split("\\").join("/");
    if (!rel.includes("/")) assert.ok(allowedTop.has(rel), `unexpected file schema/${rel}`);
    else assert.ok(manifest.files[rel], `schema/${rel} is not listed in schema/manifest.json`);
  }
});

test("a one-byte change of a bundled file is rejected with the manifest pointer", () => {
  const bytes = Buffer.from(readFileSync(join(schemaDir, "2025-06-18/schema.json")));
  assert.ok(verifyBundledFile("2025-06-18/schema.json", bytes));
  bytes[10] = bytes[10]! ^ 1;
  assert.throws(
    () => verifyBundledFile("2025-06-18/schema.json", bytes),
    /schema\/manifest\.json at \/files\/2025-06-18~1schema\.json/,
  );
});

test.run();
