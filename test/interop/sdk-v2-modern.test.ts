// The official SDK v2 client (2.4.0) pinned to 2026-07-28 against the "everything" example as a
// real process, over Streamable HTTP and stdio: stateless requests, input-required rounds answered
// by the SDK's own sampling/elicitation/roots handlers, 2026 errors. Over HTTP an SDK v1 client
// (legacy, 2025-11-25 session, server-to-client requests) is served by the same process at the
// same time.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { mainJs, startEverything, type EverythingProcess } from "../examples/helpers/everything-process.js";

const answer = {
  role: "assistant",
  content: { type: "text", text: "Paris" },
  model: "test-model",
  stopReason: "endTurn",
};

function modernClient(mode: "auto" | { pin: string } = { pin: "2026-07-28" }): ClientV2 {
  const client = new ClientV2({ name: "sdk-v2-modern", version: "1.0.0" }, {
    capabilities: { sampling: {}, elicitation: {}, roots: {} },
    versionNegotiation: { mode },
  } as never);
  client.setRequestHandler("sampling/createMessage", async () => answer as never);
  client.setRequestHandler("elicitation/create", async (req: any) => {
    const props = Object.keys(req.params.requestedSchema?.properties ?? {});
    return {
      action: "accept",
      content: props.includes("name")
        ? { name: "Alice" }
        : props.includes("color")
          ? { color: "blue" }
          : props.includes("context")
            ? { context: "tests" }
            : { ok: true },
    } as never;
  });
  client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }) as never);
  return client;
}

for (const mode of ["http", "stdio"] as const) {
  const test = suite(`SDK v2 client at 2026-07-28 over ${mode}`);
  let server: EverythingProcess | undefined;
  let client: ClientV2;

  test.before(async () => {
    if (mode === "http") server = await startEverything();
    client = modernClient();
    await client.connect(
      mode === "http"
        ? new HttpV2(server!.url)
        : new StdioV2({ command: process.execPath, args: [mainJs, "--stdio"], stderr: "pipe" }),
    );
  });

  test.after(async () => {
    await client?.close().catch(() => {});
    if (server) assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
  });

  test("lists and a plain call run on the stateless era", async () => {
    assert.is(client.getServerVersion()?.name, "everything");
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "test_input_required_result_multi_round"));
    const r: any = await client.callTool({ name: "test_simple_text" });
    assert.is(r.content[0].text, "This is a simple text response for testing.");
  });

  test("input-required rounds are answered through the SDK's handlers (one, several at once, several rounds)", async () => {
    const one: any = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
    assert.is(one.content[0].text, "Hello, Alice!");
    const many: any = await client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} });
    assert.is(many.content[0].text, "name=Alice, greeting=Paris, roots=1");
    const rounds: any = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
    assert.is(rounds.content[0].text, "Alice likes blue");
    const prompt: any = await client.getPrompt({ name: "test_input_required_result_prompt" });
    assert.match(JSON.stringify(prompt.messages), /Use this context/);
  });

  test("2026 errors: unknown resource is -32602 with data.uri", async () => {
    const e: any = await client.readResource({ uri: "test://nope" }).catch((x) => x);
    assert.is(e.code, -32602);
    assert.equal(e.data, { uri: "test://nope" });
  });

  test("the SDK's auto negotiation probes our dual-era server and stays modern", async () => {
    const auto = modernClient("auto");
    await auto.connect(
      mode === "http"
        ? new HttpV2(server!.url)
        : new StdioV2({ command: process.execPath, args: [mainJs, "--stdio"], stderr: "pipe" }),
    );
    try {
      assert.is(auto.getNegotiatedProtocolVersion(), "2026-07-28");
      const r: any = await auto.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      assert.is(r.content[0].text, "Hello, Alice!");
    } finally {
      await auto.close();
    }
  });

  if (mode === "http") {
    test("an SDK v1 client is served in the legacy era by the same process at the same time", async () => {
      const legacy = new ClientV1({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { sampling: {} } });
      legacy.setRequestHandler(CreateMessageRequestSchema, async () => answer as never);
      const transport = new HttpV1(server!.url);
      await legacy.connect(transport);
      assert.ok(transport.sessionId, "a legacy session");
      const [old, modern]: any[] = await Promise.all([
        legacy.callTool({ name: "test_sampling", arguments: { prompt: "Capital of France?" } }),
        client.callTool({ name: "test_input_required_result_sampling", arguments: {} }),
      ]);
      assert.is(old.content[0].text, "LLM response: Paris");
      assert.is(modern.content[0].text, "LLM response: Paris");
      await transport.terminateSession();
      await legacy.close();
    });
  }

  test.run();
}
