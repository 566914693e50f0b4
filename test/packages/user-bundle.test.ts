// A user who bundles their server (docs/bundling.md): a generated one-tool stdio server bundled
// with esbuild, as one file and code-split, runs from its bundle alone and answers a legacy
// session and 2026-07-28 requests; the split bundle loads the revisions' chunks only when used.
// The task machinery is in a bundle only when some tool of the manifest may run as a task.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Metafile } from "esbuild";
import { bundleAsUser } from "../../bench/bundle.js";
import { generate } from "../../generator/generate.js";
import { tempDir } from "../helpers.js";

const MANIFEST = {
  name: "add",
  version: "1.0.0",
  tools: [
    {
      name: "add",
      description: "Add two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
  ],
};

const MAIN = `import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createAddServer } from "./mcp/server.js";
const server = createAddServer({ tools: { add: ({ a, b }) => String(a + b) } });
const session = await server.connect(new StdioServerTransport());
session.onclose = () => process.exit(0);
`;

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bundle-test", version: "1" },
};

/** Requests in order; each waits for its answer before the next goes out. */
const LEGACY = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bundle-test", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add", arguments: { a: "one", b: 2 } } },
];
const MODERN = [
  { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 20, b: 22 }, _meta: META } },
];

interface Answer {
  id: number;
  result?: {
    protocolVersion?: string;
    content?: { type: string; text: string }[];
    isError?: boolean;
    supportedVersions?: string[];
  };
  error?: { code: number; message: string };
}

/** Runs `main` under node with nothing but its own folder, speaks `messages` over stdio; bounded at 15 s. */
function converse(main: string, messages: object[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    // NODE_PATH unset and the bundle outside the repository: everything must come from the bundle.
    const child = spawn(process.execPath, [main], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "" },
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${main}: no answers within 15 s; stderr: ${stderr}`));
    }, 15_000);
    const answers: Answer[] = [];
    let stderr = "";
    let buffered = "";
    let next = 0;
    const sendUntilRequest = (): void => {
      while (next < messages.length) {
        const m = messages[next++] as { id?: number };
        child.stdin!.write(`${JSON.stringify(m)}\n`);
        if (m.id !== undefined) return;
      }
      child.stdin!.end();
    };
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.stdout!.on("data", (d: Buffer) => {
      buffered += d.toString("utf8");
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        answers.push(JSON.parse(buffered.slice(0, nl)) as Answer);
        buffered = buffered.slice(nl + 1);
        sendUntilRequest();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(answers);
      else reject(new Error(`${main} exited with ${code}; stderr: ${stderr}`));
    });
    sendUntilRequest();
  });
}

const { dir, cleanup } = tempDir("mcpgen-user-bundle-");
/** The same server with its tool declaring `execution.taskSupport`. */
const taskDir = join(dir, "task-tool");

async function project(at: string, manifest: object): Promise<void> {
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "mcp.manifest.json"), JSON.stringify(manifest));
  await generate({ cwd: at, manifest: join(at, "mcp.manifest.json"), out: join(at, "mcp"), cache: false });
  writeFileSync(join(at, "main.ts"), MAIN);
}

test.before(async () => {
  await project(dir, MANIFEST);
  await project(taskDir, {
    ...MANIFEST,
    tools: MANIFEST.tools.map((t) => ({ ...t, execution: { taskSupport: "optional" } })),
  });
});

const bundle = (at: string, outdir: string, splitting: boolean, entry = "main.ts"): Promise<Metafile> =>
  bundleAsUser(at, entry, outdir, splitting);

const TASK_MACHINERY = /runtime\/dist\/tasks\/server\.js$/;

test.after(() => cleanup());

for (const splitting of [false, true]) {
  const kind = splitting ? "code-split" : "one-file";
  test(`a generated server bundled ${kind} (esbuild, minified) serves a legacy session and 2026-07-28 requests`, async () => {
    const outdir = join(dir, kind);
    const meta = await bundle(dir, outdir, splitting);
    assert.equal(
      Object.keys(meta.inputs).filter((f) => TASK_MACHINERY.test(f)),
      [],
      "no tool may run as a task: the bundle has no task machinery",
    );
    const main = join(outdir, "main.js");
    const files = readdirSync(outdir).filter((f) => f.endsWith(".js"));
    if (splitting)
      assert.ok(files.length > 10, `split into ${files.length} files: each revision's validators stay lazy chunks`);
    else assert.equal(files, ["main.js"]);

    const legacy = await converse(main, LEGACY);
    assert.is(legacy.find((a) => a.id === 1)?.result?.protocolVersion, "2025-11-25");
    assert.equal(legacy.find((a) => a.id === 2)?.result?.content, [{ type: "text", text: "3" }]);
    // the tool's input validator is in the bundle too
    const bad = legacy.find((a) => a.id === 3);
    assert.ok(bad?.result?.isError === true || bad?.error?.code === -32602, JSON.stringify(bad));

    const modern = await converse(main, MODERN);
    assert.ok(
      modern.find((a) => a.id === 1)?.result?.supportedVersions?.includes("2026-07-28"),
      JSON.stringify(modern[0]),
    );
    assert.equal(modern.find((a) => a.id === 2)?.result?.content, [{ type: "text", text: "42" }]);
  });
}

test("a server whose tool may run as a task bundles the task machinery and serves from the bundle", async () => {
  const outdir = join(taskDir, "one-file");
  const meta = await bundle(taskDir, outdir, false);
  assert.equal(
    Object.keys(meta.inputs).filter((f) => TASK_MACHINERY.test(f)).length,
    1,
    "the definition's tasks loader brings the task machinery in",
  );
  const legacy = await converse(join(outdir, "main.js"), LEGACY);
  assert.equal(legacy.find((a) => a.id === 2)?.result?.content, [{ type: "text", text: "3" }]);
});

test("the client of that manifest bundles without the server's task machinery", async () => {
  writeFileSync(
    join(taskDir, "client-main.ts"),
    `import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createAddClient } from "./mcp/client.js";
const client = await createAddClient(new StdioClientTransport({ command: process.execPath, args: ["server.js"] }), { clientInfo: { name: "c", version: "1" } });
console.log(await client.tools.add({ a: 1, b: 2 }));
`,
  );
  const meta = await bundle(taskDir, join(taskDir, "client"), false, "client-main.ts");
  const inputs = Object.keys(meta.inputs);
  assert.ok(
    inputs.some((f) => f.endsWith("mcp/client.ts")),
    "the client is in its bundle",
  );
  assert.equal(
    inputs.filter((f) => TASK_MACHINERY.test(f)),
    [],
    "a client never carries the server's task machinery",
  );
});

test.run();
