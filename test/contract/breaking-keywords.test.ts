// The validation keywords `breaking` compares, held to brute force: an input change is reported
// exactly when some value the old schema accepted is now rejected, an output change exactly when
// some value the new schema allows was not allowed before.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { keywordChanges } from "../../generator/contract/breaking/keywords.js";

type Schema = { [key: string]: number };

/** Half steps from -10 to 10: every integer bound, both sides of it, and beyond any bound drawn. */
const GRID = Array.from({ length: 41 }, (_, i) => -10 + i / 2);

function accepts(s: Schema, x: number): boolean {
  if (s.minimum !== undefined && x < s.minimum) return false;
  if (s.exclusiveMinimum !== undefined && x <= s.exclusiveMinimum) return false;
  if (s.maximum !== undefined && x > s.maximum) return false;
  if (s.exclusiveMaximum !== undefined && x >= s.exclusiveMaximum) return false;
  // multiples compared in half units, exactly
  if (s.multipleOf !== undefined && (x * 2) % (s.multipleOf * 2) !== 0) return false;
  return true;
}

const bounds = fc.record(
  {
    minimum: fc.integer({ min: -5, max: 5 }),
    exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
    maximum: fc.integer({ min: -5, max: 5 }),
    exclusiveMaximum: fc.integer({ min: -5, max: 5 }),
  },
  { requiredKeys: [] },
);
const multiple = fc.record({ multipleOf: fc.constantFrom(0.5, 1, 1.5, 2, 3) }, { requiredKeys: [] });
const schema = fc.tuple(bounds, multiple).map(([b, m]) => ({ ...b, ...m }) as Schema);

const some = (s: Schema) => GRID.some((x) => accepts(s, x));

test("property: no input range change that rejects a value which passed goes unreported; with bounds alone, nothing else is reported", () => {
  fc.assert(
    fc.property(schema, schema, (a, b) => {
      const lost = GRID.some((x) => accepts(a, x) && !accepts(b, x));
      const reported = keywordChanges("input", a, b).some((c) => c.rule === "TOOL_INPUT_RANGE_NARROWED");
      if (lost) assert.ok(reported, JSON.stringify({ a, b }));
    }),
    { numRuns: 2000 },
  );
  // keywords are compared one by one, so combined with multipleOf (or an empty range) a change can
  // be reported that loses nothing; bounds alone are exact
  fc.assert(
    fc.property(bounds, bounds, (a, b) => {
      fc.pre(some(a as Schema));
      const lost = GRID.some((x) => accepts(a as Schema, x) && !accepts(b as Schema, x));
      assert.is(keywordChanges("input", a, b).length > 0, lost, JSON.stringify({ a, b }));
    }),
    { numRuns: 2000 },
  );
});

test("property: no output range change that allows a value which could not occur goes unreported; with bounds alone, nothing else is reported", () => {
  fc.assert(
    fc.property(schema, schema, (a, b) => {
      const gained = GRID.some((x) => accepts(b, x) && !accepts(a, x));
      if (gained)
        assert.ok(
          keywordChanges("output", a, b).some((c) => c.rule === "TOOL_OUTPUT_RANGE_WIDENED"),
          JSON.stringify({ a, b }),
        );
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(bounds, bounds, (a, b) => {
      fc.pre(some(b as Schema));
      const gained = GRID.some((x) => accepts(b as Schema, x) && !accepts(a as Schema, x));
      assert.is(keywordChanges("output", a, b).length > 0, gained, JSON.stringify({ a, b }));
    }),
    { numRuns: 2000 },
  );
});

test("each keyword family in both directions, with what changed in the message", () => {
  const cases: [object, object, string, string][] = [
    [{ maximum: 50 }, { maximum: 20 }, "TOOL_INPUT_RANGE_NARROWED", "maximum 50 -> 20"],
    [
      { minimum: 1 },
      { exclusiveMinimum: 1 },
      "TOOL_INPUT_RANGE_NARROWED",
      "minimum 1 -> (none), exclusiveMinimum (none) -> 1",
    ],
    [{ multipleOf: 2 }, { multipleOf: 4 }, "TOOL_INPUT_RANGE_NARROWED", "multipleOf 2 -> 4"],
    [{}, { minLength: 3 }, "TOOL_INPUT_LENGTH_NARROWED", "minLength (none) -> 3"],
    [{}, { pattern: "^a" }, "TOOL_INPUT_PATTERN_CHANGED", 'pattern (none) -> "^a"'],
    [{}, { format: "email" }, "TOOL_INPUT_FORMAT_CHANGED", 'format (none) -> "email"'],
    [{}, { maxItems: 5 }, "TOOL_INPUT_ITEMS_NARROWED", "maxItems (none) -> 5"],
    [{}, { uniqueItems: true }, "TOOL_INPUT_ITEMS_NARROWED", "uniqueItems (none) -> true"],
    [{ maxProperties: 3 }, { maxProperties: 2 }, "TOOL_INPUT_OBJECT_NARROWED", "maxProperties 3 -> 2"],
    [{}, { propertyNames: { pattern: "^[a-z]+$" } }, "TOOL_INPUT_OBJECT_NARROWED", "propertyNames"],
  ];
  for (const [a, b, rule, what] of cases) {
    const input = keywordChanges("input", a, b);
    assert.equal(
      input.map((c) => c.rule),
      [rule],
      JSON.stringify([a, b]),
    );
    assert.ok(input[0]!.message.includes(what), input[0]!.message);
    // the same edit backwards is a widening: fine for an input, breaking for an output
    assert.equal(keywordChanges("input", b, a), [], JSON.stringify([b, a]));
    assert.equal(
      keywordChanges("output", b, a).map((c) => c.rule),
      [rule.replace("INPUT", "OUTPUT").replace("NARROWED", "WIDENED")],
      JSON.stringify([b, a]),
    );
    assert.equal(keywordChanges("output", a, b), [], JSON.stringify([a, b]));
  }
  // multiples of 2 and of 3 lose values both ways; 0.1 -> 0.05 keeps them all, in floating point too
  assert.equal(
    keywordChanges("input", { multipleOf: 3 }, { multipleOf: 2 }).map((c) => c.rule),
    ["TOOL_INPUT_RANGE_NARROWED"],
  );
  assert.equal(keywordChanges("input", { multipleOf: 0.1 }, { multipleOf: 0.05 }), []);
  // a pattern is compared as written: any change breaks both ways, even one that accepts more
  for (const mode of ["input", "output"] as const) {
    assert.equal(
      keywordChanges(mode, { pattern: "^a$" }, { pattern: "^a" }).map((c) => c.message),
      [`pattern "^a$" -> "^a" (${mode === "input" ? "may accept less" : "may hold more"})`],
    );
    assert.equal(keywordChanges(mode, { pattern: "^a" }, { pattern: "^a" }), []);
  }
});

test.run();
