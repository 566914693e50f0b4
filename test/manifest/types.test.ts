import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import prettier from "prettier";
import { parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitManifestTypes } from "../../generator/emit/manifest/types.js";
import { makeDeepManifest } from "../../bench/deep-manifest.js";
import { fixture, root, tscStrict, typesFor, withTempDir, writeFiles } from "./helpers.js";

const format = (text: string, printWidth = 80) => prettier.format(text, { parser: "typescript", printWidth });

test("types: schema-features matches the golden file", () => {
  const { file, problems } = typesFor(fixture("schema-features"));
  assert.equal(problems, []);
  assert.fixture(file.contents, readFileSync(fixture("schema-features", "expected.types.ts"), "utf8"));
});

test("types: the output is already prettier-formatted (a fixpoint), so the print stage may skip prettier", async () => {
  for (const name of ["schema-features", "tools-list-pasted", "broken-schemas"]) {
    const { file } = typesFor(fixture(name), { lenient: true });
    assert.fixture(await format(file.contents), file.contents, name);
  }
  const deep = emitManifestTypes(
    buildServerModel(parseManifest(JSON.stringify(makeDeepManifest(10, 6, "heavy")), "deep.json")),
    { printWidth: 100 },
  ).file.contents;
  assert.fixture(await format(deep, 100), deep, "deep, printWidth 100");
});

test("types: precise nested names, JSDoc, quoting, no any", () => {
  const { file } = typesFor(fixture("schema-features"));
  const ts = file.contents;
  for (const decl of [
    "export interface GetForecastInputLocation ",
    "export interface GetForecastInputLocationCoordinates ",
    "export interface GetForecastOutputDaysItem ",
    "export interface GetForecastOutputDaysItemHoursItem ",
    "export interface GetForecastOutputWind ",
    'export type GetForecastOutputCompass =\n  "N" | "NE"',
    "export interface ComposeShapesInputShapeCircle ",
    "export interface ComposeShapesInputPoint ",
    "export interface RecursiveInputNode ",
    "export type NoParamsInput = Record<string, never>;",
  ])
    assert.ok(ts.includes(decl), decl);
  assert.ok(
    ts.includes('"kebab-case": string;') && ts.includes('"dotted.name"?: string;') && ts.includes("function?: string;"),
  );
  assert.ok(ts.includes("note?: string | null;"));
  assert.ok(ts.includes("@format date") && ts.includes("@default 3") && ts.includes("* Where to forecast"));
  assert.ok(ts.includes("*\\/ safely"), "comment terminators are escaped");
  assert.not.match(ts, /\bany\b(?!Of)/);
  assert.not.match(ts, /Location1|Point1|Wind1|Input1|Output1/, "no numbered duplicates");
});

test("types: output compiles under tsc --strict (TS 7 and TS 5) and the @ts-expect-error cases fail as intended", () => {
  const { file } = typesFor(fixture("schema-features"));
  withTempDir((dir) => {
    writeFiles(dir, {
      "types.ts": file.contents,
      "use.ts": readFileSync(fixture("schema-features", "use.ts"), "utf8"),
    });
    for (const compiler of ["typescript", "typescript-5"]) {
      const r = tscStrict(dir, ["types.ts", "use.ts"], compiler);
      assert.is(r.code, 0, `${compiler}: ${r.output}`);
    }
    // the type tests really are checked: break one expectation and tsc must complain
    writeFileSync(
      join(dir, "use.ts"),
      readFileSync(fixture("schema-features", "use.ts"), "utf8") +
        '\n// @ts-expect-error\nexport const fine: import("./types.js").NoParamsInput = {};\n',
    );
    const r = tscStrict(dir, ["types.ts", "use.ts"]);
    assert.ok(r.code !== 0, r.output);
    assert.match(r.output, /TS2578/);
  });
});

test("types: deterministic (byte-identical runs) and inputs are not mutated", () => {
  const text = readFileSync(fixture("schema-features"), "utf8");
  const a = emitManifestTypes(buildServerModel(parseManifest(text, "m.json"))).file.contents;
  const loaded = parseManifest(text, "m.json");
  const before = JSON.stringify(loaded.manifest);
  const b = emitManifestTypes(buildServerModel(loaded)).file.contents;
  assert.is(a, b);
  assert.is(JSON.stringify(loaded.manifest), before);
  // reordering tools in the manifest does not change any name or the output
  const m = JSON.parse(text);
  m.tools.reverse();
  const c = emitManifestTypes(buildServerModel(parseManifest(JSON.stringify(m), "m.json"))).file.contents;
  assert.is(c, a);
});

