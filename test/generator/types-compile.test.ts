/**
 * The emitted types.ts of every revision, formatted by prettier (as the print stage will), compiled
 * by `tsc --strict --noEmit --isolatedModules` under NodeNext and Bundler resolution with TS 7 and
 * TS 5.9, together with per-revision type tests whose `@ts-expect-error` lines must all be used.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "prettier";
import { emitTypes } from "../../generator/emit/protocol/types.js";
import { REVISIONS, revisionModel as schemaModel, type Revision } from "./helpers/revision-model.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const COMPILERS = {
  ts7: join(root, "node_modules/typescript/bin/tsc"),
  "ts5.9": join(root, "node_modules/typescript-5/bin/tsc"),
};
const RESOLUTIONS = {
  NodeNext: { module: "NodeNext", moduleResolution: "NodeNext" },
  Bundler: { module: "ESNext", moduleResolution: "Bundler" },
};
const dir = mkdtempSync(join(tmpdir(), "mcpgen-types-"));

function checks(rev: Revision): string {
  const modern = rev === "2026-07-28";
  const framed = rev >= "2025-11-25";
  const meta = modern
    ? `, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }`
    : "";
  const envelope = framed ? `jsonrpc: "2.0", id: 1, ` : "";
  const resultExtra = modern ? `, resultType: "complete", ttlMs: 0, cacheScope: "public"` : "";
  const lines = [
    `import type { CallToolRequest, ClientRequestMethod, NotificationMethod, NotificationParams, RequestMethod, RequestParams, ResultOf } from "./${rev}/types.js";`,
    `export const params = { name: "echo", arguments: { text: "hi" }${meta} } satisfies RequestParams<"tools/call">;`,
    `const { name: _name, ...noName } = params;`,
    `// @ts-expect-error tools/call params require name`,
    `export const badParams: RequestParams<"tools/call"> = noName;`,
    `export const request: CallToolRequest = { ${envelope}method: "tools/call", params };`,
    `// @ts-expect-error CallToolRequest params without name`,
    `export const badRequest: CallToolRequest = { ${envelope}method: "tools/call", params: noName };`,
    `// @ts-expect-error tools/call params cannot be omitted`,
    `export const noCallParams: RequestParams<"tools/call"> = undefined;`,
    `export const listed = { tools: [{ name: "echo", inputSchema: { type: "object" } }]${resultExtra} } satisfies ResultOf<"tools/list">;`,
    `export const toolNames: string[] = listed.tools.map((t) => t.name);`,
    `export function names(r: ResultOf<"tools/list">): string[] { return r.tools.map((t) => t.name); }`,
    `const { tools: _tools, ...noTools } = listed;`,
    `// @ts-expect-error a tools/list result has tools`,
    `export const badListed: ResultOf<"tools/list"> = noTools;`,
    `export const call: RequestMethod = "tools/call";`,
    `export const cancelled: NotificationMethod = "notifications/cancelled";`,
    `// @ts-expect-error a notification method is not a request method`,
    `export const notRequest: RequestMethod = "notifications/cancelled";`,
    `export const progress: NotificationParams<"notifications/progress"> = { progressToken: "t", progress: 1 };`,
    `// @ts-expect-error progress notifications need a token`,
    `export const badProgress: NotificationParams<"notifications/progress"> = { progress: 1 };`,
  ];
  if (modern) {
    lines.push(
      `// @ts-expect-error 2026-07-28 has no initialize`,
      `export const init: ClientRequestMethod = "initialize";`,
      `// @ts-expect-error tools/list params carry the required _meta`,
      `export const noListParams: RequestParams<"tools/list"> = undefined;`,
      `export function content(r: ResultOf<"tools/call">): unknown {`,
      `  if (r.resultType === "input_required") return r.inputRequests;`,
      `  return r.content;`,
      `}`,
      `export function undiscriminated(r: ResultOf<"tools/call">): unknown {`,
      `  // @ts-expect-error content exists only once resultType says complete`,
      `  return r.content;`,
      `}`,
    );
  } else {
    lines.push(
      `export const init: ClientRequestMethod = "initialize";`,
      `export const noListParams: RequestParams<"tools/list"> = undefined;`,
      `export const withProgress = { ...params, _meta: { progressToken: "p" } } satisfies RequestParams<"tools/call">;`,
      `// @ts-expect-error progressToken is a string or a number`,
      `export const badProgressToken: RequestParams<"tools/call"> = { ...params, _meta: { progressToken: true } };`,
      `export const result: ResultOf<"tools/call"> = { content: [{ type: "text", text: "ok" }] };`,
    );
  }
  if (rev === "2025-11-25") {
    lines.push(
      `export const taskGet: RequestParams<"tasks/get"> = { taskId: "t", _meta: { progressToken: 1 } };`,
      `// @ts-expect-error progressToken is a string or a number`,
      `export const badTaskGet: RequestParams<"tasks/get"> = { taskId: "t", _meta: { progressToken: true } };`,
    );
  }
  if (framed)
    lines.push(
      `export const schemaShape: RequestParams = { _meta: ${modern ? meta.slice(", _meta: ".length) : "{}"} };`,
    );
  return `${lines.join("\n")}\n`;
}

function tsconfig(name: string, resolution: keyof typeof RESOLUTIONS, files: string[]): string {
  const path = join(dir, `tsconfig.${name}.json`);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "ES2022",
    lib: ["ES2023"],
    ...RESOLUTIONS[resolution],
    isolatedModules: true,
    verbatimModuleSyntax: true,
    types: [],
  };
  writeFileSync(path, JSON.stringify({ compilerOptions, files }, null, 2));
  return path;
}

function tsc(compiler: keyof typeof COMPILERS, project: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [COMPILERS[compiler], "-p", project, "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    killSignal: "SIGKILL",
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ""}` };
}

test.before(async () => {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const rev of REVISIONS) {
    mkdirSync(join(dir, rev));
    const raw = emitTypes(schemaModel(rev))[0]!.contents;
    writeFileSync(join(dir, rev, "types.ts"), await format(raw, { parser: "typescript" }));
    writeFileSync(join(dir, `checks-${rev}.ts`), checks(rev));
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

const allFiles = REVISIONS.flatMap((rev) => [`${rev}/types.ts`, `checks-${rev}.ts`]);
for (const compiler of Object.keys(COMPILERS) as (keyof typeof COMPILERS)[]) {
  for (const resolution of Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]) {
    test(`${compiler} ${resolution}: all revisions compile and every @ts-expect-error is used`, () => {
      const r = tsc(compiler, tsconfig(`${compiler}-${resolution}`, resolution, allFiles));
      assert.is(r.output.trim(), "", r.output);
      assert.is(r.status, 0);
    });
  }
}

test("control: an unused @ts-expect-error fails the compile", () => {
  writeFileSync(join(dir, "control.ts"), `// @ts-expect-error nothing wrong below\nexport const fine: number = 1;\n`);
  const r = tsc("ts7", tsconfig("control", "NodeNext", ["control.ts"]));
  assert.is.not(r.status, 0);
  assert.match(r.output, /TS2578/);
});

test("control: the type tests catch loose params types", () => {
  // make tools/call's `name` optional and the tools/list result's `tools` optional
  const strict = readFileSync(join(dir, "2025-06-18", "types.ts"), "utf8");
  const loose = strict
    .replace(/(export interface CallToolRequest \{[\s\S]*?)name: string;/, "$1name?: string;")
    .replace(/(export interface ListToolsResult \{[\s\S]*?)tools: Tool\[\];/, "$1tools?: Tool[];");
  assert.is.not(loose, strict);
  mkdirSync(join(dir, "loose", "2025-06-18"), { recursive: true });
  writeFileSync(join(dir, "loose", "2025-06-18", "types.ts"), loose);
  writeFileSync(join(dir, "loose", "checks.ts"), checks("2025-06-18"));
  const r = tsc("ts7", tsconfig("loose", "NodeNext", ["loose/2025-06-18/types.ts", "loose/checks.ts"]));
  const unused = r.output
    .split("\n")
    .filter((l) => l.includes("TS2578"))
    .map((l) => /\((\d+),/.exec(l)?.[1]);
  const lines = checks("2025-06-18").split("\n");
  const expected = ["badParams", "badRequest", "badListed"].map((n) =>
    String(lines.findIndex((l) => l.includes(`const ${n}:`))),
  );
  assert.equal(unused, expected, r.output); // each @ts-expect-error sits on the line above its declaration
  assert.match(r.output, /'r\.tools' is possibly 'undefined'/);
});

test.run();
