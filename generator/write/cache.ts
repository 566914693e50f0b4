import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EmittedFile } from "../model/ir.js";
import { mcpgenVersion, packageRoot } from "../paths.js";

/**
 * Output cache keyed by everything the output depends on: the input bytes, how the input is
 * named (it is in the banner), the revision override, mcpgen's version and the generator's own
 * code and overlays (so a changed emitter never serves stale output during development).
 */
export interface CacheEntry {
  revision: string;
  warnings: string[];
  files: EmittedFile[];
}

let fingerprint: string | undefined;

/** Hash of the generator's compiled code, the reviewed overlays and the formatter version. */
export function generatorFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash("sha256").update(`mcpgen ${mcpgenVersion}\n`);
  const generatorDir = dirname(dirname(fileURLToPath(import.meta.url)));
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs, `${rel}${name}/`);
      else if (/\.(js|json)$/.test(name)) hash.update(`${rel}${name}\n`).update(readFileSync(abs));
    }
  };
  walk(generatorDir, "generator/");
  const schemaDir = join(packageRoot, "schema");
  for (const name of readdirSync(schemaDir).sort()) {
    if (/^methods\..+\.json$/.test(name)) hash.update(`schema/${name}\n`).update(readFileSync(join(schemaDir, name)));
  }
  for (const dep of ["prettier", "ajv", "json-schema-to-typescript"]) {
    try {
      const pkg = readFileSync(join(packageRoot, "node_modules", dep, "package.json"), "utf8");
      hash.update(`${dep} ${(JSON.parse(pkg) as { version: string }).version}\n`);
    } catch {
      hash.update(`${dep} ?\n`);
    }
  }
  fingerprint = hash.digest("hex");
  return fingerprint;
}

export function cacheKey(parts: { sha256: string; display: string; revision: string | undefined }): string {
  return createHash("sha256")
    .update(JSON.stringify([generatorFingerprint(), parts.sha256, parts.display, parts.revision ?? null]))
    .digest("hex");
}

export function readCache(cacheDir: string, key: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(join(cacheDir, `${key}.json`), "utf8")) as CacheEntry;
    if (typeof entry.revision === "string" && Array.isArray(entry.files) && Array.isArray(entry.warnings)) return entry;
  } catch {
    // missing or unreadable: a miss
  }
  return undefined;
}

/** Entries kept; older ones (by modification time) are removed when a new one is written. */
const keepEntries = 32;

/** Best effort: a cache that cannot be written only costs speed. */
export function writeCache(cacheDir: string, key: string, entry: CacheEntry): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = join(cacheDir, `.${key}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(entry));
    renameSync(tmp, join(cacheDir, `${key}.json`));
    const entries = readdirSync(cacheDir)
      .filter((n) => /^[0-9a-f]{64}\.json$/.test(n))
      .map((n) => ({ n, t: statSync(join(cacheDir, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : 1));
    for (const { n } of entries.slice(keepEntries)) rmSync(join(cacheDir, n), { force: true });
  } catch {
    // ignored on purpose
  }
}
