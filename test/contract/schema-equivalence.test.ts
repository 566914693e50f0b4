// The semantic schema comparison `verify` uses (generator/contract/schema-equivalence.ts): what
// counts as the same schema, where a difference is reported, and that a hostile served schema
// (arbitrary JSON, long $ref chains, exponential $defs, deep nesting) ends in bounded time.
import fc from "fast-check";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compareSchemas, DEFAULT_SCHEMA_LIMITS } from "../../generator/contract/schema-equivalence.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const same = (a: Json, b: Json) => {
  const r = compareSchemas(a, b);
  assert.is(r.difference, null, `${JSON.stringify(a)} vs ${JSON.stringify(b)}: ${JSON.stringify(r)}`);
  assert.is(r.undecided, undefined);
  return r;
};
const differ = (a: Json, b: Json) => {
  const r = compareSchemas(a, b);
  assert.ok(r.difference, `${JSON.stringify(a)} vs ${JSON.stringify(b)} should differ`);
  return r.difference!;
};

const point = { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] };
const tree = (defs: string, name: string) => ({
  [defs]: {
    [name]: {
      type: "object",
      properties: { value: { type: "string" }, children: { type: "array", items: { $ref: `#/${defs}/${name}` } } },
    },
  },
  $ref: `#/${defs}/${name}`,
});

