import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileUriTemplate } from "@mcpgen/runtime";

const cases: [string, Record<string, string | string[]>, string][] = [
  ["weather://forecast/{city}/{day}", { city: "Paris", day: "mon" }, "weather://forecast/Paris/mon"],
  ["weather://forecast/{city}", { city: "São Paulo/x" }, "weather://forecast/S%C3%A3o%20Paulo%2Fx"],
  ["file:///{+path}", { path: "a/b c/d.txt" }, "file:///a/b%20c/d.txt"],
  ["file:///notes{/path*}", { path: ["a", "b c"] }, "file:///notes/a/b%20c"],
  ["notes://search{?q,limit}", { q: "a&b", limit: "5" }, "notes://search?q=a%26b&limit=5"],
  ["notes://search{?q}{&tag*}", { q: "x", tag: ["a", "b"] }, "notes://search?q=x&tag=a&tag=b"],
  ["db://{table}{;id,rev}", { table: "t", id: "1", rev: "2" }, "db://t;id=1;rev=2"],
  ["doc://{name}{.ext}", { name: "readme", ext: "md" }, "doc://readme.md"],
  ["page://x{#section}", { section: "intro/1" }, "page://x#intro/1"],
  ["pair://{a,b}", { a: "1", b: "2" }, "pair://1,2"],
];

for (const [template, vars, uri] of cases) {
  test(`${template}: expand and match back`, () => {
    const t = compileUriTemplate(template);
    assert.is(t.expand(vars), uri);
    assert.equal(t.match(uri), vars);
  });
}

test("optional parts may be absent; required ones may not", () => {
  assert.equal(compileUriTemplate("notes://search{?q,limit}").match("notes://search"), {});
  assert.equal(compileUriTemplate("notes://search{?q,limit}").match("notes://search?limit=3&other=1"), { limit: "3" });
  assert.equal(compileUriTemplate("file:///notes{/path*}").match("file:///notes"), { path: [] });
  assert.is(compileUriTemplate("weather://forecast/{city}/{day}").match("weather://forecast/Paris"), null);
  assert.is(compileUriTemplate("weather://forecast/{city}/{day}").match("weather://forecast/Paris/mon/extra"), null);
  assert.is(compileUriTemplate("weather://forecast/{city}").match("other://forecast/Paris"), null);
});

test("literals are matched literally (regex characters escaped)", () => {
  const t = compileUriTemplate("a+b://x.y/{id}(1)");
  assert.equal(t.match("a+b://x.y/7(1)"), { id: "7" });
  assert.is(t.match("a+b://xzy/7(1)"), null);
});

test("bad percent-encoding does not match (and does not throw)", () => {
  assert.is(compileUriTemplate("x://{id}").match("x://%E0%A4%A"), null);
});

test("variables lists distinct names in order", () => {
  assert.equal(compileUriTemplate("x://{a}/{b}{?c,a}").variables, ["a", "b", "c"]);
});

test("invalid templates throw a TypeError naming the template", () => {
  assert.throws(
    () => compileUriTemplate("x://{a"),
    (e: Error) => e instanceof TypeError && /x:\/\/\{a/.test(e.message),
  );
  assert.throws(() => compileUriTemplate("x://{a b}"), TypeError);
});

test.run();
