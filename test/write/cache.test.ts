import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fingerprintOf, readCache, writeCache, type CacheEntry } from "../../generator/write/cache.js";
import { tempDir } from "../helpers.js";

const key = (n: number) => n.toString(16).padStart(64, "0");
const entry = (size: number): CacheEntry => ({
  revision: "r",
  warnings: [],
  files: [{ path: "a.ts", contents: "x".repeat(size) }],
});
const keys = (dir: string) => readdirSync(dir).sort();
/** Sets an entry's recency explicitly: file times have coarse resolution on some file systems. */
const age = (dir: string, n: number, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(join(dir, `${key(n)}.json`), t, t);
};

test("cache: the fingerprint changes when a template or the generator's code changes", () => {
  const { dir, cleanup } = tempDir("mcpgen-fingerprint-");
  try {
    const inputs = {
      generator: join(dir, "generator"),
      templates: join(dir, "templates"),
      schema: join(dir, "schema"),
      nodeModules: join(dir, "node_modules"),
    };
    for (const d of [inputs.generator, join(inputs.templates, "facades"), inputs.schema])
      mkdirSync(d, { recursive: true });
    writeFileSync(join(inputs.generator, "emit.js"), "export const a = 1;");
    writeFileSync(join(inputs.templates, "facades", "server.ts.hbs"), "export const x = {{x}};");
    const first = fingerprintOf(inputs);
    assert.is(fingerprintOf(inputs), first, "stable");
    writeFileSync(join(inputs.templates, "facades", "server.ts.hbs"), "export const y = {{x}};");
    const second = fingerprintOf(inputs);
    assert.is.not(second, first, "a template edit");
    writeFileSync(join(inputs.generator, "emit.js"), "export const a = 2;");
    assert.is.not(fingerprintOf(inputs), second, "a generator edit");
  } finally {
    cleanup();
  }
});

test("cache: bounded by entries, least recently used evicted first, a read refreshes recency", () => {
  const { dir, cleanup } = tempDir("mcpgen-cache-");
  try {
    const limits = { entries: 3, bytes: 1 << 20 };
    for (const n of [1, 2, 3]) writeCache(dir, key(n), entry(10), limits);
    age(dir, 1, 300);
    age(dir, 2, 200);
    age(dir, 3, 100);
    const before = statSync(join(dir, `${key(1)}.json`)).mtimeMs;
    assert.ok(readCache(dir, key(1)), "hit");
    assert.ok(statSync(join(dir, `${key(1)}.json`)).mtimeMs > before, "a hit refreshes recency");
    writeCache(dir, key(4), entry(10), limits);
    assert.equal(
      keys(dir),
      [1, 3, 4].map((n) => `${key(n)}.json`),
      "2 was least recently used",
    );
    assert.is(readCache(dir, key(2)), undefined);
  } finally {
    cleanup();
  }
});

test("cache: bounded by total size; the entry just written always stays", () => {
  const { dir, cleanup } = tempDir("mcpgen-cache-");
  try {
    const limits = { entries: 100, bytes: 2500 };
    for (const n of [1, 2]) writeCache(dir, key(n), entry(1000), limits);
    age(dir, 1, 200);
    age(dir, 2, 100);
    writeCache(dir, key(3), entry(1000), limits);
    assert.equal(
      keys(dir),
      [2, 3].map((n) => `${key(n)}.json`),
      "oldest evicted to fit the size bound",
    );
    writeCache(dir, key(4), entry(5000), limits);
    assert.equal(keys(dir), [`${key(4)}.json`], "an entry larger than the bound replaces everything but is kept");
    assert.ok(readCache(dir, key(4)));
  } finally {
    cleanup();
  }
});

test.run();