test("equal: key order, $schema and annotations, sets in any order, const as enum, no-op keywords", () => {
  same(
    { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    {
      $schema: "http://json-schema.org/draft-07/schema#",
      required: ["a"],
      properties: { a: { type: "string" } },
      type: "object",
    },
  );
  same({ type: "object", required: ["a", "b"] }, { type: "object", required: ["b", "a", "a"] });
  same({ type: "string" }, { type: ["string"] });
  same({ type: ["string", "null"] }, { type: ["null", "string"] });
  same({ enum: ["a", { k: 1, j: 2 }] }, { enum: [{ j: 2, k: 1 }, "a"] });
  same({ const: 3 }, { enum: [3] });
  same({ anyOf: [{ type: "string" }, { type: "number" }] }, { anyOf: [{ type: "number" }, { type: "string" }] });
  same({ type: "object" }, { type: "object", properties: {}, additionalProperties: true, required: [] });
  same({ type: "array" }, { type: "array", items: { description: "anything" } });
  same(true, {});
  same(
    {
      title: "A",
      description: "x",
      default: 1,
      examples: [1],
      deprecated: true,
      readOnly: true,
      writeOnly: false,
      $comment: "c",
      contentMediaType: "text/plain",
    },
    {},
  );
  // the notes say where annotations differ, in the first schema's terms
  assert.equal(
    same(
      { properties: { a: { type: "string", description: "one" } } },
      { properties: { a: { type: "string", description: "two" } } },
    ).annotations,
    ["/properties/a/description"],
  );
  assert.equal(
    same({ type: "string" }, { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string" }).annotations,
    [],
  );
});

test("equal: local $ref is the schema it points to, wherever the definitions live; recursion is compared coinductively", () => {
  same(
    { type: "object", properties: { from: point, to: point } },
    { type: "object", $defs: { p: point }, properties: { from: { $ref: "#/$defs/p" }, to: { $ref: "#/$defs/p" } } },
  );
  same(
    { definitions: { p: point }, properties: { a: { $ref: "#/definitions/p" } } },
    { $defs: { q: point }, properties: { a: { $ref: "#/$defs/q" } } },
  );
  same(
    { $defs: { p: { $anchor: "pt", ...point } }, properties: { a: { $ref: "#pt" } } },
    { properties: { a: { $anchor: "pt", ...point } } },
  );
  same(tree("$defs", "node"), tree("definitions", "Tree"));
  // a chain of references, and a $ref beside other assertions
  same({ $defs: { a: { $ref: "#/$defs/b" }, b: { type: "integer" } }, $ref: "#/$defs/a" }, { type: "integer" });
  same(
    { $defs: { s: { type: "string" } }, properties: { a: { $ref: "#/$defs/s", minLength: 1 } } },
    { $defs: { t: { type: "string" } }, properties: { a: { minLength: 1, $ref: "#/$defs/t" } } },
  );
  // one recursive schema against the same one unrolled once
  const once = { type: "object", properties: { next: { type: "object", properties: { next: { $ref: "#" } } } } };
  same({ type: "object", properties: { next: { $ref: "#" } } }, once);
});

test("different: reported at the first schema's pointer with both values", () => {
  assert.equal(differ({ type: "string", format: "email" }, { type: "string" }), {
    pointer: "/format",
    first: "email",
    second: undefined,
  });
  assert.equal(differ({ type: "object" }, { type: "object", additionalProperties: false }), {
    pointer: "/additionalProperties",
    first: undefined,
    second: false,
  });
  assert.equal(differ({ enum: ["a", "b"] }, { enum: ["a"] }), { pointer: "/enum", first: ["a", "b"], second: ["a"] });
  assert.equal(differ({ properties: { a: { type: "integer" } } }, { properties: { a: { type: "number" } } }), {
    pointer: "/properties/a/type",
    first: "integer",
    second: "number",
  });
  assert.equal(differ({ properties: { "a/b": { type: "string" } } }, {}), {
    pointer: "/properties/a~1b",
    first: { type: "string" },
    second: undefined,
  });
  // through a $ref the pointer continues at the definition, where the manifest author can fix it
  assert.equal(
    differ(
      { $defs: { p: point }, properties: { a: { $ref: "#/$defs/p" } } },
      { properties: { a: { ...point, required: ["x"] } } },
    ),
    { pointer: "/$defs/p/required", first: ["x", "y"], second: ["x"] },
  );
  // branches in any order, but a branch with no partner is shown against the one at its index
  assert.equal(
    differ(
      { oneOf: [{ type: "string" }, { type: "number", minimum: 0 }] },
      { oneOf: [{ type: "string" }, { type: "number" }] },
    ),
    { pointer: "/oneOf/1/minimum", first: 0, second: undefined },
  );
  // recursive schemas that differ deep inside
  const deep = tree("$defs", "node") as unknown as { $defs: { node: { properties: { value: { type: string } } } } };
  const other = structuredClone(deep);
  other.$defs.node.properties.value.type = "number";
  assert.is(differ(deep as unknown as Json, other as unknown as Json).pointer, "/$defs/node/properties/value/type");
  // references that do not resolve (or are not local) compare as text, never fetched
  assert.equal(differ({ $ref: "https://example.com/a.json" }, { $ref: "https://example.com/b.json" }), {
    pointer: "/$ref",
    first: "https://example.com/a.json",
    second: "https://example.com/b.json",
  });
  same({ $ref: "https://example.com/a.json" }, { $ref: "https://example.com/a.json" });
  assert.is(differ({ $ref: "#/$defs/missing" }, { type: "string" }).pointer, "/$ref");
  assert.is(differ(false, true).pointer, "");
  assert.is(differ({ "x-mcp-header": "Region" }, {}).pointer, "/x-mcp-header");
});

test("limits: a long $ref chain, exponential $defs and deep nesting stop early and fall back to the JSON text", () => {
  const chain: { [k: string]: Json } = { d0: { type: "string" } };
  for (let i = 1; i <= 40; i++) chain[`d${i}`] = { $ref: `#/$defs/d${i - 1}` };
  const long = { $defs: chain, $ref: "#/$defs/d40" };
  const r = compareSchemas(long, { type: "string" });
  assert.match(r.undecided ?? "", /more than 32 \$ref hops/);
  assert.equal(r.difference?.pointer, "");
  // the same text is still equal
  const again = compareSchemas(long, structuredClone(long));
  assert.is(again.difference, null);
  assert.match(again.undecided ?? "", /\$ref hops/);

  // 2^40 paths through 40 definitions, each used twice: every pair of definitions is compared once
  const laughs: { [k: string]: Json } = { l0: { type: "string" } };
  for (let i = 1; i <= 40; i++)
    laughs[`l${i}`] = {
      type: "object",
      properties: { a: { $ref: `#/$defs/l${i - 1}` }, b: { $ref: `#/$defs/l${i - 1}` } },
    };
  const bomb = { $defs: laughs, $ref: "#/$defs/l40" };
  const bombB = structuredClone(bomb) as unknown as { $defs: { l0: { type: string } } };
  const started = Date.now();
  assert.equal(compareSchemas(bomb, structuredClone(bomb), { ...DEFAULT_SCHEMA_LIMITS, maxSteps: 1000 }), {
    difference: null,
    annotations: [],
  });
  bombB.$defs.l0.type = "number";
  assert.equal(compareSchemas(bomb, bombB as unknown as Json).difference, {
    pointer: "/$defs/l0/type",
    first: "string",
    second: "number",
  });
  assert.ok(Date.now() - started < 2000);

  // the step budget: an undecided comparison is equal only when the texts are
  const wide = { anyOf: Array.from({ length: 50 }, (_, i) => ({ const: i })) };
  const reversed = { anyOf: [...wide.anyOf].reverse() };
  const tight = { ...DEFAULT_SCHEMA_LIMITS, maxSteps: 100 };
  const w = compareSchemas(wide, reversed, tight);
  assert.is(w.undecided, "more than 100 subschemas compared");
  assert.equal(w.difference?.pointer, "");
  assert.is(compareSchemas(wide, reversed).difference, null);

  const nest = (leaf: string) => {
    let s: Json = { type: leaf };
    for (let i = 0; i < DEFAULT_SCHEMA_LIMITS.maxDepth + 10; i++) s = { type: "array", items: s };
    return s;
  };
  const n = compareSchemas(nest("string"), nest("number"));
  assert.match(n.undecided ?? "", /nested deeper than 256/);
  assert.ok(n.difference);
});

/** Schema-shaped values: the keywords the comparison treats specially, nested. */
const schemaArb = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(true as Json),
    fc.record(
      {
        type: fc.oneof(
          fc.constantFrom("string", "number", "integer", "object", "array", "null"),
          fc.uniqueArray(fc.constantFrom("string", "number", "null"), { minLength: 1 }),
        ),
        minimum: fc.integer({ min: -5, max: 5 }),
        enum: fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 4 }),
        properties: fc.dictionary(fc.string({ maxLength: 4 }), tie("schema"), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.string({ maxLength: 4 }), { maxLength: 3 }),
        anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }),
        items: tie("schema"),
        additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
        description: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: [] },
    ),
  ) as fc.Arbitrary<Json>,
})).schema;

