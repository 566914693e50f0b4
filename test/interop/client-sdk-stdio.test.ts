// Our generic client (connectMcpClient) against servers built on the official TypeScript SDKs,
// v1 (@modelcontextprotocol/sdk 1.32.2) and v2 (@modelcontextprotocol/server 2.4.0), each a real
// child process over stdio: structured tool output, prompts, resources, and a tool that samples
// through our client's handler (server->client request) before it answers.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpError, type CreateMessageParams } from "@mcpgen/runtime";
import { bindings, byRevision, latest } from "../runtime/helpers/binding.js";
import { fixture, spawnClient } from "./helpers/stdio-peer.js";

const SERVERS = [
  { sdk: "v1", script: "sdk-v1-stdio-server.mjs", name: "sdk-v1-fixture" },
  { sdk: "v2", script: "sdk-v2-stdio-server.mjs", name: "sdk-v2-fixture" },
] as const;

for (const s of SERVERS) {
  test(`our client -> SDK ${s.sdk} server (stdio): tools, structured output, prompt, resource, sampling`, async () => {
    const sampled: CreateMessageParams[] = [];
    const peer = await spawnClient([fixture(s.script)], {
      bindings,
      clientInfo: { name: "mcpgen-interop", version: "1.0.0" },
      handlers: {
        sampling: (params) => {
          sampled.push(params);
          return { role: "assistant", content: { type: "text", text: "canned" }, model: "mcpgen-canned" };
        },
      },
    });
    try {
      const { client } = peer;
      assert.is(client.protocolVersion, latest.revision);
      assert.equal(client.serverInfo.name, s.name);

      const tools = await client.listTools();
      assert.equal(tools.map((t) => t.name).sort(), ["add", "ask-llm"]);
      const add = tools.find((t) => t.name === "add")!;
      assert.equal((add.outputSchema as { properties?: unknown }).properties, { sum: { type: "number" } });

      const sum = await client.callTool("add", { a: 2, b: 3 });
      assert.not.ok(sum.isError);
      assert.equal(sum.structuredContent, { sum: 5 });
      assert.equal(sum.content, [{ type: "text", text: "5" }]);

      // Invalid input is the SDK's to reject: a tool error result or a JSON-RPC error, never a hang.
      const bad = await client.callTool("add", { a: "two" }).then(
        (r) => r,
        (e: unknown) => e,
      );
      if (bad instanceof Error) assert.instance(bad, McpError);
      else assert.ok((bad as { isError?: boolean }).isError, "bad arguments give an error result");

      const asked = await client.callTool("ask-llm", { prompt: "what is 2+3?" });
      assert.equal(asked.content, [{ type: "text", text: "mcpgen-canned: canned" }]);
      assert.is(sampled.length, 1, "the SDK server's sampling request reached our handler");
      assert.equal(sampled[0]!.messages, [{ role: "user", content: { type: "text", text: "what is 2+3?" } }]);
      assert.is(sampled[0]!.maxTokens, 16);

      const prompts = await client.listPrompts();
      assert.equal(
        prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])]),
        [["greet", [["name", true]]]],
      );
      const greeting = await client.getPrompt("greet", { name: "Ada" });
      assert.equal(greeting.messages, [{ role: "user", content: { type: "text", text: "Hello, Ada!" } }]);

      const resources = await client.listResources();
      assert.equal(
        resources.map((r) => r.uri),
        ["fixture://info"],
      );
      const info = await client.readResource("fixture://info");
      assert.equal(info.contents, [{ uri: "fixture://info", mimeType: "text/plain", text: `served by SDK ${s.sdk}` }]);

      const missing = await client.callTool("no-such-tool", {}).then(
        (r) => r,
        (e: unknown) => e,
      );
      if (missing instanceof Error) assert.instance(missing, McpError);
      else assert.ok((missing as { isError?: boolean }).isError);

      await client.ping();
    } finally {
      await peer.close();
    }
    assert.ok(peer.transport.exit, "the child has exited");
  });

  test(`our client pinned to 2025-03-26 -> SDK ${s.sdk} server (stdio)`, async () => {
    const peer = await spawnClient([fixture(s.script)], {
      bindings: [byRevision("2025-03-26")],
      clientInfo: { name: "mcpgen-interop", version: "1.0.0" },
    });
    try {
      assert.is(peer.client.protocolVersion, "2025-03-26");
      const sum = await peer.client.callTool("add", { a: 40, b: 2 });
      assert.equal(sum.content, [{ type: "text", text: "42" }]);
    } finally {
      await peer.close();
    }
  });
}

test.run();
