// Tool schemas come from anywhere (pasted tools/list results): whatever they hold, loading and
// emitting must not crash, and what is emitted must compile.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitManifestTypes } from "../../generator/emit/manifest/types.js";
import { emitManifestLists } from "../../generator/emit/manifest/lists.js";
import { emitManifestValidators } from "../../generator/emit/manifest/validators.js";
import { tscStrict, withTempDir, writeFiles } from "./helpers.js";

/** Small deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYWORDS = [
  "type",
  "properties",
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "required",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "nullable",
  "description",
  "default",
  "format",
  "not",
  "title",
];
const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];
const NAMES = [
  "a",
  "type",
  "kebab-case",
  "dotted.name",
  "with space",
  "__proto__",
  "ünï",
  "123",
  "",
  "*/",
  "constructor",
  "toString",
];

function randomSchema(r: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const roll = r();
  if (depth <= 0 || roll < 0.08)
    return r() < 0.03 ? pick<unknown>([null, 3, "x", []]) : pick<unknown>([true, false, {}, { type: "string" }]);
  const s: { [k: string]: unknown } = {};
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const k = pick(KEYWORDS);
    switch (k) {
      case "type":
        s.type = r() < 0.01 ? pick<unknown>(["strng", 42]) : r() < 0.2 ? [pick(TYPES), "null"] : pick(TYPES);
        break;
      case "properties":
      case "patternProperties":
      case "$defs":
      case "definitions": {
        const props: { [k: string]: unknown } = {};
        for (let j = 0; j < 1 + Math.floor(r() * 3); j++) props[pick(NAMES)] = randomSchema(r, depth - 1);
        s[k] = props;
        break;
      }
      case "items":
      case "additionalProperties":
      case "not":
        s[k] = randomSchema(r, depth - 1);
        break;
      case "prefixItems":
      case "anyOf":
      case "oneOf":
      case "allOf":
        s[k] = Array.from({ length: (k === "prefixItems" ? 0 : 1) + Math.floor(r() * 3) }, () =>
          randomSchema(r, depth - 1),
        );
        break;
      case "required":
        s.required = r() < 0.98 ? [...new Set([pick(NAMES), pick(NAMES)])] : "a";
        break;
      case "enum":
        s.enum = r() < 0.98 ? [1, "a", null, { x: [1] }, true] : "nope";
        break;
      case "const":
        s.const = pick<unknown>([1, "c", null, { k: "v" }, [1, 2], -0.5]);
        break;
      case "$ref":
        s.$ref = pick([
          "#",
          "#/$defs/a",
          "#/definitions/type",
          "#/properties/a",
          "#nope",
          "http://x/y.json",
          "#/$defs/%2F",
        ]);
        break;
      case "nullable":
        s.nullable = r() < 0.5;
        break;
      default:
        s[k] =
          k === "default"
            ? pick<unknown>([7, { d: 1 }, "x"])
            : r() < 0.02
              ? 7
              : pick(["text */ with terminator", "date-time", "a\nb"]);
    }
  }
  return s;
}

const asObject = (v: unknown): object =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? v : { type: "object", description: String(v) };

for (const seed of [20261122, 26])
  test(`robustness: 300 random tool schemas (seed ${seed}) never crash load/emit, and the output compiles`, () => {
    const r = rng(seed);
    const tools = Array.from({ length: 300 }, (_, i) => ({
      name: `tool_${i}`,
      inputSchema:
        r() < 0.85
          ? {
              type: "object",
              properties: { p: randomSchema(r, 4), q: randomSchema(r, 3) },
              ...(r() < 0.5 ? { $defs: { a: randomSchema(r, 2), type: randomSchema(r, 2) } } : {}),
            }
          : asObject(randomSchema(r, 3)),
      outputSchema: { type: "object", properties: { out: randomSchema(r, 4) } },
    }));
    const text = JSON.stringify({ name: "fuzz", version: "1", revisions: ["2026-07-28"], tools });
    const loaded = parseManifest(text, "fuzz.json", { lenient: true });
    assert.ok(loaded.diagnostics.length > 50, "the random schemas do exercise the broken-schema paths");
    assert.ok(
      loaded.fallbackSchemas.size > 10 && loaded.fallbackSchemas.size < 250,
      String(loaded.fallbackSchemas.size),
    );
    const model = buildServerModel(loaded);
    const types = emitManifestTypes(model);
    const lists = emitManifestLists(model);
    const validators = emitManifestValidators(model); // ajv must compile whatever the loader let through
    assert.ok(validators.files.length >= 2);
    assert.equal(
      types.problems.filter((p) => p.severity === "error" && !/clash/.test(p.message)),
      [],
    );
    withTempDir((dir) => {
      writeFiles(dir, { "types.ts": types.file.contents, "lists.ts": lists.contents });
      const out = tscStrict(dir, ["types.ts", "lists.ts"]);
      assert.is(out.code, 0, out.output.slice(0, 3000));
    });
  });

test("robustness: schemas nested 300 levels deep", () => {
  let schema: { [k: string]: unknown } = { type: "string" };
  for (let i = 0; i < 300; i++)
    schema = {
      type: i % 2 ? "object" : "array",
      ...(i % 2 ? { properties: { n: schema }, required: ["n"] } : { items: schema }),
    };
  const text = JSON.stringify({
    name: "deep",
    version: "1",
    tools: [{ name: "deep", inputSchema: { type: "object", properties: { root: schema } } }],
  });
  const { file, problems } = emitManifestTypes(buildServerModel(parseManifest(text, "deep.json")));
  assert.equal(problems, []);
  withTempDir((dir) => {
    writeFiles(dir, { "types.ts": file.contents });
    const out = tscStrict(dir, ["types.ts"]);
    assert.is(out.code, 0, out.output.slice(0, 2000));
  });
});

test.run();
