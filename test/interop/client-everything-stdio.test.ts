// Our generic client (connectMcpClient) against the official `server-everything` as a real child
// process over stdio: every tool it lists is called with arguments made up from its inputSchema,
// and the server->client requests it makes (sampling, elicitation, roots) are answered by us.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpError, type CallToolResult } from "@mcpgen/runtime";
import { bindings, latest } from "../runtime/helpers/binding.js";
import { root, spawnClient, type Spawned } from "./helpers/stdio-peer.js";
import { sampleArguments, sampleValue, schemaDefaults } from "./helpers/sample-args.js";

const everything = root("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/**
 * Arguments that replace the synthesised ones, each with its reason. Nothing is skipped: these
 * only keep every call local and short.
 */
const OVERRIDES: { [tool: string]: { [key: string]: unknown } } = {
  // Its default `data` is an https URL the server would fetch; tests never touch the network.
  "gzip-file-as-resource": { data: "data:text/plain;base64,aGVsbG8gaW50ZXJvcA==" },
  // Defaults to 10 s; the point is that it completes, not how long it sleeps.
  "trigger-long-running-operation": { duration: 0.2, steps: 2 },
};

const ROOT = { uri: "file:///tmp/mcpgen-interop", name: "interop root" };
const seen = { sampling: 0, elicitation: 0, roots: 0 };
let peer: Spawned;

test.before(async () => {
  peer = await spawnClient([everything, "stdio"], {
    bindings,
    clientInfo: { name: "mcpgen-interop", version: "1.0.0" },
    handlers: {
      sampling: () => {
        seen.sampling++;
        return {
          role: "assistant",
          content: { type: "text", text: "canned reply from mcpgen" },
          model: "mcpgen-canned",
        };
      },
      elicitation: (params) => {
        seen.elicitation++;
        return { action: "accept", content: schemaDefaults(params.requestedSchema) };
      },
      roots: () => {
        seen.roots++;
        return [ROOT];
      },
    },
  });
});

test.after(async () => {
  await peer?.close();
});

const text = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");

test("handshake at the latest revision both sides speak", () => {
  assert.is(peer.client.protocolVersion, latest.revision);
  assert.ok(peer.client.serverInfo.name.length > 0);
  assert.ok(peer.client.serverCapabilities.tools, "declares tools");
});

test("every listed tool resolves with a result or a JSON-RPC error; server->client requests answered", async () => {
  const tools = await peer.client.listTools();
  const names = tools.map((t) => t.name);
  for (const must of [
    "echo",
    "get-sum",
    "get-structured-content",
    "get-roots-list",
    "trigger-sampling-request",
    "trigger-elicitation-request",
  ]) {
    assert.ok(names.includes(must), `server-everything lists ${must} (got ${names.join(", ")})`);
  }
  const results = new Map<string, CallToolResult>();
  for (const tool of tools) {
    const args = { ...sampleArguments(tool.inputSchema), ...OVERRIDES[tool.name] };
    const outcome = await peer.client.callTool(tool.name, args).then(
      (r) => ({ ok: true as const, r }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    if (outcome.ok) {
      assert.ok(Array.isArray(outcome.r.content), `${tool.name}: result has content`);
      results.set(tool.name, outcome.r);
    } else {
      // A peer's JSON-RPC error is fine; a timeout, closed connection or invalid result is not.
      assert.instance(
        outcome.e,
        McpError,
        `${tool.name}(${JSON.stringify(args)}) failed locally: ${String(outcome.e)}\n${peer.stderr()}`,
      );
    }
  }
  assert.is(text(results.get("echo")!), "Echo: test");
  assert.ok(text(results.get("get-sum")!).includes("2"), "1 + 1");
  const weather = results.get("get-structured-content")!;
  assert.type(weather.structuredContent, "object");
  assert.type((weather.structuredContent as { temperature?: unknown }).temperature, "number");
  assert.is(seen.sampling, 1, "trigger-sampling-request sampled once through our handler");
  assert.ok(text(results.get("trigger-sampling-request")!).includes("canned reply from mcpgen"));
  assert.is(seen.elicitation, 1, "trigger-elicitation-request elicited once through our handler");
  assert.ok(text(results.get("trigger-elicitation-request")!).includes("accept"));
  assert.ok(seen.roots >= 1, "get-roots-list asked us for roots");
  assert.ok(text(results.get("get-roots-list")!).includes(ROOT.uri));
  assert.ok(peer.transport.exit === undefined, "the server is still running after every call");
});

test("resources: list (paginated), read each, templates", async () => {
  const resources = await peer.client.listResources();
  assert.ok(resources.length > 0, "lists resources");
  for (const r of resources) {
    const read = await peer.client.readResource(r.uri);
    assert.ok(read.contents.length > 0, `${r.uri} has contents`);
    assert.is(read.contents[0]!.uri, r.uri);
  }
  const templates = await peer.client.listResourceTemplates();
  const textTemplate = templates.find((t) => t.uriTemplate.includes("{resourceId}"));
  assert.ok(textTemplate, "a {resourceId} template");
  const uri = textTemplate!.uriTemplate.replace("{resourceId}", "1");
  const read = await peer.client.readResource(uri);
  assert.is(read.contents[0]!.uri, uri);
});

test("prompts: list, get each with made-up arguments", async () => {
  const prompts = await peer.client.listPrompts();
  assert.ok(
    prompts.some((p) => p.name === "simple-prompt"),
    "lists simple-prompt",
  );
  for (const p of prompts) {
    const args: { [key: string]: string } = {};
    for (const a of p.arguments ?? []) if (a.required) args[a.name] = String(sampleValue({ type: "string" }));
    const outcome = await peer.client.getPrompt(p.name, args).then(
      (r) => ({ ok: true as const, r }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    if (outcome.ok) assert.ok(outcome.r.messages.length > 0, `${p.name} has messages`);
    else
      assert.instance(outcome.e, McpError, `${p.name}(${JSON.stringify(args)}) failed locally: ${String(outcome.e)}`);
  }
  const simple = await peer.client.getPrompt("simple-prompt");
  assert.is(simple.messages[0]!.role, "user");
});

test.run();