test("types: broken schemas fall back to Record<string, unknown> and still compile", () => {
  const { file, loaded } = typesFor(fixture("broken-schemas"), { lenient: true });
  assert.ok(loaded.diagnostics.length > 0);
  for (const t of ["EmptyInput", "BadTypeInput", "NotObjectInput", "BadRequiredInput"])
    assert.ok(file.contents.includes(`export type ${t} = Record<string, unknown>;`), t);
  assert.ok(file.contents.includes("a?: unknown;"), "dangling $ref typed as unknown");
  assert.ok(file.contents.includes("export type ArrayOutputOutput = string[];"));
  withTempDir((dir) => {
    writeFiles(dir, { "types.ts": file.contents });
    const r = tscStrict(dir, ["types.ts"]);
    assert.is(r.code, 0, r.output);
  });
});

test("types: nested name clashes are errors naming both schema locations", () => {
  const m = {
    name: "x",
    version: "1",
    tools: [
      {
        name: "t",
        inputSchema: {
          type: "object",
          $defs: { location: { type: "object", properties: { a: { type: "string" } } } },
          properties: {
            location: { type: "object", properties: { b: { type: "string" } } },
            other: { $ref: "#/$defs/location" },
          },
        },
      },
    ],
  };
  const r = emitManifestTypes(buildServerModel(parseManifest(JSON.stringify(m), "m.json")));
  assert.equal(
    r.problems.map((p) => [p.severity, p.pointer]),
    [["error", "/tools/0/inputSchema/properties/location"]],
  );
  assert.match(
    r.problems[0]!.message,
    /\/tools\/0\/inputSchema\/\$defs\/location.*\/tools\/0\/inputSchema\/properties\/location.*"TInputLocation"/,
  );
});

test("types: self-references typed where TS allows them, unknown (with a warning) where it does not", () => {
  const m = {
    name: "x",
    version: "1",
    tools: [
      {
        name: "cyc",
        inputSchema: {
          type: "object",
          $defs: {
            direct: { anyOf: [{ $ref: "#/$defs/direct" }, { type: "string" }] },
            list: { type: "array", items: { $ref: "#/$defs/list" } },
            json: {
              anyOf: [
                { type: "string" },
                { type: "array", items: { $ref: "#/$defs/json" } },
                { type: "object", additionalProperties: { $ref: "#/$defs/json" } },
              ],
            },
          },
          properties: {
            d: { $ref: "#/$defs/direct" },
            l: { $ref: "#/$defs/list" },
            j: { $ref: "#/$defs/json" },
            self: { anyOf: [{ $ref: "#" }, { type: "null" }] },
          },
        },
      },
    ],
  };
  const r = emitManifestTypes(buildServerModel(parseManifest(JSON.stringify(m), "m.json")));
  assert.equal(
    r.problems.map((p) => [p.severity, p.pointer]),
    [["warning", "/tools/0/inputSchema/$defs/direct/anyOf/0"]],
  );
  assert.ok(
    r.file.contents.includes("export type CycInputDirect = unknown | string;") ||
      r.file.contents.includes("export type CycInputDirect = unknown;"),
    r.file.contents,
  );
  assert.ok(r.file.contents.includes("export type CycInputList = CycInputList[];"));
  assert.ok(r.file.contents.includes("self?: CycInput | null;"));
  withTempDir((dir) => {
    writeFiles(dir, {
      "types.ts": r.file.contents,
      "use.ts":
        'import type { CycInput } from "./types.js";\nexport const v: CycInput = { j: ["a", { k: ["b"] }], l: [[], [[]]], self: { self: null } };\n// @ts-expect-error numbers are not json here\nexport const bad: CycInput = { j: [1] };\n',
    });
    const out = tscStrict(dir, ["types.ts", "use.ts"]);
    assert.is(out.code, 0, out.output);
  });
});

test("types: a 50-tool deep manifest generates and compiles", () => {
  const { file, problems } = emitManifestTypes(
    buildServerModel(parseManifest(JSON.stringify(makeDeepManifest()), "deep.json")),
  );
  assert.equal(problems, []);
  assert.ok(
    file.contents.includes("export interface ArchiveCustomerOutputResultLevel6Level5Level4Level3Level2Level1 "),
  );
  withTempDir((dir) => {
    writeFiles(dir, { "types.ts": file.contents });
    const r = tscStrict(dir, ["types.ts"]);
    assert.is(r.code, 0, r.output.slice(0, 2000));
  });
});

test("types: the committed deep-manifest generator is deterministic", () => {
  assert.is(JSON.stringify(makeDeepManifest()), JSON.stringify(makeDeepManifest()));
  assert.is((makeDeepManifest().tools as unknown[]).length, 50);
  assert.ok(root.length > 0);
});

test.run();
