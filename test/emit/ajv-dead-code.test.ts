// The dead-code pass over ajv's standalone output: only side-effect-free empty statements and
// unread declarations go; an `else` keeps its `if`, and string literals are never touched.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { dropDeadCode } from "../../generator/emit/ajv-code.js";

test("dead code: empty ifs, empty elses and unread _errs declarations go", () => {
  const code =
    'function validate0(data){let errors = 0;const _errs1 = errors;const _errs2 = errors;if(typeof data !== "string"){return false;}else {}if(errors === _errs2){}if(valid0){}if(errors === 0){}return errors === 0;}';
  assert.is(
    dropDeadCode(code),
    'function validate0(data){let errors = 0;if(typeof data !== "string"){return false;}return errors === 0;}',
  );
});

test("dead code: an empty if followed by else stays; a read _errs stays", () => {
  const code =
    "function validate0(data){let errors = 0;const _errs1 = errors;if(valid0){}else {return false;}var valid1 = _errs1 === errors;}";
  assert.is(dropDeadCode(code), code);
  assert.is(dropDeadCode("function validate0(){if(valid0){}else {}}"), "function validate0(){}");
});

test("dead code: _errs numbering is per function, and string literals are left alone", () => {
  const code =
    'function validate0(d){const _errs1 = errors;var v = _errs1 === errors;}function validate1(d){const _errs1 = errors;return fail(validate1,"if(valid0){}else {}","const _errs1 = errors;");}';
  assert.is(
    dropDeadCode(code),
    'function validate0(d){const _errs1 = errors;var v = _errs1 === errors;}function validate1(d){const _errs1 = errors;return fail(validate1,"if(valid0){}else {}","const _errs1 = errors;");}',
  );
  assert.is(
    dropDeadCode(
      "function validate0(d){const _errs1 = errors;var v = _errs1 === errors;}function validate1(d){const _errs1 = errors;return true;}",
    ),
    "function validate0(d){const _errs1 = errors;var v = _errs1 === errors;}function validate1(d){return true;}",
  );
});

test.run();
