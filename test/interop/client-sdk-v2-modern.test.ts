// Our dual-era client against the official SDK v2 (@modelcontextprotocol/server 2.4.0) serving
// 2026-07-28, as a real child process over stdio and over Streamable HTTP: the probe stays modern,
// input-required results (sampling; elicitation then roots with requestState) run through the
// client's ordinary handlers, x-mcp-header arguments are mirrored, listen is acknowledged, and the
// generated-client facade (createMcpClient) works unchanged. The same server is also driven in the
// legacy era by a client pinned to it, and the dual-era client still falls back against SDK v1
// and server-everything.
import { spawn, type ChildProcess } from "node:child_process";
import * as net from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  connectMcpClient,
  createMcpClient,
  type McpClient,
  type McpClientOptions,
  type McpDefinition,
  type Transport,
  type Validator,
} from "@mcpgen/runtime";
import { connectHttp } from "@mcpgen/runtime/http";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { dual } from "../runtime/helpers/binding.js";
import { fixture, root } from "./helpers/stdio-peer.js";

const TIMEOUT = 8000;
const FIXTURE = fixture("sdk-v2-modern-server.mjs");

const asked: string[] = [];
const options: McpClientOptions = {
  bindings: dual,
  clientInfo: { name: "mcpgen-interop", version: "1.0.0" },
  timeout: TIMEOUT,
  eraCache: false,
  handlers: {
    sampling: (p) => {
      asked.push(`sampling ${p.maxTokens}`);
      return { role: "assistant", content: { type: "text", text: "canned" }, model: "mcpgen-canned" };
    },
    elicitation: (p) => {
      asked.push(`elicitation ${p.message}`);
      return { action: "accept", content: { name: "Ada" } };
    },
    roots: () => {
      asked.push("roots");
      return [{ uri: "file:///work", name: "work" }];
    },
  },
};

function stdio(args: string[]): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: "pipe",
    closeTimeoutMs: 300,
    termTimeoutMs: 1000,
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The fixture serving HTTP on 127.0.0.1; resolves once it says it listens. */
async function httpFixture(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [FIXTURE, "--http", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString("utf8")));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`fixture did not start in ${TIMEOUT} ms: ${err}`)), TIMEOUT);
    child.stdout!.on("data", (d: Buffer) => {
      if (d.toString("utf8").includes("listening")) {
        clearTimeout(t);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 1000);
      await gone;
      clearTimeout(t);
    },
  };
}

/** Everything a 2026-07-28 session with the fixture should do. */
async function exercise(client: McpClient): Promise<void> {
  assert.is(client.era, "modern");
  assert.is(client.protocolVersion, "2026-07-28");
  assert.is(client.serverInfo.name, "sdk-v2-modern-fixture");
  const tools = await client.listTools();
  assert.equal(tools.map((t) => t.name).sort(), ["add", "ask-llm", "greet-user", "regional"]);
  const sum = await client.callTool("add", { a: 2, b: 3 });
  assert.equal(sum.structuredContent, { sum: 5 });
  assert.is(sum.resultType, "complete");

  asked.length = 0;
  const llm = await client.callTool("ask-llm", { prompt: "2+3?" });
  assert.equal(llm.content, [{ type: "text", text: "mcpgen-canned: canned" }]);
  assert.equal(asked, ["sampling 16"]);

  asked.length = 0;
  const greet = await client.callTool("greet-user", {});
  assert.equal(greet.content, [{ type: "text", text: "Hello, Ada at file:///work" }]);
  assert.equal(asked, ["elicitation Your name?", "roots"], "two rounds, the second after requestState");

  const regional = await client.callTool("regional", { region: "eu-west ü", q: "x" });
  assert.equal(regional.content, [{ type: "text", text: "region=eu-west ü" }]);

  const prompt = await client.getPrompt("greet", { name: "Bob" });
  assert.equal(prompt.messages, [{ role: "user", content: { type: "text", text: "Hello, Bob!" } }]);
  const res = await client.readResource("fixture://info");
  assert.equal(res.contents, [
    { uri: "fixture://info", mimeType: "text/plain", text: "served by SDK v2 (2026-07-28)" },
  ]);
  await client.ping();
}

test("our dual-era client -> SDK v2 server over stdio: stays on 2026-07-28 (MRTR, headers view, prompts, resources, listen)", async () => {
  const client = await connectMcpClient(stdio([FIXTURE]), options);
  try {
    await exercise(client);
    const sub = client.listen({ toolsListChanged: true });
    assert.equal(await sub.acknowledged, { toolsListChanged: true });
    await sub.close();
    // The stdio connection carries on after the listen request was cancelled.
    assert.equal((await client.callTool("add", { a: 1, b: 1 })).structuredContent, { sum: 2 });
  } finally {
    await client.close();
  }
});

