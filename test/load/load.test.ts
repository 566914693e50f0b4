import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpgenError } from "../../generator/errors.js";
import { findSyntaxError, lineColumn, loadSchema, parseJson } from "../../generator/load/index.js";
import { tempDir } from "../helpers.js";

function loadError(fn: () => unknown): McpgenError {
  try {
    fn();
  } catch (e) {
    assert.instance(e, McpgenError);
    return e as McpgenError;
  }
  assert.unreachable("should have thrown");
  throw new Error("unreachable");
}

test("bundled revisions load with their dialect", () => {
  assert.equal([loadSchema("2024-11-05").dialect, loadSchema("2024-11-05").defsKey], ["draft-07", "definitions"]);
  assert.equal([loadSchema("2025-11-25").dialect, loadSchema("2025-11-25").defsKey], ["2020-12", "$defs"]);
  assert.is(loadSchema("2025-11-25").bundled, "2025-11-25");
});

test("missing file names the path; unknown revision lists the bundled ones", () => {
  const { dir, cleanup } = tempDir();
  try {
    const e = loadError(() => loadSchema("nope/schema.json", { cwd: dir }));
    assert.is(e.file, "nope/schema.json");
    assert.match(e.message, /nope\/schema\.json: schema file not found/);
    assert.match(
      loadError(() => loadSchema("2019-01-01", { cwd: dir })).message,
      /not a bundled revision \(bundled: 2024-11-05, .*2026-07-28\)/,
    );
    assert.match(loadError(() => loadSchema(".", { cwd: dir })).message, /is a directory/);
  } finally {
    cleanup();
  }
});

test("invalid JSON reports line and column", () => {
  const { dir, cleanup } = tempDir();
  try {
    writeFileSync(join(dir, "bad.json"), '{\n  "a": 1,\n  "b": tru\n}\n');
    const e = loadError(() => loadSchema("bad.json", { cwd: dir }));
    assert.match(e.message, /^bad\.json: invalid JSON at line 3 column 8/);
    writeFileSync(join(dir, "empty.json"), "");
    assert.match(
      loadError(() => loadSchema("empty.json", { cwd: dir })).message,
      /line 1 column 1: unexpected end of input/,
    );
  } finally {
    cleanup();
  }
});

test("syntax error scanner positions", () => {
  const cases: [string, number, number, RegExp][] = [
    ['{"a":1,}', 1, 8, /property name/],
    ["[1 2]", 1, 4, /',' or '\]'/],
    ['{"a":"x\n"}', 1, 8, /control character/],
    ["01", 1, 2, /after the JSON value/],
    ['{"a":1} x', 1, 9, /after the JSON value/],
    ['"\\q"', 1, 3, /invalid escape/],
  ];
  for (const [text, line, column, reason] of cases) {
    const { offset, reason: got } = findSyntaxError(text);
    assert.equal(lineColumn(text, offset), { line, column }, text);
    assert.match(got, reason, text);
    assert.throws(() => JSON.parse(text));
  }
  assert.equal(parseJson('\ufeff{"a":[1]}', "x.json"), { a: [1] });
});

test("a JSON document that is not an MCP schema says what was expected", () => {
  const { dir, cleanup } = tempDir();
  try {
    const write = (name: string, v: unknown) => writeFileSync(join(dir, name), JSON.stringify(v));
    write("arr.json", [1, 2]);
    write("nodefs.json", { $schema: "http://json-schema.org/draft-07/schema#", type: "object" });
    write("norpc.json", { $defs: { Foo: { type: "string" } } });
    write("draft4.json", { $schema: "http://json-schema.org/draft-04/schema#", definitions: { JSONRPCRequest: {} } });
    assert.match(
      loadError(() => loadSchema("arr.json", { cwd: dir })).message,
      /arr\.json at \/ \(document root\): not an MCP schema/,
    );
    assert.match(
      loadError(() => loadSchema("nodefs.json", { cwd: dir })).message,
      /not an MCP schema: no definitions \(expected a `definitions` or `\$defs` object containing JSONRPCRequest\)/,
    );
    assert.match(
      loadError(() => loadSchema("norpc.json", { cwd: dir })).message,
      /norpc\.json at \/\$defs: not an MCP schema: JSONRPCRequest is not defined/,
    );
    assert.match(
      loadError(() => loadSchema("draft4.json", { cwd: dir })).message,
      /at \/\$schema: unsupported JSON Schema dialect/,
    );
  } finally {
    cleanup();
  }
});

test.run();
