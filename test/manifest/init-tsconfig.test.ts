// init's tsconfig changes on any tsconfig.json a user may have written: comments anywhere,
// commented-out options, trailing commas, any indentation, options missing or set in ways the
// starter cannot build with. The changes keep every comment, give valid JSONC, and leave nothing
// for a second look to change.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { ts } from "ts-morph";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planTsconfig, TSCONFIG_FILE } from "../../generator/init-tsconfig.js";
import { specMatcher } from "../../generator/tsconfig-include.js";

const SOURCES = ["src/handlers.ts", "src/server.ts", "src/http.ts", "src/mcp/server.ts"];

/** One `"key": value` of compilerOptions; undefined leaves the key out. */
const OPTIONS: Record<string, readonly unknown[]> = {
  module: ["commonjs", "nodenext", "node16", "esnext", "es2015"],
  moduleResolution: ["node", "node10", "bundler", "nodenext"],
  target: ["es5", "es2016", "es2022", "esnext"],
  types: [[], ["semver"], ["node"]],
  outDir: ["./dist", "dist", "./src/out", ".", "build", "src"],
  rootDir: ["./src", "src", "."],
  noEmit: [true, false],
  emitDeclarationOnly: [true],
  strict: [true],
};

const option = (key: string) => fc.option(fc.constantFrom(...OPTIONS[key]!), { nil: undefined });
const entries = fc.record(Object.fromEntries(Object.keys(OPTIONS).map((k) => [k, option(k)]))) as fc.Arbitrary<
  Record<string, unknown>
>;

interface Shape {
  options: Record<string, unknown> | "absent";
  order: number[];
  include: string[] | undefined;
  indent: string;
  trailingCommas: boolean;
  /** A comment line before entry i (by position), a commented-out option, a comment after a value. */
  notes: boolean[];
  commentedOut: string[];
  endComments: boolean[];
}

const shape: fc.Arbitrary<Shape> = fc.record({
  options: fc.oneof({ weight: 5, arbitrary: entries }, { weight: 1, arbitrary: fc.constant("absent" as const) }),
  order: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7, 8], { minLength: 9, maxLength: 9 }),
  include: fc.option(fc.constantFrom(["src"], ["lib"], ["src/**/*.ts"], ["**/*"], ["./src/**/*"], ["lib", "test"]), {
    nil: undefined,
  }),
  indent: fc.constantFrom("  ", "    ", "\t"),
  trailingCommas: fc.boolean(),
  notes: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
  commentedOut: fc.subarray(["outDir", "rootDir", "types", "module", "target"]),
  endComments: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
});

/** The tsconfig text of a shape, and the comments a user wrote in it (which must all survive). */
function render(s: Shape): { text: string; comments: string[] } {
  const i = s.indent;
  const comments: string[] = [];
  const note = (n: number, depth: string) => {
    comments.push(`// note ${n}`);
    return `${depth}// note ${n}`;
  };
  const list = (items: string[], depth: string, at: number) =>
    items.map((item, k) => {
      const comma = k < items.length - 1 || s.trailingCommas ? "," : "";
      const end = s.endComments[(at + k) % 10] ? ` // after ${at + k}` : "";
      if (end) comments.push(end.trim());
      return `${s.notes[(at + k) % 10] ? note(at + k, depth) + "\n" : ""}${depth}${item}${comma}${end}`;
    });
  const root: string[] = [];
  if (s.options !== "absent") {
    const keys = Object.keys(OPTIONS);
    const present = s.order.map((n) => keys[n]!).filter((k) => (s.options as Record<string, unknown>)[k] !== undefined);
    const inner = list(
      present.map((k) => `${JSON.stringify(k)}: ${JSON.stringify((s.options as Record<string, unknown>)[k])}`),
      i + i,
      0,
    );
    const commented = s.commentedOut.map((k) => `${i}${i}// ${JSON.stringify(k)}: "x",`);
    root.push(
      `"compilerOptions": {${[...commented, ...inner].length ? `\n${[...commented, ...inner].join("\n")}\n${i}` : ""}}`,
    );
  }
  if (s.include) root.push(`"include": ${JSON.stringify(s.include)}`);
  return { text: `{\n${list(root, i, 5).join("\n")}${root.length ? "\n" : ""}}\n`, comments };
}

