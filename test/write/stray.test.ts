// The message generate (and init) give for files in an output folder that generate does not
// write: every file named up to the limit, and an `rm` that, run by a POSIX shell, deletes the
// compiler output and nothing else, whatever the names.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describeStrayFiles, MAX_STRAY_LISTED } from "../../generator/write/stray.js";
import { listFiles } from "../../generator/write/compare.js";

const rmOf = (message: string) => /then delete them: (rm .*)$/m.exec(message)?.[1];

test("every stray file is named up to the limit, then counted; the fix says what each kind needs", () => {
  const sources = Array.from({ length: 40 }, (_, i) => `t${String(i).padStart(2, "0")}.ts`);
  const compiled = sources.flatMap((s) => [s.replace(/\.ts$/, ".js"), s.replace(/\.ts$/, ".d.ts")]);
  const stray = [...compiled, "notes.txt"].sort();
  const message = describeStrayFiles({
    display: "src/mcp",
    stray,
    onDisk: [...sources, ...stray],
    sources: new Set(sources),
  });
  const listed = message.split("\n").filter((l) => l.startsWith("    "));
  assert.is(listed.length, MAX_STRAY_LISTED + 1);
  assert.equal(
    listed.slice(0, MAX_STRAY_LISTED).map((l) => l.trim()),
    stray.slice(0, MAX_STRAY_LISTED),
  );
  assert.is(listed[MAX_STRAY_LISTED], `    ... and ${stray.length - MAX_STRAY_LISTED} more`);
  assert.match(message, /^81 files in it are not written by mcpgen generate:$/m);
  assert.match(
    message,
    /^  80 of them are TypeScript compiler output, .* then delete them: rm src\/mcp\/\*\.d\.ts src\/mcp\/\*\.js$/m,
  );
  assert.match(message, /^  Move the other 1 out of src\/mcp: mcpgen owns that folder and replaces it whole$/m);
  // a .js without its .ts is not compiler output; a glob that would take it gives way to names
  const mixed = describeStrayFiles({
    display: "out",
    stray: ["a.js", "helper.js"],
    onDisk: ["a.ts", "a.js", "helper.js"],
    sources: new Set(["a.ts"]),
  });
  assert.match(mixed, /It is|1 of them is/);
  assert.is(rmOf(mixed), "rm out/a.js");
  assert.match(mixed, /Move the other 1 out of out:/);
  const foreign = describeStrayFiles({ display: "gen", stray: ["mine.ts"], onDisk: ["mine.ts"], sources: new Set() });
  assert.is(
    foreign,
    "1 file in it is not written by mcpgen generate:\n    mine.ts\n  Move it out of gen: mcpgen owns that folder and replaces it whole",
  );
});

/** File names a shell could trip on: spaces, quotes, $, glob characters, leading dots. */
const stem = fc.constantFrom("server", "types", "a b", "it's", "$HOME", "[ab]", "x-y.z", ".hidden", "é", "--force");
const folder = fc.constantFrom("", "protocol/", "protocol/2025-06-18/", "sub dir/");
const emitted = fc.constantFrom(".js", ".js.map", ".d.ts", ".d.ts.map", ".mjs", ".d.mts");

test("property: the rm command, run by sh, deletes exactly the compiler output, in any folder and with any names", () => {
  const base = mkdtempSync(join(tmpdir(), "mcpgen-stray-"));
  let n = 0;
  try {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            folder,
            stem,
            source: fc.constantFrom(".ts", ".mts"),
            outputs: fc.uniqueArray(emitted, { maxLength: 4 }),
          }),
          { minLength: 1, maxLength: 8, selector: (r) => r.folder + r.stem + r.source },
        ),
        fc.uniqueArray(fc.record({ folder, stem, ext: fc.constantFrom(".js", ".txt", ".d.ts") }), {
          maxLength: 3,
          selector: (r) => r.folder + r.stem + r.ext,
        }),
        fc.constantFrom("src/mcp", "my out", "it's/gen"),
        (generated, handwritten, display) => {
          const cwd = join(base, String(n++));
          const sources = new Set(generated.map((g) => g.folder + g.stem + g.source));
          const compiled = generated.flatMap((g) =>
            g.outputs
              .filter((o) => (g.source === ".mts") === /^\.(mjs|d\.mts)/.test(o))
              .map((o) => g.folder + g.stem + o),
          );
          const other = handwritten.map((h) => h.folder + h.stem + h.ext).filter((f) => !sources.has(f));
          const onDisk = [...new Set([...sources, ...compiled, ...other])].sort();
          for (const f of onDisk) {
            mkdirSync(dirname(join(cwd, display, f)), { recursive: true });
            writeFileSync(join(cwd, display, f), "");
          }
          const stray = onDisk.filter((f) => !sources.has(f));
          const message = describeStrayFiles({ display, stray, onDisk, sources });
          const rm = rmOf(message);
          // compiler output is named after a source next to it (a handwritten `server.js` beside `server.ts` too)
          const sourceOf = (f: string) =>
            f
              .replace(/\.map$/, "")
              .replace(/\.(d\.ts|js)$/, ".ts")
              .replace(/\.(d\.mts|mjs)$/, ".mts");
          const expectCompiled = stray.filter((f) => sourceOf(f) !== f && sources.has(sourceOf(f)));
          const remaining = () => listFiles(join(cwd, display));
          if (expectCompiled.length === 0) {
            assert.is(rm, undefined);
          } else {
            const r = spawnSync("sh", ["-c", rm!], { cwd, encoding: "utf8", timeout: 10_000 });
            assert.is(r.status, 0, `${rm}\n${r.stderr}`);
            assert.equal(
              remaining(),
              onDisk.filter((f) => !expectCompiled.includes(f)),
              rm,
            );
          }
          rmSync(cwd, { recursive: true, force: true });
        },
      ),
      { numRuns: 60 },
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test.run();
