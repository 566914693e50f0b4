// The runtime's seams stay where they are: no function (closures and methods included) in
// runtime/src/http-server/ runs over 120 lines, so a handler cannot grow back into one closure
// holding every branch of every request; and server/server.ts stays at most 350 lines: McpServer
// connects, routes eras, loads lazily and broadcasts, while the definition's entries live in the
// server core (core.ts) and each era's serving in its side (legacy.ts, modern.ts).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAX_LINES = 120;
const MAX_SERVER_LINES = 350;
const src = fileURLToPath(new URL("../../../runtime/src/", import.meta.url));
const dir = join(src, "http-server");

// TypeScript 5's JS API only parses here.
interface Node {
  readonly end: number;
  readonly body?: unknown;
  readonly name?: { getText(sf: SourceFile): string };
  getStart(sf: SourceFile): number;
}
interface SourceFile extends Node {
  getLineAndCharacterOfPosition(pos: number): { line: number };
}
const ts = createRequire(import.meta.url)("typescript-5") as {
  createSourceFile(name: string, text: string, target: number, setParents: boolean): SourceFile;
  forEachChild(node: Node, visit: (n: Node) => void): void;
  isFunctionLike(node: Node): boolean;
  ScriptTarget: { Latest: number };
};

/** Every function with a body in `text`: its length in lines and where it starts. */
function functions(file: string, text: string): { lines: number; at: string }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { lines: number; at: string }[] = [];
  const visit = (n: Node): void => {
    if (ts.isFunctionLike(n) && n.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.end).line;
      out.push({ lines: last - first + 1, at: `${file}:${first + 1} ${n.name?.getText(sf) ?? "(anonymous)"}` });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

test(`no function in runtime/src/http-server/ is longer than ${MAX_LINES} lines`, () => {
  const all = readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => functions(f, readFileSync(join(dir, f), "utf8")));
  assert.ok(all.length > 50, "the files were read and their functions found");
  assert.equal(
    all.filter((f) => f.lines > MAX_LINES).map((f) => `${f.at}: ${f.lines} lines`),
    [],
  );
});

test(`server/server.ts has at most ${MAX_SERVER_LINES} lines`, () => {
  const lines = readFileSync(join(src, "server", "server.ts"), "utf8").split("\n").length - 1;
  assert.ok(lines > 100 && lines <= MAX_SERVER_LINES, `${lines} lines`);
});

test("the measure counts a function's lines, nested ones apart", () => {
  const text = [
    "function outer() {",
    "  const inner = () => {",
    "    return 1;",
    "  };",
    "  return inner();",
    "}",
    "class C {",
    "  m(): void {}",
    "}",
  ].join("\n");
  assert.equal(
    functions("x.ts", text).map((f) => [f.lines, f.at]),
    [
      [6, "x.ts:1 outer"],
      [3, "x.ts:2 (anonymous)"],
      [1, "x.ts:8 m"],
    ],
  );
});

test.run();
