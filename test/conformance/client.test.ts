import { test } from "uvu";
import * as assert from "uvu/assert";
import { sampleArguments } from "../../examples/conformance-client/arguments.js";
import { applyDefaults } from "../../examples/conformance-client/defaults.js";

// The schema the suite's elicitation-sep1034-client-defaults mock sends (conformance-requirements §5.3).
const sep1034 = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
    nickname: { type: "string" },
  },
  required: [],
};

test("applyDefaults fills every default, keeps falsy defaults and given answers", () => {
  assert.equal(applyDefaults(sep1034), { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true });
  assert.equal(applyDefaults(sep1034, { name: "Jane", verified: false }), {
    name: "Jane",
    age: 30,
    score: 95.5,
    status: "active",
    verified: false,
  });
  assert.equal(
    applyDefaults({ properties: { off: { type: "boolean", default: false }, zero: { type: "number", default: 0 } } }),
    { off: false, zero: 0 },
  );
  assert.equal(
    applyDefaults({
      properties: { tags: { type: "array", default: ["a"] }, bad: { default: { nested: 1 } }, nil: { default: null } },
    }),
    { tags: ["a"] },
  );
});

test("applyDefaults tolerates a missing or property-less schema", () => {
  assert.equal(applyDefaults(undefined), {});
  assert.equal(applyDefaults({}, { a: 1 }), { a: 1 });
});

test("sampleArguments types values by the input schema", () => {
  const addNumbers = {
    name: "add_numbers",
    inputSchema: { properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  };
  assert.equal(sampleArguments(addNumbers), { a: 1, b: 2 });
  assert.equal(
    sampleArguments({
      name: "x",
      inputSchema: {
        properties: { s: { type: "string" }, i: { type: "integer" }, f: { type: "boolean" }, o: { type: "object" } },
      },
    }),
    { s: "test", i: 1, f: true },
  );
  assert.equal(sampleArguments({ name: "no-schema" }), {});
  assert.equal(sampleArguments({ name: "odd", inputSchema: { properties: { a: {}, b: { type: ["number"] } } } }), {});
});

test.run();
