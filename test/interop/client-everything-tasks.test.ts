// A *generated* client drives the official server-everything over stdio with client tasks declared
// (2025-11-25 core tasks). A client offering sampling, elicitation (form and URL), roots and tasks
// is shown 19 tools, among them simulate-research-query (execution.taskSupport "required": the call
// must be task-augmented, and it asks for input through tasks/result) and the two *-async tools
// (the server sends sampling / elicitation as tasks the client runs and the server polls). The
// manifest is made from that listing, generated, compiled with tsc --strict together with a driver
// written against the generated types, and run: every one of the 19 tools must be callable.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { snapshotToManifest } from "../../generator/contract/pull/manifest.js";
import { generate } from "../../generator/generate.js";
import { repoRoot } from "../helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { bindings } from "../runtime/helpers/binding.js";
import { root, spawnClient } from "./helpers/stdio-peer.js";
import { sampleArguments } from "./helpers/sample-args.js";

const everything = root("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** Arguments that keep every call local and short (see client-everything-stdio.test.ts). */
const OVERRIDES: { [tool: string]: { [key: string]: unknown } } = {
  "gzip-file-as-resource": { data: "data:text/plain;base64,aGVsbG8gaW50ZXJvcA==" },
  "trigger-long-running-operation": { duration: 0.2, steps: 2 },
  "simulate-research-query": { topic: "python", ambiguous: true },
  "trigger-url-elicitation": { url: "https://example.com/consent", message: "open this" },
};

const HANDLERS = `{
  sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "canned reply" }, model: "canned" }),
  elicitation: (p: { requestedSchema: { properties: { [k: string]: unknown } } }) =>
    ({ action: "accept" as const, content: ("interpretation" in p.requestedSchema.properties ? { interpretation: "programming" } : { name: "Ada" }) as { [k: string]: string } }),
  elicitationUrl: () => ({ action: "accept" as const }),
  roots: () => [{ uri: "file:///tmp/mcpgen-interop", name: "interop root" }],
}`;

const DRIVER = `import { readFileSync } from "node:fs";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createServerEverythingClient } from "./mcp/client.js";
import { definition } from "./mcp/definition.js";

const [server, argsFile] = process.argv.slice(2) as [string, string];
const args = JSON.parse(readFileSync(argsFile, "utf8")) as { [tool: string]: object };
const transport = new StdioClientTransport({ command: process.execPath, args: [server, "stdio"], closeTimeoutMs: 300, termTimeoutMs: 1000 });
const client = await createServerEverythingClient(transport, {
  clientInfo: { name: "tasks-interop", version: "1.0.0" },
  tasks: true,
  pollIntervalMs: { min: 50, max: 1000 },
  timeout: 20_000,
  handlers: ${HANDLERS},
});
type AnyTool = (input: object) => Promise<{ isError: boolean; content: { type: string; text?: string }[] }>;
const out: { [tool: string]: { ok: boolean; isError?: boolean; text: string } } = {};
try {
  for (const [name, member] of Object.entries(definition.members.tools)) {
    const call = (client.tools as unknown as { [m: string]: AnyTool })[member]!;
    try {
      const r = await call(args[name] ?? {});
      out[name] = { ok: true, isError: r.isError, text: r.content.map((b) => b.text ?? "[" + b.type + "]").join("\\n") };
    } catch (e) {
      out[name] = { ok: false, text: String(e) };
    }
  }
  // The explicit form, typed by the pulled schema: a handle with an id, status changes, the result.
  const handle = await client.tools.simulateResearchQuery.start({ topic: "tasks" });
  const statuses: string[] = [];
  for await (const s of handle) statuses.push(s.status);
  const report = await handle.result();
  const again = await (await client.tools.simulateResearchQuery.resume(handle.taskId!)).status();
  // @ts-expect-error echo's execution.taskSupport is "forbidden": no start
  void (() => client.tools.echo.start({ message: "x" }));
  // @ts-expect-error the pulled inputSchema requires "topic"
  void (() => client.tools.simulateResearchQuery.start({}));
  console.log(JSON.stringify({ out, handle: { id: typeof handle.taskId, statuses, isError: report.isError, again: again.status } }));
} finally {
  await client.close();
  await transport.close();
}
`;

test("a generated client with tasks declared calls all 19 server-everything tools (task-required and task-receiving ones included)", async () => {
  // The listing a fully capable client sees (the same capabilities the driver declares).
  const peer = await spawnClient([everything, "stdio"], {
    bindings,
    clientInfo: { name: "mcpgen-interop", version: "1.0.0" },
    tasks: true,
    handlers: {
      sampling: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
      elicitation: () => ({ action: "decline" }),
      elicitationUrl: () => ({ action: "decline" }),
      roots: () => [],
    },
  });
  let tools;
  try {
    tools = await peer.client.listTools();
    assert.equal(peer.client.serverCapabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  } finally {
    await peer.close();
  }
  assert.is(tools.length, 19, tools.map((t) => t.name).join(", "));
  const required = tools
    .filter((t) => (t as { execution?: { taskSupport?: string } }).execution?.taskSupport === "required")
    .map((t) => t.name);
  assert.equal(required, ["simulate-research-query"]);

  const dir = tempDir("tasks-interop-");
  try {
    const pulled = snapshotToManifest(
      {
        serverInfo: { name: "server-everything", version: "1.0.0" },
        instructions: undefined,
        revisions: ["2025-11-25"],
        capabilities: { tools: {} },
        tools: tools as never,
        prompts: [],
        resources: [],
        resourceTemplates: [],
      },
      "mcp.manifest.json",
    );
    writeFileSync(join(dir, "mcp.manifest.json"), pulled.text);
    await generate({
      manifest: join(dir, "mcp.manifest.json"),
      out: join(dir, "mcp"),
      cwd: dir,
      config: false,
      lenient: true,
      warn: () => {},
    });
    const args = Object.fromEntries(
      tools.map((t) => [t.name, { ...sampleArguments(t.inputSchema), ...OVERRIDES[t.name] }]),
    );
    writeFileSync(join(dir, "args.json"), JSON.stringify(args));
    writeFileSync(join(dir, "driver.ts"), DRIVER);
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
        },
        include: ["driver.ts", "mcp/**/*.ts"],
      }),
    );
    mkdirSync(join(dir, "out"), { recursive: true });
    const tsc = spawnSync(
      process.execPath,
      [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")],
      { encoding: "utf8", timeout: 120_000 },
    );
    assert.is(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
    const run = spawnSync(process.execPath, [join(dir, "out/driver.js"), everything, join(dir, "args.json")], {
      encoding: "utf8",
      timeout: 90_000,
    });
    assert.is(run.status, 0, run.stderr);
    const { out, handle } = JSON.parse(run.stdout.trim().split("\n").pop()!) as {
      out: { [tool: string]: { ok: boolean; isError?: boolean; text: string } };
      handle: { id: string; statuses: string[]; isError: boolean; again: string };
    };
    const failed = Object.entries(out).filter(([, r]) => !r.ok || r.isError);
    assert.equal(failed, [], "every tool resolves with a non-error result");
    assert.is(Object.keys(out).length, 19);
    assert.match(
      out["simulate-research-query"]!.text,
      /Research Report: python \(programming\)/,
      "the task asked for a clarification through tasks/result and got ours",
    );
    assert.match(
      out["trigger-sampling-request-async"]!.text,
      /\[COMPLETED\] Async sampling completed/,
      "the client ran the sampling as a task the server polled",
    );
    assert.match(out["trigger-sampling-request-async"]!.text, /canned reply/);
    assert.match(
      out["trigger-elicitation-request-async"]!.text,
      /\[COMPLETED\][\s\S]*Name: Ada/,
      "the client ran the elicitation as a task",
    );
    assert.equal(handle.id, "string");
    assert.is(handle.statuses[0], "working");
    assert.is(handle.statuses[handle.statuses.length - 1], "completed");
    assert.equal([handle.isError, handle.again], [false, "completed"]);
  } finally {
    removeDir(dir);
  }
});

test.run();
