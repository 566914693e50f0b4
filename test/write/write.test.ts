import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpgenError } from "../../generator/errors.js";
import { banner } from "../../generator/print/banner.js";
import { commitOutput, compareOutput, listFiles } from "../../generator/write/index.js";
import { tempDir } from "../helpers.js";

const head = banner("0.0.0", { display: "x", sha256: "0".repeat(64) });
const files = [
  { path: "a.ts", contents: `${head}\nexport const a = 1;\n` },
  { path: "sub/b.ts", contents: `${head}\nexport const b = 2;\n` },
];

test("commitOutput creates, leaves an identical directory alone, replaces a different one", () => {
  const { dir, cleanup } = tempDir();
  try {
    const out = join(dir, "deep", "out");
    assert.is(commitOutput(out, files, "out").written, true);
    assert.equal(listFiles(out), ["a.ts", "sub/b.ts"]);
    const mtime = statSync(join(out, "a.ts")).mtimeMs;
    assert.is(commitOutput(out, files, "out").written, false);
    assert.is(statSync(join(out, "a.ts")).mtimeMs, mtime);
    writeFileSync(join(out, "old.ts"), `${head}\n`);
    assert.is(commitOutput(out, files.slice(0, 1), "out").written, true);
    assert.equal(listFiles(out), ["a.ts"]);
    assert.equal(listFiles(join(dir, "deep")), ["out/a.ts"], "no temp directories left behind");
  } finally {
    cleanup();
  }
});

test("commitOutput refuses to delete a file mcpgen did not generate", () => {
  const { dir, cleanup } = tempDir();
  try {
    mkdirSync(join(dir, "out"));
    writeFileSync(join(dir, "out", "handwritten.ts"), "export {};\n");
    assert.throws(
      () => commitOutput(join(dir, "out"), files, "out"),
      (e: unknown) =>
        e instanceof McpgenError &&
        /1 file in it is not written by mcpgen generate:\n {4}handwritten\.ts\n/.test(e.message),
    );
    assert.equal(listFiles(join(dir, "out")), ["handwritten.ts"]);
    assert.equal(listFiles(dir), ["out/handwritten.ts"]);
  } finally {
    cleanup();
  }
});

test("compareOutput lists stale, missing and extra files", () => {
  const { dir, cleanup } = tempDir();
  try {
    const out = join(dir, "out");
    assert.equal(compareOutput(out, files), { stale: [], missing: ["a.ts", "sub/b.ts"], extra: [] });
    commitOutput(out, files, "out");
    assert.equal(compareOutput(out, files), { stale: [], missing: [], extra: [] });
    writeFileSync(join(out, "a.ts"), readFileSync(join(out, "a.ts"), "utf8").replace("1", "2"));
    writeFileSync(join(out, "z.ts"), "");
    assert.equal(compareOutput(out, files), { stale: ["a.ts"], missing: [], extra: ["z.ts"] });
  } finally {
    cleanup();
  }
});

test.run();