test("property: init's changes keep every comment, give valid JSONC, and a second look finds nothing to change", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-tsconfig-"));
  try {
    fc.assert(
      fc.property(shape, fc.boolean(), (s, withTypes) => {
        const { text, comments } = render(s);
        assert.is(ts.parseConfigFileTextToJson(TSCONFIG_FILE, text).error, undefined, text);
        writeFileSync(join(dir, TSCONFIG_FILE), text);
        const types = withTypes ? ["semver"] : [];
        const first = planTsconfig(dir, SOURCES, types);
        assert.equal(first.conflicts, [], text);
        const after = first.text ?? text;
        const parsed = ts.parseConfigFileTextToJson(TSCONFIG_FILE, after);
        assert.is(parsed.error, undefined, after);
        for (const c of comments) assert.ok(after.includes(c), `${c} kept\n${after}`);
        writeFileSync(join(dir, TSCONFIG_FILE), after);
        const second = planTsconfig(dir, SOURCES, types);
        assert.equal(
          second.changes.map((d) => d.message),
          [],
          `${text}\n=>\n${after}`,
        );
        assert.is(second.text, undefined);
        // what the starter builds with
        const o = parsed.config.compilerOptions as Record<string, unknown>;
        assert.ok((o.types as string[]).includes("node"));
        assert.ok(o.outDir !== undefined && o.rootDir !== undefined);
        assert.not.ok(o.noEmit === true || o.emitDeclarationOnly === true);
        assert.ok(
          /^(nodenext|node16)$/.test(String(o.module)) || (o.module === "esnext" && o.moduleResolution === "bundler"),
          String(o.module),
        );
        assert.is(second.emitDir, first.emitDir);
        assert.not.ok(first.emitDir === "src" || first.emitDir.startsWith("src/"), first.emitDir);
        if (withTypes && s.options !== "absent" && s.options.types === undefined)
          assert.equal(o.types, ["node", "semver"]);
      }),
      { numRuns: 300 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a Worker starter (web) asks for the web platform's globals, never for Node's types", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-tsconfig-"));
  const base = { rootDir: "./src", outDir: "./dist", module: "nodenext", target: "esnext" };
  const plan = (compilerOptions: Record<string, unknown>, uses: "node" | "web" = "web") => {
    writeFileSync(
      join(dir, TSCONFIG_FILE),
      JSON.stringify({ compilerOptions: { ...base, ...compilerOptions } }, null, 2),
    );
    const p = planTsconfig(dir, ["src/handlers.ts", "src/worker.ts"], [], uses);
    const o = p.text === undefined ? undefined : ts.parseConfigFileTextToJson(TSCONFIG_FILE, p.text).config;
    return { pointers: p.changes.map((c) => c.pointer), messages: p.changes.map((c) => c.message), o };
  };
  try {
    // What tsc --init writes: no web lib, nothing in types.
    const bare = plan({ lib: ["esnext"], types: [] });
    assert.equal(bare.pointers, ["/compilerOptions/lib"]);
    assert.match(bare.messages[0]!, /"webworker".*wrangler types/);
    assert.equal(bare.o.compilerOptions.lib, ["esnext", "webworker"]);
    assert.equal(bare.o.compilerOptions.types, []);
    const unset = plan({ lib: ["es2022"] });
    assert.equal(unset.o.compilerOptions.lib, ["es2022", "webworker"]);
    // Already there: a web lib, the default lib (it has dom), or Worker types named in "types".
    for (const ok of [
      { lib: ["esnext", "webworker"], types: [] },
      { lib: ["ES2022", "DOM"] },
      { types: [] },
      { lib: ["esnext"], types: ["./worker-configuration.d.ts"] },
      { lib: ["esnext"], types: ["@cloudflare/workers-types"] },
    ])
      assert.equal(plan(ok).pointers, [], JSON.stringify(ok));
    // The Node starters still need Node's.
    assert.equal(plan({ lib: ["esnext"], types: [] }, "node").pointers, ["/compilerOptions/types"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("include and exclude entries read as tsc reads them", () => {
  const cases: [string, "include" | "exclude", string, boolean][] = [
    ["src", "include", "src/mcp/server.ts", true],
    ["./src/", "include", "src/server.ts", true],
    ["src/*", "include", "src/server.ts", true],
    ["src/*", "include", "src/mcp/server.ts", false],
    ["src/**/*.ts", "include", "src/mcp/server.ts", true],
    ["**/*", "include", "src/server.ts", true],
    ["${configDir}/src", "include", "src/server.ts", true],
    ["lib", "include", "src/server.ts", false],
    ["src/server.?s", "include", "src/server.ts", true],
    ["lib/../src", "include", "src/http.ts", true],
    ["../src", "include", "src/http.ts", false],
    ["src/mcp", "exclude", "src/mcp/server.ts", true],
    ["src/mcp", "exclude", "src/server.ts", false],
    ["**/*.test.ts", "exclude", "src/server.ts", false],
    ["src/*.ts", "exclude", "src/http.ts", true],
  ];
  for (const [spec, kind, path, expected] of cases)
    assert.is(specMatcher(spec, kind)?.(path) ?? false, expected, `${kind} ${spec} ${path}`);
});

test.run();
