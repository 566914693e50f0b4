// Which inputSchema defaults a server fills in (model/input-defaults.ts), the applier module that
// fills them (emit/manifest/default-appliers.ts, loaded as a real ES module) and the handler's type.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inputDefaults } from "../../generator/model/input-defaults.js";
import { emitManifestTypes } from "../../generator/emit/manifest/types.js";
import { emitManifestValidators } from "../../generator/emit/manifest/validators.js";
import { generateManifest } from "../../generator/render/manifest.js";
import { parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { removeDir, tempDir, writeTranspiled } from "../generator/validators-fixture.js";
import { withTempDir } from "./helpers.js";

type Applier = (input: unknown) => any;

/** The appliers of a manifest whose tools have these input schemas, loaded from the emitted module. */
async function appliers(schemas: Record<string, object>): Promise<Record<string, Applier>> {
  const manifest = {
    name: "t",
    version: "1",
    tools: Object.entries(schemas).map(([name, inputSchema]) => ({ name, inputSchema })),
  };
  const model = buildServerModel(parseManifest(JSON.stringify(manifest), "m.json"));
  const file = emitManifestValidators(model).files.find((f) => f.path === "tools.defaults.ts");
  if (file === undefined) return {};
  const dir = tempDir("input-defaults-");
  try {
    writeTranspiled(dir, [file]);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const mod = await import(pathToFileURL(join(dir, "tools.defaults.js")).href);
    return Object.fromEntries(
      model.tools.filter((t) => t.inputDefaults !== null).map((t) => [t.name, mod[`apply${t.inputType}Defaults`]]),
    );
  } finally {
    removeDir(dir);
  }
}

test("where defaults apply: properties, single-schema items, allOf, $ref; not inside anyOf/oneOf/not/if/then/else, tuples, additional or pattern properties", () => {
  const d = { type: "integer", default: 1 };
  for (const schema of [
    { properties: { a: d } },
    { properties: { o: { properties: { a: d } } } },
    { properties: { list: { items: { properties: { a: d } } } } },
    { allOf: [{ properties: { a: d } }] },
    { properties: { o: { $ref: "#/$defs/x" } }, $defs: { x: { properties: { a: d } } } },
  ]) {
    assert.ok(inputDefaults(schema) !== null, JSON.stringify(schema));
  }
  for (const schema of [
    {},
    { properties: { a: { type: "integer" } } },
    { default: {} },
    { anyOf: [{ properties: { a: d } }] },
    { oneOf: [{ properties: { a: d } }] },
    { not: { properties: { a: d } } },
    // oxlint-disable-next-line unicorn/no-thenable -- a JSON Schema `then`, never awaited
    { if: { properties: { a: d } }, then: { properties: { b: d } }, else: { properties: { c: d } } },
    { properties: { t: { items: [{ properties: { a: d } }] } } },
    { properties: { t: { prefixItems: [{ properties: { a: d } }], items: { properties: { a: d } } } } },
    { additionalProperties: { properties: { a: d } } },
    { patternProperties: { x: { properties: { a: d } } } },
    { $defs: { unused: { properties: { a: d } } } },
  ]) {
    assert.is(inputDefaults(schema), null, JSON.stringify(schema));
  }
  const plan = inputDefaults({
    properties: { o: { properties: { a: d, b: { type: "string" } } }, p: { type: "string" } },
  })!;
  assert.equal([plan.has(""), plan.has("/properties/o"), plan.has("/properties/p")], [true, true, false]);
  assert.equal(
    [plan.fills("/properties/o", "a"), plan.fills("/properties/o", "b"), plan.fills("", "o")],
    [true, false, false],
  );
  assert.is(
    inputDefaults({ properties: { a: d } }, (p) => p !== "/properties/a"),
    null,
    "a default the check rejected is not filled in",
  );
});

test("the applier: fills absent and undefined properties on a copy, nested where the parent exists, items through $ref, allOf; never writes its input", async () => {
  const { t } = await appliers({
    t: {
      type: "object",
      properties: {
        n: { type: "integer", default: 3 },
        o: { type: "object", properties: { a: { type: "string", default: "x" }, b: { type: "boolean" } }, default: {} },
        p: { type: "object", properties: { q: { type: "integer", default: 1 } } },
        list: { type: "array", items: { $ref: "#/$defs/item" } },
        arr: { type: "array", default: [1, { k: [2] }] },
      },
      allOf: [{ properties: { s: { type: "string", default: "all" } } }],
      $defs: { item: { type: "object", properties: { m: { type: "integer", default: 10 } } } },
    },
  });
  const input = { n: undefined, p: { q: 5 }, list: [{}, { m: 1 }, "not an object"] };
  const frozen = JSON.stringify(input);
  const out = t!(input);
  assert.equal(out, {
    n: 3,
    p: { q: 5 },
    list: [{ m: 10 }, { m: 1 }, "not an object"],
    o: { a: "x" },
    arr: [1, { k: [2] }],
    s: "all",
  });
  assert.is(JSON.stringify(input), frozen);
  assert.ok(out !== input && out.list !== input.list && out.list[0] !== input.list[0]);
  assert.equal(t!({}).p, undefined, "an absent object without a default stays absent");
  const again = t!({});
  again.arr[1].k.push(3);
  again.o.a = "changed";
  assert.equal(t!({}), { n: 3, o: { a: "x" }, arr: [1, { k: [2] }], s: "all" }, "every call gets fresh default values");
  assert.equal(
    t!({ o: { b: true }, arr: [] }),
    { o: { b: true, a: "x" }, arr: [], n: 3, s: "all" },
    "given values win",
  );
  // copy on write: only what is on the way to a filled-in default is copied
  const complete = { n: 1, o: { a: "y" }, arr: [], s: "z", list: [{ m: 2 }] };
  assert.is(t!(complete), complete, "nothing to fill in: the arguments as they are");
  const partly = { n: 1, o: { a: "y" }, arr: [], s: "z", list: [{ m: 2 }, {}] };
  const got = t!(partly);
  assert.ok(
    got !== partly && got.list !== partly.list && got.list[1] !== partly.list[1],
    "copied on the way to the filled-in default",
  );
  assert.ok(got.list[0] === partly.list[0] && got.o === partly.o && got.arr === partly.arr, "the rest is shared");
});

test("the applier: keys that are Object.prototype's names are filled as own properties; the prototype is never touched", async () => {
  const { t } = await appliers({
    t: {
      type: "object",
      properties: {
        toString: { type: "string", default: "s" },
        ["__proto__"]: { type: "object", default: { polluted: true } },
        constructor: { type: "integer", default: 1 },
      },
    },
  });
  const out = t!({});
  assert.ok(Object.hasOwn(out, "toString") && Object.hasOwn(out, "__proto__") && Object.hasOwn(out, "constructor"));
  assert.is(out.toString, "s");
  assert.is(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(out, "__proto__")!.value, { polluted: true });
  assert.is(({} as { polluted?: boolean }).polluted, undefined);
  const given = JSON.parse('{"__proto__": {"mine": 1}}');
  assert.equal(
    Object.getOwnPropertyDescriptor(t!(given), "__proto__")!.value,
    { mine: 1 },
    "a given __proto__ property is kept",
  );
});

test("the applier: a recursive schema fills every level (the data's depth bounds the recursion)", async () => {
  const { tree } = await appliers({
    tree: {
      type: "object",
      properties: { label: { type: "string", default: "node" }, children: { type: "array", items: { $ref: "#" } } },
    },
  });
  assert.equal(tree!({ children: [{ children: [{}] }, { label: "x" }] }), {
    label: "node",
    children: [{ label: "node", children: [{ label: "node" }] }, { label: "x" }],
  });
});

test("types: the handler's type has filled properties required (nested declarations suffixed where they differ), the client's keeps them optional", () => {
  const manifest = {
    name: "t",
    version: "1",
    tools: [
      {
        name: "go",
        inputSchema: {
          type: "object",
          properties: {
            n: { type: "integer", default: 3 },
            o: { type: "object", properties: { a: { type: "string", default: "x" } } },
            plain: { type: "object", properties: { z: { type: "string" } } },
          },
        },
      },
      { name: "none", inputSchema: { type: "object", properties: { n: { type: "integer" } } } },
    ],
  };
  const model = buildServerModel(parseManifest(JSON.stringify(manifest), "m.json"));
  assert.equal(
    model.tools.map((t) => [t.inputType, t.handlerInputType]),
    [
      ["GoInput", "GoInputWithDefaults"],
      ["NoneInput", "NoneInput"],
    ],
  );
  const ts = emitManifestTypes(model).file.contents;
  assert.match(
    ts,
    /export interface GoInput \{\n  \/\*\*\n   \* @default 3\n   \*\/\n  n\?: number;\n  o\?: GoInputO;\n  plain\?: GoInputPlain;\n\}/,
  );
  assert.match(
    ts,
    /export interface GoInputWithDefaults \{\n[^}]*\n  n: number;\n  o\?: GoInputOWithDefaults;\n  plain\?: GoInputPlain;\n\}/,
  );
  assert.match(ts, /export interface GoInputOWithDefaults \{\n[^}]*\n  a: string;\n\}/);
  assert.not.match(ts, /GoInputPlainWithDefaults|NoneInputWithDefaults/);
});

test("--lenient: a default its schema rejects is a warning, not filled in, and stays optional for the handler", () => {
  withTempDir((dir) => {
    const manifest = {
      name: "t",
      version: "1",
      tools: [
        {
          name: "go",
          inputSchema: {
            type: "object",
            properties: { n: { type: "integer", minimum: 1, default: 0 }, m: { type: "integer", default: 2 } },
          },
        },
      ],
    };
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest));
    const r = generateManifest(join(dir, "mcp.manifest.json"), { lenient: true });
    assert.equal(
      r.warnings.map((w) => w.pointer),
      ["/tools/0/inputSchema/properties/n/default"],
    );
    const ts = r.files.find((f) => f.path === "types.ts")!.contents;
    assert.match(ts, /export interface GoInputWithDefaults \{\n[^}]*  n\?: number;\n[^}]*  m: number;\n\}/);
    assert.match(r.files.find((f) => f.path === "tools.defaults.ts")!.contents, /"m"\]=2;/);
    assert.not.match(r.files.find((f) => f.path === "tools.defaults.ts")!.contents, /"n"/);
  });
});

test.run();
