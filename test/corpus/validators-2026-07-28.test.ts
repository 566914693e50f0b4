// Corpus: every example message of the 2026-07-28 specification through the emitted validator of
// its type and in-memory ajv (draft-07 engine and Ajv2020) on the same schema; all three must
// accept it, and must all reject its mutated copies.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { inMemoryEngines, loadValidators } from "../generator/validators-fixture.js";
import { agree, errorsDiffer, examples, mutants, verdicts } from "./differential.js";

const REVISION = "2026-07-28";
const corpus = examples();
const engines = inMemoryEngines(REVISION);

test("the corpus is the specification's examples", () => {
  assert.ok(corpus.length >= 100, `only ${corpus.length} examples found`);
});

test("every example validates with the emitted validator of its type and with both in-memory engines", async () => {
  const emitted = await loadValidators(REVISION);
  const failures: string[] = [];
  for (const example of corpus) {
    const v = verdicts(emitted, engines, example.type, example.data);
    if (!(v.emitted && v.draft07 && v.ajv2020)) {
      const errors = emitted.validator(example.type).errors ?? engines.ajv2020(example.type).errors;
      failures.push(`${example.file}: ${JSON.stringify(v)} ${JSON.stringify(errors)}`);
    }
  }
  assert.equal(failures, []);
});

test("mutated examples (required field removed, field of the wrong type) are rejected by all three, with the same errors", async () => {
  const emitted = await loadValidators(REVISION);
  const failures: string[] = [];
  let count = 0;
  for (const example of corpus) {
    for (const mutant of mutants(REVISION, example.type, example.data)) {
      count++;
      const v = verdicts(emitted, engines, example.type, mutant.data);
      if (v.emitted || v.draft07 || v.ajv2020)
        failures.push(`${example.file} with ${mutant.label}: ${JSON.stringify(v)}`);
      const differ = errorsDiffer(emitted, engines, example.type);
      if (differ) failures.push(`${example.file} with ${mutant.label}: ${differ}`);
    }
  }
  assert.equal(failures, []);
  assert.ok(count >= corpus.length, `only ${count} mutants for ${corpus.length} examples`);
});

test("rejections carry a JSON pointer to the failing value and a readable message", async () => {
  const emitted = await loadValidators(REVISION);
  const example = corpus.find((e) => e.type === "CallToolRequest");
  assert.ok(example, "no CallToolRequest example");
  const bad = structuredClone(example.data) as { params: { name: unknown } };
  bad.params.name = 7;
  const validate = emitted.validator("CallToolRequest");
  assert.is(validate(bad), false);
  const [issue] = validate.errors ?? [];
  assert.is(issue?.instancePath, "/params/name");
  assert.is(issue?.message, "must be string");
  assert.ok(agree(verdicts(emitted, engines, "CallToolRequest", bad)));
});

test.run();
