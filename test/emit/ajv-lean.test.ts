// Lean validators (generator/emit/ajv-lean.ts with the runtime's issue helpers) give the verdicts
// and the issues of ajv's own validator of the same schema, byte for byte: instance paths built
// only on failure, messages and schema paths rebuilt or spelled out, `anyOf` branches included.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { Ajv } from "ajv";
import * as abi from "@mcpgen/runtime/abi/v8";
import { standaloneCode, validatorOptions } from "../../generator/emit/ajv-code.js";

const leaf = {
  type: "object",
  required: ["kind"],
  properties: {
    kind: { const: "leaf" },
    n: { type: "number", minimum: 0, maximum: 10 },
    "a b": { type: "string" },
    "x/y": { type: "integer" },
    uri: { type: "string", format: "uri" },
  },
};
const schema = {
  definitions: {
    leaf,
    other: {
      type: "object",
      required: ["kind", "id"],
      properties: { kind: { const: "other" }, id: { type: ["string", "integer"] } },
    },
    either: { anyOf: [{ $ref: "#/definitions/leaf" }, { $ref: "#/definitions/other" }] },
    node: {
      type: "object",
      properties: {
        leaf: { $ref: "#/definitions/leaf" },
        list: { type: "array", items: { $ref: "#/definitions/either" } },
        map: { type: "object", additionalProperties: { $ref: "#/definitions/leaf" } },
        level: { type: "string", enum: ["debug", "info"] },
        mixed: { anyOf: [{ type: "string" }, { type: "array", items: { type: "boolean" } }] },
        // anyOf within anyOf, and an anyOf followed by another keyword (settleAnyOf leaves its end).
        nested: { anyOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, { type: "boolean" }] },
        after: { anyOf: [{ type: "string" }, { type: "integer" }], not: { const: 3 } },
        child: { $ref: "#/definitions/node" },
      },
    },
  },
  type: "object",
  required: ["root"],
  properties: { root: { $ref: "#/definitions/node" } },
};

type Emitted = ((data: unknown) => boolean) & { errors?: unknown };

/** The emitted code run as a script against the runtime's ABI: its exports collected in an object. */
function load(code: string): Record<string, Emitted> {
  const body = code.replace(/export const ([\w$]+): abi\.Validator = ([\w$]+);/g, "out.$1 = $2;");
  const out = {};
  new Function("abi", "out", body)(abi, out);
  return out as never;
}

const code = standaloneCode(
  { schemas: [{ id: "mcpgen://t", schema }], exports: [{ name: "validateT", id: "mcpgen://t" }] },
  { lean: true },
);
const emitted = load(code).validateT!;
const reference = new Ajv({ ...validatorOptions(), formats: abi.formats }).compile(schema);

function sameAsAjv(data: unknown): void {
  const ok = emitted(data);
  assert.is(ok, reference(data), JSON.stringify(data));
  assert.is(JSON.stringify(emitted.errors ?? null), JSON.stringify(reference.errors ?? null), JSON.stringify(data));
}

