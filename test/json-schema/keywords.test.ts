// The generator's one JSON Schema module (generator/json-schema/): the keyword table agrees with
// ajv's own vocabularies (what each dialect's engine compiles), the walk visits every subschema
// the table names, and pointers and local references round-trip.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  ANNOTATIONS,
  DIALECT_SPECIFIC,
  KEYWORDS,
  NEWER_ONLY,
  SUBSCHEMA,
  SUBSCHEMA_LIST,
  SUBSCHEMA_MAP,
} from "../../generator/json-schema/keywords.js";
import { escapePointerToken, resolvePointer, unescapePointerToken } from "../../generator/json-schema/pointer.js";
import { resolveLocalRef } from "../../generator/json-schema/ref.js";
import { walkSchema } from "../../generator/json-schema/walk.js";

test("every keyword that validates is compiled by the engines of the dialects the table gives it, and only by those", () => {
  const draft07 = new Ajv({ strict: false });
  const newer = new Ajv2020({ strict: false });
  for (const [name, k] of Object.entries(KEYWORDS)) {
    if (!["applicator", "assertion", "format", "reference"].includes(k.role)) continue;
    const inDraft07 = Boolean(draft07.getKeyword(name));
    const inNewer = Boolean(newer.getKeyword(name));
    if (k.dialects === "both") assert.ok(inDraft07 && inNewer, `${name}: both engines`);
    else if (k.dialects === "draft-07") assert.ok(inDraft07, `${name}: the draft-07 engine`);
    else assert.ok(!inDraft07 && inNewer, `${name}: only the 2020-12 engine`);
  }
});

test("the derived sets: newer-only keywords are dialect-specific, annotations never are, every subschema keyword holds schemas", () => {
  for (const k of NEWER_ONLY) assert.ok(DIALECT_SPECIFIC.includes(k), k);
  for (const k of ANNOTATIONS) assert.not.ok(DIALECT_SPECIFIC.includes(k) || NEWER_ONLY.includes(k), k);
  for (const k of [...SUBSCHEMA, ...SUBSCHEMA_LIST, ...SUBSCHEMA_MAP])
    assert.ok(KEYWORDS[k]!.role === "applicator" || KEYWORDS[k]!.role === "definitions", k);
  // $defs is a container: a $ref into it is a plain pointer, so it never asks for the 2020 engine
  assert.not.ok(NEWER_ONLY.includes("$defs"));
});

test("the walk visits every subschema keyword of the table at its pointer, and no annotation's schema", () => {
  const leaf = { type: "string" };
  const schema: { [key: string]: unknown } = { contentSchema: { type: "number" } };
  for (const k of SUBSCHEMA) if (!SUBSCHEMA_LIST.includes(k)) schema[k] = leaf;
  for (const k of SUBSCHEMA_LIST) if (!SUBSCHEMA.includes(k)) schema[k] = [leaf, leaf];
  for (const k of SUBSCHEMA_MAP) schema[k] = { "a/b": leaf };
  const seen: string[] = [];
  walkSchema({ items: [leaf], properties: { x: schema } }, "", (_s, p) => seen.push(p));
  const expected = ["", "/items/0", "/properties/x"];
  for (const k of SUBSCHEMA) if (!SUBSCHEMA_LIST.includes(k)) expected.push(`/properties/x/${k}`);
  for (const k of SUBSCHEMA_LIST)
    if (!SUBSCHEMA.includes(k)) expected.push(`/properties/x/${k}/0`, `/properties/x/${k}/1`);
  for (const k of SUBSCHEMA_MAP) expected.push(`/properties/x/${k}/a~1b`);
  assert.equal(seen, expected);
});

test("pointer tokens round-trip and resolve; local references resolve by pointer (URI-encoded) and by anchor", () => {
  fc.assert(
    fc.property(fc.string(), fc.jsonValue(), (key, value) => {
      const token = escapePointerToken(key);
      assert.not.ok(token.includes("/"));
      assert.is(unescapePointerToken(token), key);
      assert.equal(resolvePointer({ [key]: { v: value } }, `/${token}/v`), value);
    }),
    { numRuns: 200 },
  );
  const root = { $defs: { "a b": { type: "string" }, "c/d": { $anchor: "here", type: "number" } } };
  assert.equal(resolveLocalRef(root, "#/$defs/a%20b"), { pointer: "/$defs/a%20b", schema: { type: "string" } });
  assert.equal(resolveLocalRef(root, "#here"), { pointer: "/$defs/c~1d", schema: root.$defs["c/d"] });
  assert.is(resolveLocalRef(root, "#/$defs/missing"), undefined);
  assert.is(resolveLocalRef(root, "other.json#/x"), undefined);
  assert.is(resolveLocalRef(root, "#/%E0%A4%A"), undefined);
});

test.run();
