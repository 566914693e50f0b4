// Differential corpus for the draft-07 schemas (2024-11-05 .. 2025-06-18): the 2026-07-28
// examples whose type exists in the revision, through the emitted validators and in-memory Ajv and
// Ajv2020. All three must agree on every instance; mutants of the ones that fit must be rejected.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { inMemoryEngines, loadValidators, modelOf } from "../generator/validators-fixture.js";
import { agree, errorsDiffer, examples, mutants, verdicts } from "./differential.js";

for (const revision of ["2024-11-05", "2025-03-26", "2025-06-18"]) {
  test(`${revision}: emitted, Ajv and Ajv2020 agree on the borrowed examples and reject the mutants`, async () => {
    const emitted = await loadValidators(revision);
    const engines = inMemoryEngines(revision);
    const types = new Set(modelOf(revision).types.map((t) => t.name));
    const borrowed = examples().filter((e) => types.has(e.type));
    assert.ok(borrowed.length >= 30, `only ${borrowed.length} examples have a ${revision} type`);
    const failures: string[] = [];
    let fitting = 0;
    for (const example of borrowed) {
      const v = verdicts(emitted, engines, example.type, example.data);
      if (!agree(v)) failures.push(`${example.file}: ${JSON.stringify(v)}`);
      if (!v.ajv2020) continue;
      fitting++;
      for (const mutant of mutants(revision, example.type, example.data)) {
        const m = verdicts(emitted, engines, example.type, mutant.data);
        if (m.emitted || m.draft07 || m.ajv2020)
          failures.push(`${example.file} with ${mutant.label}: ${JSON.stringify(m)}`);
        const differ = errorsDiffer(emitted, engines, example.type);
        if (differ) failures.push(`${example.file} with ${mutant.label}: ${differ}`);
      }
    }
    assert.equal(failures, []);
    assert.ok(fitting >= 10, `only ${fitting} examples fit ${revision}`);
  });
}

test.run();