test("our dual-era client -> SDK v2 server over Streamable HTTP (2026-07-28): the same, plus listen", async () => {
  const server = await httpFixture();
  const transport = connectHttp(server.url);
  const client = await connectMcpClient(transport, options);
  try {
    assert.is(transport.mode, "modern");
    await exercise(client);
    const sub = client.listen({ toolsListChanged: true });
    assert.equal(await sub.acknowledged, { toolsListChanged: true });
    await sub.close();
    assert.not.ok(sub.active);
  } finally {
    await client.close();
    await server.stop();
  }
});

test("the same SDK v2 server, client pinned to the legacy era: initialize, and server->client sampling in that era", async () => {
  const client = await connectMcpClient(stdio([FIXTURE]), { ...options, era: "legacy" });
  try {
    assert.is(client.era, "legacy");
    assert.is(client.protocolVersion, "2025-11-25");
    asked.length = 0;
    const llm = await client.callTool("ask-llm", { prompt: "2+3?" });
    assert.equal(llm.content, [{ type: "text", text: "mcpgen-canned: canned" }]);
    assert.equal(asked, ["sampling 16"]);
  } finally {
    await client.close();
  }
});

const isSum: Validator = Object.assign((d: unknown): boolean => typeof (d as { sum?: unknown })?.sum === "number", {
  errors: null,
}) as Validator;
const definition: McpDefinition = {
  revisions: ["2026-07-28", "2025-11-25"],
  pageSize: 50,
  published: {
    "2026-07-28": {
      serverInfo: { name: "sdk-v2-modern-fixture", version: "2.4.0" },
      capabilities: { tools: {} },
      tools: [
        { name: "add", inputSchema: { type: "object" }, outputSchema: { type: "object" } },
        { name: "ask-llm", inputSchema: { type: "object" } },
      ],
      resources: [{ name: "info", uri: "fixture://info" }],
      resourceTemplates: [],
      prompts: [{ name: "greet" }],
    },
  },
  toolValidators: { add: { input: isSum, output: isSum }, "ask-llm": { input: isSum, output: null } },
  members: {
    tools: { add: "add", "ask-llm": "askLlm" },
    prompts: { greet: "greet" },
    resources: { info: "info" },
    resourceTemplates: {},
  },
  bindings: dual,
};

test("a generated-style client (createMcpClient) needs no change for 2026-07-28: typed stubs over MRTR", async () => {
  for (const open of [() => stdio([FIXTURE])]) {
    const transport: Transport = open();
    const { bindings: _b, ...rest } = options;
    const client = await createMcpClient(definition, transport, rest);
    try {
      assert.is(client.era, "modern");
      const sum = (await client.tools.add!({ a: 1, b: 41 } as never)) as { isError: boolean; structured: unknown };
      assert.equal(sum.structured, { sum: 42 });
      const llm = (await client.tools.askLlm!({ prompt: "hi" } as never)) as { content: unknown };
      assert.equal(llm.content, [{ type: "text", text: "mcpgen-canned: canned" }]);
      const info = (await client.resources.info!()) as { contents: { text: string }[] };
      assert.is(info.contents[0]!.text, "served by SDK v2 (2026-07-28)");
    } finally {
      await client.close();
    }
  }
});

test("the dual-era client falls back to the legacy era against SDK v1 and server-everything (stdio)", async () => {
  for (const args of [
    [fixture("sdk-v1-stdio-server.mjs")],
    [root("node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
  ]) {
    const client = await connectMcpClient(stdio(args), options);
    try {
      assert.is(client.era, "legacy", args[0]);
      assert.is(client.protocolVersion, "2025-11-25");
      assert.ok((await client.listTools()).length > 0);
    } finally {
      await client.close();
    }
  }
});

test("a real stdio server that never answers the probe: legacy after the bounded probe timeout", async () => {
  const started = Date.now();
  const client = await connectMcpClient(stdio([fixture("silent-probe-server.mjs")]), { ...options, probeTimeout: 300 });
  try {
    assert.is(client.era, "legacy");
    assert.ok(Date.now() - started < 5000);
    assert.equal(
      (await client.listTools()).map((t) => t.name),
      ["noop"],
    );
  } finally {
    await client.close();
  }
});

test.run();
