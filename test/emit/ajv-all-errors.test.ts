// The all-errors tool validators: ajv's `allErrors` code with its error sites compacted and every
// counting site bounded by `abi.counted`, so the same failures as ajv's own all-errors validator
// up to the runtime's MAX_COLLECTED_ISSUES, then TooManyIssues with what was collected.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv } from "ajv";
import * as abi from "@mcpgen/runtime/abi/v8";
import { limits } from "@mcpgen/runtime";
import { boundedErrors, standaloneCode } from "../../generator/emit/ajv-code.js";
import { OPTIONS } from "../../generator/emit/manifest/validators.js";

const schema = {
  $defs: { leaf: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } },
  type: "object",
  required: ["a"],
  properties: {
    a: { type: "string" },
    list: { type: "array", items: { type: "integer" } },
    leaves: { type: "array", items: { $ref: "#/$defs/leaf" } },
    either: {
      anyOf: [
        { type: "array", items: { type: "string" } },
        { type: "array", items: { type: "integer" } },
      ],
    },
    // Keywords whose messages the runtime rebuilds (issue-sites.ts messageOf), and one it does not.
    m: { type: "number", minimum: 3, exclusiveMaximum: 10 },
    k: { const: "k" },
    e: { enum: [1, "two"] },
    u: { type: ["string", "null"] },
    s: { type: "string", format: "email", maxLength: 3 },
  },
  additionalProperties: false,
};

/** The emitted code run as a script with the runtime's ABI: its `export const X: abi.Validator = f;` lines collected in an object. */
function load(code: string): ((data: unknown) => boolean) & { errors?: abi.ValidationIssue[] | null } {
  const body = code.replace(/export const ([\w$]+): abi\.Validator = ([\w$]+);/g, "out.$1 = $2;");
  const out: Record<string, never> = {};
  new Function("abi", "out", body)(abi, out);
  return out.validateT!;
}

const code = standaloneCode(
  { schemas: [{ id: "mcpgen://t", schema }], exports: [{ name: "validateT", id: "mcpgen://t" }] },
  { ajv: Ajv, options: { ...OPTIONS, allErrors: true } },
);

test("every error site appends through abi.issue (the same error objects: next test), and every count goes through abi.counted", () => {
  assert.not.match(code, /const err\d+ = /);
  assert.match(code, /vErrors = abi\.issue\(vErrors,/);
  assert.not.match(code, /function issue\(/);
  // Messages the runtime rebuilds are left out; the others (additionalProperties) stay spelled.
  assert.not.match(code, /"must be string"/);
  assert.match(code, /"must NOT have additional properties"/);
  assert.not.match(code, /errors\+\+|errors = vErrors\.length;/);
  assert.ok((code.match(/abi\.counted\(/g) ?? []).length >= 8);
  assert.throws(
    () => boundedErrors("if(vErrors === null){vErrors = [e];}else {vErrors.push(e);}errors += 1;"),
    /does not recognise/,
  );
});

test("below the cap: the same failures as ajv's own all-errors validator, in the same order", () => {
  const emitted = load(code);
  const reference = new Ajv({ ...OPTIONS, allErrors: true }).compile(schema);
  const cases: unknown[] = [
    { a: "x", list: [1, 2], leaves: [{ n: 1 }], either: ["s"] },
    { a: 1, list: ["x", 2, "y"], leaves: [{}, { n: "1" }, 3], extra: true },
    { list: Array.from({ length: 30 }, () => "x") },
    { a: "x", either: [1, "mixed"] },
    { a: "x", either: [1, 2, 3] },
    { a: "x", m: 1, k: "j", e: 3, u: 3, s: "not an email" },
    { a: "x", m: 12, k: "k", e: "two", u: null, s: "a@b.c" },
    [],
  ];
  for (const data of cases) {
    const ok = emitted(data);
    assert.is(ok, reference(data), JSON.stringify(data));
    const strip = (errors: unknown[] | null | undefined) => (errors ?? []).map((e) => JSON.stringify(e));
    assert.equal(strip(emitted.errors), strip(reference.errors), JSON.stringify(data));
  }
});

test(`past the cap: TooManyIssues with what was collected (just over ${limits.MAX_COLLECTED_ISSUES}), through $ref calls too`, () => {
  const emitted = load(code);
  for (const data of [
    { a: "x", list: Array.from({ length: 50_000 }, () => "x") },
    { a: "x", leaves: Array.from({ length: 50_000 }, () => ({})) },
  ]) {
    let thrown: unknown;
    try {
      emitted(data);
    } catch (e) {
      thrown = e;
    }
    assert.instance(thrown, abi.TooManyIssues);
    const issues = (thrown as abi.TooManyIssues).issues;
    assert.ok(
      issues.length > limits.MAX_COLLECTED_ISSUES && issues.length <= 2 * limits.MAX_COLLECTED_ISSUES + 1,
      `${issues.length} collected`,
    );
  }
});

test("property names and values that are the helpers' names ('fail', 'issue') are no clash: both modules compile and validate as ajv does", () => {
  const named = {
    type: "object",
    properties: {
      fail: { enum: ["fail", "pass"] },
      issue: { const: "issue" },
      k: { enum: ["issue", "fail", "a", "b", "c", "d", "e", "f", "g"] },
    },
    required: ["fail"],
  };
  for (const allErrors of [false, true]) {
    const emitted = load(
      standaloneCode(
        { schemas: [{ id: "mcpgen://t", schema: named }], exports: [{ name: "validateT", id: "mcpgen://t" }] },
        { ajv: Ajv, options: { ...OPTIONS, allErrors } },
      ),
    );
    const reference = new Ajv({ ...OPTIONS, allErrors }).compile(named);
    for (const data of [{ fail: "pass", issue: "issue", k: "fail" }, { fail: "x", issue: "y", k: "z" }, {}]) {
      assert.is(emitted(data), reference(data), JSON.stringify(data));
      assert.equal(
        JSON.stringify(emitted.errors ?? null),
        JSON.stringify(reference.errors ?? null),
        JSON.stringify(data),
      );
    }
  }
});

test.run();