/** The same schema written otherwise: keys (and set-like lists) reversed, `$schema` and prose added at every schema. */
function rewrite(s: Json): Json {
  if (typeof s !== "object" || s === null || Array.isArray(s)) return s;
  const out: { [key: string]: Json } = { $schema: "http://json-schema.org/draft-07/schema#", title: "rewritten" };
  for (const k of Object.keys(s).reverse()) {
    const v = s[k]!;
    if (k === "properties")
      out[k] = Object.fromEntries(
        Object.entries(v as { [key: string]: Json })
          .reverse()
          .map(([n, x]) => [n, rewrite(x)]),
      );
    else if (k === "anyOf") out[k] = (v as Json[]).map(rewrite).reverse();
    else if (k === "items" || k === "additionalProperties") out[k] = rewrite(v);
    else if (k === "required" || k === "enum" || (k === "type" && Array.isArray(v)))
      out[k] = [...(v as Json[])].reverse();
    else if (k !== "description") out[k] = v;
  }
  return out;
}

test("property: a schema written otherwise is the same schema; changing an assertion is a difference", () => {
  fc.assert(
    fc.property(schemaArb, (s) => {
      const r = compareSchemas(s, rewrite(s));
      return r.difference === null && r.undecided === undefined;
    }),
    { numRuns: 300, seed: 20261127 },
  );
  fc.assert(
    fc.property(schemaArb, fc.integer({ min: 6, max: 100 }), (s, m) => {
      const changed = typeof s === "object" && s !== null && !Array.isArray(s) ? { ...s, minimum: m } : { minimum: m };
      return compareSchemas(s, changed).difference?.pointer === "/minimum";
    }),
    { numRuns: 300, seed: 20261127 },
  );
});

test("property: any JSON from a server compares without throwing, within the step budget, and symmetrically", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.oneof(schemaArb, fc.jsonValue({ maxDepth: 6 })), (a, b) => {
      const small = { ...DEFAULT_SCHEMA_LIMITS, maxSteps: 2000 };
      const ab = compareSchemas(a as Json, b as Json, small);
      const ba = compareSchemas(b as Json, a as Json, small);
      assert.is(ab.difference === null, ba.difference === null, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      assert.is(compareSchemas(a as Json, a as Json, small).difference, null);
    }),
    { numRuns: 500, seed: 20261127 },
  );
});

test.run();
