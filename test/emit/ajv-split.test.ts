// Splitting ajv's standalone code into per-method modules: where each declaration lands, what each
// module imports and exports, and what the splitter refuses.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { splitStandalone, UNREACHED_MODULE } from "../../generator/emit/protocol/validators/split.js";

const CODE = [
  "function fail(validate, instancePath) {validate.errors = [{instancePath}];return false;}",
  "export const A: abi.Validator = validate1;",
  "export const B: abi.Validator = validate2;",
  "export const C: abi.Validator = validate4;",
  'const schema9 = {"enum":["x"]};',
  'function validate3(data) {if (data !== "}") {return fail(validate3, "");} return schema9.enum.length > 0;}',
  "function validate1(data) {return validate3(data) && abi.formats.uri(data);}",
  "function validate2(data) {return validate3(data) || validate2(data.next);}",
  'function validate4(data) {return fail(validate4, "");}',
].join("\n");

const split = () =>
  splitStandalone({
    code: CODE,
    abi: "abi",
    helper: "fail",
    entries: [
      { module: "params.a", exportName: "A" },
      { module: "B", exportName: "B" },
    ],
  });

test("a declaration reached by one entry lives in its module; one reached by several in a shared module", () => {
  const { modules, located } = split();
  const byName = Object.fromEntries(modules.map((m) => [m.name, m.contents]));
  const shared = modules.map((m) => m.name).filter((n) => n.startsWith("shared-"));
  assert.is(shared.length, 1);
  assert.equal(Object.keys(byName).sort(), ["B", UNREACHED_MODULE, "params.a", shared[0]!].sort());
  const s = byName[shared[0]!]!;
  assert.match(s, /function validate3\(/);
  assert.match(s, /const schema9 =/);
  assert.match(s, /export \{ validate3 \};/);
  assert.match(s, /function fail\(/, "each module that reports errors has its own helper");
  const a = byName["params.a"]!;
  assert.match(a, new RegExp(`import \\{ validate3 \\} from "\\./${shared[0]}\\.js";`));
  assert.match(
    a,
    /^import \* as abi from "@mcpgen\/runtime\/abi\/v8";/m,
    "a value import: the module calls abi.formats",
  );
  assert.match(a, /export const validate: abi\.Validator = validate1;/);
  assert.not.match(a, /function fail\(/);
  const b = byName.B!;
  assert.match(b, /^import type \* as abi from "@mcpgen\/runtime\/abi\/v8";/m);
  assert.match(b, /function validate2\(/);
  // Only the facade reaches C: it goes to the module of unreached definitions.
  assert.match(byName[UNREACHED_MODULE]!, /function validate4\(/);
  assert.equal(located.get("C"), [UNREACHED_MODULE, "C"]);
  assert.equal(located.get("A"), ["params.a", "A"]);
});

test("deterministic: the same code gives the same modules", () => {
  assert.equal(split(), split());
});

test("code it does not recognise is refused, not guessed at", () => {
  const run = (code: string) => () => splitStandalone({ code, abi: "abi", helper: "fail", entries: [] });
  assert.throws(run("validate1.evaluated = {};"), /unexpected top-level statement/);
  assert.throws(run("function validate1(data) {return true;"), /unterminated statement/);
  assert.throws(run("function validate1() {}\nfunction validate1() {}"), /declares validate1 twice/);
  assert.throws(
    () =>
      splitStandalone({ code: CODE, abi: "abi", helper: "fail", entries: [{ module: "X", exportName: "Missing" }] }),
    /no export Missing/,
  );
});

test.run();
