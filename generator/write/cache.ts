import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
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

/** Hash of the generator's compiled code, its templates, the reviewed overlays and the formatter version. */
function generatorFingerprint(): string {
  fingerprint ??= fingerprintOf({
    generator: dirname(dirname(fileURLToPath(import.meta.url))),
    // join, not templates.ts (importing it loads handlebars, which a cache hit never needs).
    templates: join(packageRoot, "templates"),
    schema: join(packageRoot, "schema"),
    nodeModules: join(packageRoot, "node_modules"),
  });
  return fingerprint;
}

/** Where the inputs of generatorFingerprint live (separate so a test can point them elsewhere). */
export interface FingerprintInputs {
  readonly generator: string;
  readonly templates: string;
  readonly schema: string;
  readonly nodeModules: string;
}

/**
 * The templates are part of it: they shape every emitted file, and a template edited without a
 * version change (a maintainer's working copy, a patched install) must not be served stale output.
 */
export function fingerprintOf(inputs: FingerprintInputs): string {
  const hash = createHash("sha256").update(`mcpgen ${mcpgenVersion}\n`);
  const walk = (dir: string, rel: string, keep: RegExp) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs, `${rel}${name}/`, keep);
      else if (keep.test(name)) hash.update(`${rel}${name}\n`).update(readFileSync(abs));
    }
  };
  walk(inputs.generator, "generator/", /\.(js|json)$/);
  walk(inputs.templates, "templates/", /\.hbs$/);
  for (const name of readdirSync(inputs.schema).sort()) {
    if (/^methods\..+\.json$/.test(name))
      hash.update(`schema/${name}\n`).update(readFileSync(join(inputs.schema, name)));
  }
  for (const dep of ["prettier", "ajv", "json-schema-to-typescript"]) {
    try {
      const pkg = readFileSync(join(inputs.nodeModules, dep, "package.json"), "utf8");
      hash.update(`${dep} ${(JSON.parse(pkg) as { version: string }).version}\n`);
    } catch {
      hash.update(`${dep} ?\n`);
    }
  }
  return hash.digest("hex");
}

export function cacheKey(parts: { sha256: string; display: string; revision: string | undefined }): string {
  return createHash("sha256")
    .update(JSON.stringify([generatorFingerprint(), parts.sha256, parts.display, parts.revision ?? null]))
    .digest("hex");
}

/** A hit refreshes the entry's modification time: mtime is the recency the eviction orders by. */
export function readCache(cacheDir: string, key: string): CacheEntry | undefined {
  const path = join(cacheDir, `${key}.json`);
  try {
    const entry = JSON.parse(readFileSync(path, "utf8")) as CacheEntry;
    if (typeof entry.revision === "string" && Array.isArray(entry.files) && Array.isArray(entry.warnings)) {
      touch(path);
      return entry;
    }
  } catch {
    // missing or unreadable: a miss
  }
  return undefined;
}

/** How much the cache may hold; least recently used entries go first when either bound is passed. */
export interface CacheLimits {
  entries: number;
  bytes: number;
}

const defaultCacheLimits: CacheLimits = { entries: 32, bytes: 64 * 1024 * 1024 };

/** Best effort: a cache that cannot be written only costs speed. */
export function writeCache(
  cacheDir: string,
  key: string,
  entry: CacheEntry,
  limits: CacheLimits = defaultCacheLimits,
): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = join(cacheDir, `.${key}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(entry));
    renameSync(tmp, join(cacheDir, `${key}.json`));
    evict(cacheDir, `${key}.json`, limits);
  } catch {
    // ignored on purpose
  }
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a read-only cache still serves hits
  }
}

/** Keeps the most recently used entries within both bounds; the entry just written always stays. */
function evict(cacheDir: string, keep: string, limits: CacheLimits): void {
  const entries = readdirSync(cacheDir)
    .filter((n) => /^[0-9a-f]{64}\.json$/.test(n))
    .map((n) => {
      const st = statSync(join(cacheDir, n));
      return { n, t: n === keep ? Infinity : st.mtimeMs, size: st.size };
    })
    .sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : 1));
  let bytes = 0;
  entries.forEach((e, i) => {
    bytes += e.size;
    if (e.n !== keep && (i >= limits.entries || bytes > limits.bytes)) rmSync(join(cacheDir, e.n), { force: true });
  });
}
