// End to end, code first: the notes example's handler module → `mcpgen generate --from` (the
// CLI, a real child process) → strict tsc build (TypeScript 7, and 5.9 without emitting) → the server as a child process over stdio,
// driven by the official SDK v1 client (which validates structured output against the listed
// outputSchema itself).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { root } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const dir = tempDir("extract-e2e-");
let client: Client | undefined;
test.after(async () => {
  await client?.close();
  removeDir(dir);
});

function run(cmd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, MCPGEN_DEBUG: "" },
  });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

test("extract + generate + build", () => {
  mkdirSync(join(dir, "src"));
  for (const f of ["notes.ts", "server.ts"])
    copyFileSync(join(root, "examples", "notes", "code-first", "src", f), join(dir, "src", f));
  const gen = run(process.execPath, [
    join(root, "dist", "bin", "mcpgen.js"),
    "generate",
    "--from",
    "src/notes.ts",
    "--name",
    "notes",
    "--out",
    "src/mcp",
    "--no-cache",
  ]);
  assert.is(gen.status, 0, gen.out);
  assert.match(gen.out, "mcp.manifest.json: wrote (2 tools, extracted from src/notes.ts)");
  assert.ok(existsSync(join(dir, "src", "mcp", "server.ts")));
  const files = [
    "src/notes.ts",
    "src/server.ts",
    ...readdirSync(join(dir, "src", "mcp"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `src/mcp/${f}`),
  ];
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        skipLibCheck: true,
        types: ["node"],
        outDir: "out",
        rootDir: "src",
      },
      files,
    }),
  );
  const tsc = run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"]);
  assert.is(tsc.status, 0, tsc.out);
  // generated code and the unchanged handler module also pass strict TypeScript 5.9
  const tsc5 = run(process.execPath, [
    join(root, "node_modules", "typescript-5", "bin", "tsc"),
    "-p",
    "tsconfig.json",
    "--noEmit",
  ]);
  assert.is(tsc5.status, 0, tsc5.out);
});

test("served over stdio to the official SDK client", async () => {
  const manifest = JSON.parse(readFileSync(join(dir, "mcp.manifest.json"), "utf8")) as {
    tools: { name: string; inputSchema: object; outputSchema: object }[];
  };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, "out", "server.js")],
    stderr: "pipe",
  });
  client = new Client({ name: "sdk-e2e", version: "1.0.0" });
  await client.connect(transport);
  assert.is(client.getServerVersion()?.name, "notes");

  const { tools } = await client.listTools();
  assert.equal(
    tools.map((t) => t.name),
    ["addNote", "searchNotes"],
  );
  assert.equal(tools[0]!.inputSchema, manifest.tools[0]!.inputSchema);
  assert.equal(tools[1]!.outputSchema, manifest.tools[1]!.outputSchema);

  const added = await client.callTool({
    name: "addNote",
    arguments: { title: "Groceries", body: "milk", tags: ["home"], source: { app: "e2e" } },
  });
  assert.equal(added.structuredContent, { id: 1, title: "Groceries", body: "milk", tags: ["home"] });
  await client.callTool({ name: "addNote", arguments: { title: "Standup", body: "ship it", tags: ["work"] } });
  const found = await client.callTool({ name: "searchNotes", arguments: { tag: "home" } });
  assert.equal(found.structuredContent, {
    notes: [{ id: 1, title: "Groceries", body: "milk", tags: ["home"] }],
    total: 1,
  });

  const bad = await client.callTool({ name: "addNote", arguments: { body: "no title" } });
  assert.is(bad.isError, true, "arguments missing a required property are refused by the generated validator");

  const read = await client.readResource({ uri: "notes://2" });
  assert.equal(JSON.parse((read.contents[0] as { text: string }).text), {
    id: 2,
    title: "Standup",
    body: "ship it",
    tags: ["work"],
  });
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.equal(
    resourceTemplates.map((r) => r.uriTemplate),
    ["notes://{id}"],
  );

  const prompt = await client.getPrompt({ name: "summarise", arguments: { tag: "work" } });
  assert.match((prompt.messages[0]!.content as { text: string }).text, '"title":"Standup"');
});

test.run();