test("lean code passes no instance path, and fails through the runtime's helpers", () => {
  assert.not.match(code, /\binstancePath\b/);
  assert.not.match(code, /@direct/);
  assert.match(code, /return abi\.fail\(validate\d+,"","required",\{missingProperty: missing\d+\}\);/);
  assert.match(code, /return abi\.failWith\(validate\d+,validate\d+,"\/leaf"\);/);
  assert.match(code, /vErrors = abi\.nest\(vErrors,validate\d+,""\);/);
  // A map's key joins the path through the runtime's escaping, on the failure path only.
  assert.match(code, /"\/map\/" \+ abi\.pointerToken\(key\d+\)/);
  assert.not.match(code, /\.replace\(/);
  // A schema constant read only for error params is the value read, not the whole schema.
  assert.match(code, /const (schema\d+) = \["debug","info"\];[^]*\{allowedValues: \1\}/);
  assert.match(code, /const (schema\d+) = \["string","integer"\];[^]*\{type: \1\}/);
  assert.not.match(code, /const schema\d+ = \{/);
  // A recursive definition's function called as itself, not through ajv's wrapper object; no test of
  // a counter just taken.
  assert.not.match(code, /\bwrapper\d+\b/);
  assert.not.match(code, /const (_errs\d+) = errors;if\(errors === \1\)/);
  // An anyOf branch's flag is the branch's verdict; a function that is one anyOf ends with no issue.
  assert.not.match(code, /valid\d+ = valid\d+ \|\| _valid\d+/);
  assert.match(
    code,
    /function (validate\d+)\(data\)\{;?let vErrors = null;let errors = 0;let valid0 = false;[^]*?return false;\}\1\.errors = null;return true;\}/,
  );
  // A function that only ever returns at its first failure keeps no error counters.
  assert.match(code, /validate\d+\.errors = null;return true;\}/);
  // "a b" is "a%20b" in ajv's schema path: spelled out, as is what a key or an index is part of.
  assert.match(code, /"\/a b","type",\{type: "string"\},"#\/properties\/a%20b\/type"\)/);
  // leaf is an anyOf branch: its routine failures (the value itself, the const) keep ajv's text.
  assert.match(code, /"","type",\{type: "object"\},"#\/type","must be object"\)/);
  assert.match(
    code,
    /"\/kind","const",\{allowedValue: "leaf"\},"#\/properties\/kind\/const","must be equal to constant"\)/,
  );
});

test("lean code: fixed values give ajv's verdicts and issues", () => {
  const cases: unknown[] = [
    { root: { leaf: { kind: "leaf", n: 3, "a b": "s", "x/y": 2, uri: "https://x.test/" } } },
    { root: { leaf: { kind: "leaf", n: 11 } } },
    { root: { leaf: { kind: "leaf", n: -1 } } },
    { root: { leaf: { kind: "leaf", "a b": 1 } } },
    { root: { leaf: { kind: "leaf", "x/y": 1.5 } } },
    { root: { leaf: { kind: "leaf", uri: "not a uri" } } },
    { root: { leaf: {} } },
    { root: { list: [{ kind: "other", id: 1 }, { kind: "leaf" }, { kind: "other", id: null }] } },
    { root: { list: [{ kind: "neither" }] } },
    { root: { map: { "a/b~c": { kind: "leaf", n: "x" } } } },
    { root: { level: "trace" } },
    { root: { mixed: [true, "no"] } },
    { root: { nested: 1.5 } },
    { root: { nested: 2, after: 3 } },
    { root: { nested: "s", after: 1.5 } },
    { root: { after: "x" } },
    { root: { child: { child: { leaf: { kind: "leaf", n: "deep" } } } } },
    { root: 1 },
    [],
    {},
  ];
  for (const data of cases) sameAsAjv(data);
});

test("lean code: any value gives ajv's verdict and issues (property)", () => {
  const keys = fc.constantFrom(
    "root",
    "leaf",
    "list",
    "map",
    "level",
    "mixed",
    "nested",
    "after",
    "child",
    "kind",
    "n",
    "id",
    "a b",
    "x/y",
    "uri",
  );
  const scalar = fc.oneof(
    fc.constantFrom("leaf", "other", "debug", "info", "https://x.test/", "no uri", 0, 3, 11, -1, 1.5, true, null),
    fc.string({ maxLength: 4 }),
  );
  const value = fc.object({ key: keys, values: [scalar], maxDepth: 5, maxKeys: 4 });
  const arbitrary = fc.oneof(
    value,
    value.map((v) => ({ root: v })),
    fc.array(value, { maxLength: 3 }).map((list) => ({ root: { list } })),
  );
  fc.assert(
    fc.property(arbitrary, (data) => sameAsAjv(data)),
    { numRuns: 400, seed: 26 },
  );
});

test("lean code needs positional instance paths", () => {
  assert.throws(
    () =>
      standaloneCode(
        { schemas: [{ id: "mcpgen://t", schema: leaf }], exports: [{ name: "validateT", id: "mcpgen://t" }] },
        { lean: true, options: { ...validatorOptions(), allErrors: true } },
      ),
    /allErrors: false/,
  );
});

test.run();
