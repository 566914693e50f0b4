// Round trip: a code-first module → `extract` → `generate` → the module, unchanged, is the
// generated `<Name>Handlers` (strict tsc through ts-morph), and every handler's input, structured
// output, prompt arguments and template variables are the same types as the generated ones
// (mutual assignability by the checker), with a negative control proving the comparison bites.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Project, ts } from "ts-morph";
import { extractCommand } from "../../generator/extract/command.js";
import { generate } from "../../generator/generate.js";
import { toMemberName, toTypeName } from "../../generator/names/index.js";
import { root } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const dir = tempDir("extract-roundtrip-");
test.after(() => removeDir(dir));

interface Pair {
  what: string;
  source: string;
  generated: string;
}
const pairs: Pair[] = [];
let project: Project;

test.before(async () => {
  copyFileSync(join(root, "test", "fixtures", "extract-roundtrip", "tools.ts"), join(dir, "tools.ts"));
  const r = await extractCommand({ from: "tools.ts", out: "mcp.manifest.json", name: "roundtrip", cwd: dir });
  assert.ok(r.written);
  await generate({ manifest: "mcp.manifest.json", out: "mcp", cwd: dir, cache: false });
  const manifest = JSON.parse(readFileSync(join(dir, "mcp.manifest.json"), "utf8")) as {
    tools: { name: string; outputSchema?: object }[];
    prompts: { name: string }[];
    resourceTemplates: { name: string }[];
  };
  const lines = [
    `import * as handlers from "./tools.js";`,
    `import type { RoundtripHandlers } from "./mcp/server.js";`,
    `import type * as T from "./mcp/types.js";`,
    `import type { ToolError, ToolResult } from "@mcpgen/runtime";`,
    `export const typed: RoundtripHandlers = handlers;`,
    `type Structured<R> = Awaited<R> extends infer A ? (A extends ToolError ? never : A extends ToolResult<infer O> ? O : A) : never;`,
  ];
  const add = (what: string, source: string, generated: string) => {
    const i = pairs.length;
    lines.push(`export type S${i} = ${source};`, `export type G${i} = ${generated};`);
    pairs.push({ what, source: `S${i}`, generated: `G${i}` });
  };
  for (const t of manifest.tools) {
    const member = toMemberName(t.name);
    add(`tool ${t.name} input`, `Parameters<typeof handlers.tools.${member}>[0]`, `T.${toTypeName(t.name)}Input`);
    if (t.outputSchema)
      add(
        `tool ${t.name} output`,
        `Structured<ReturnType<typeof handlers.tools.${member}>>`,
        `T.${toTypeName(t.name)}Output`,
      );
  }
  for (const p of manifest.prompts)
    add(`prompt ${p.name} args`, `Parameters<typeof handlers.prompts.${p.name}>[0]`, `T.${toTypeName(p.name)}Args`);
  for (const r of manifest.resourceTemplates)
    add(`template ${r.name} vars`, `Parameters<typeof handlers.resources.${r.name}>[0]`, `T.${toTypeName(r.name)}Vars`);
  writeFileSync(join(dir, "check.ts"), lines.join("\n") + "\n");
  project = new Project({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    },
  });
  project.addSourceFileAtPath(join(dir, "check.ts"));
  project.resolveSourceFileDependencies();
});

test("the handler module compiles against the generated RoundtripHandlers unchanged (strict)", () => {
  const diagnostics = project.getPreEmitDiagnostics();
  assert.is(project.formatDiagnosticsWithColorAndContext(diagnostics), "");
});

test("covers every tool with an outputSchema, the prompt and the template", () => {
  assert.equal(
    pairs.map((p) => p.what),
    [
      "tool createContact input",
      "tool createContact output",
      "tool measure input",
      "tool measure output",
      "tool prune input",
      "tool prune output",
      "tool echo input",
      "prompt draft args",
      "template contact vars",
    ],
  );
});

function typeOf(name: string): ts.Type {
  const alias = project.getSourceFileOrThrow(join(dir, "check.ts")).getTypeAliasOrThrow(name);
  return alias.getType().compilerType;
}

function same(a: string, b: string): { ab: boolean; ba: boolean } {
  const checker = project.getTypeChecker().compilerObject;
  return { ab: checker.isTypeAssignableTo(typeOf(a), typeOf(b)), ba: checker.isTypeAssignableTo(typeOf(b), typeOf(a)) };
}

test("each source type and its generated type are mutually assignable", () => {
  for (const p of pairs) assert.equal(same(p.source, p.generated), { ab: true, ba: true }, p.what);
});

test("negative control: different tools' inputs are not the same type", () => {
  const contact = pairs.find((p) => p.what === "tool createContact input")!;
  const measure = pairs.find((p) => p.what === "tool measure input")!;
  assert.equal(same(contact.source, measure.generated), { ab: false, ba: false });
});

test.run();
