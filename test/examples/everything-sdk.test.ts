// The "everything" example as a real process, over Streamable HTTP and over stdio, driven by the
// official SDK clients (v1 1.32 and v2 2.4): every list, every tool (the client answering
// sampling and elicitation), resources, templates, subscriptions, prompts, completion, logging
// and progress.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { mainJs, startEverything, type EverythingProcess } from "./helpers/everything-process.js";

type Answer = (params: any) => Promise<any>;

/** The calls these tests make, the same for both SDK generations (their signatures differ a little). */
interface Driver {
  connect(target: URL | "stdio"): Promise<void>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    onprogress?: (p: { progress: number; total?: number; message?: string }) => void,
  ): Promise<any>;
  client: {
    close(): Promise<void>;
    getServerVersion(): { name: string } | undefined;
    getServerCapabilities(): any;
    listTools(): Promise<any>;
    setLoggingLevel(level: "debug" | "error"): Promise<unknown>;
    listResources(): Promise<any>;
    listResourceTemplates(): Promise<any>;
    readResource(p: { uri: string }): Promise<any>;
    subscribeResource(p: { uri: string }): Promise<unknown>;
    unsubscribeResource(p: { uri: string }): Promise<unknown>;
    listPrompts(): Promise<any>;
    getPrompt(p: { name: string; arguments?: Record<string, string> }): Promise<any>;
    complete(p: any): Promise<any>;
    ping(): Promise<unknown>;
  };
}

const stdioArgs = { command: process.execPath, args: [mainJs, "--stdio"], stderr: "pipe" as const };
const capabilities = { capabilities: { sampling: {}, elicitation: {} } };

function driverV1(sample: Answer, elicit: Answer, log: (p: any) => void): Driver {
  const client = new ClientV1({ name: "sdk-v1", version: "1.0.0" }, capabilities);
  client.setRequestHandler(CreateMessageRequestSchema, (req) => sample(req.params));
  client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void log(n.params));
  return {
    client: client as unknown as Driver["client"],
    connect: (target) => client.connect(target === "stdio" ? new StdioV1(stdioArgs) : new HttpV1(target)),
    callTool: (params, onprogress) => client.callTool(params, undefined, onprogress ? { onprogress } : undefined),
  };
}

function driverV2(sample: Answer, elicit: Answer, log: (p: any) => void): Driver {
  const client = new ClientV2({ name: "sdk-v2", version: "1.0.0" }, capabilities);
  client.setRequestHandler("sampling/createMessage", (req: any) => sample(req.params));
  client.setRequestHandler("elicitation/create", (req: any) => elicit(req.params));
  client.setNotificationHandler("notifications/message", (n: any) => void log(n.params));
  return {
    client: client as unknown as Driver["client"],
    connect: (target) => client.connect(target === "stdio" ? new StdioV2(stdioArgs) : new HttpV2(target)),
    callTool: (params, onprogress) => client.callTool(params, onprogress ? { onprogress } : undefined),
  };
}

for (const [sdk, mode] of [
  ["v1", "http"],
  ["v1", "stdio"],
  ["v2", "http"],
  ["v2", "stdio"],
] as const) {
  const test = suite(`SDK ${sdk} client over ${mode}`);
  let server: EverythingProcess | undefined;
  let driver: Driver;
  let client: Driver["client"];
  const logs: { level: string; data: unknown }[] = [];
  const elicitations: any[] = [];
  const samplings: any[] = [];

  test.before(async () => {
    const sample: Answer = async (params) => {
      samplings.push(params);
      return {
        role: "assistant",
        content: { type: "text", text: "This is a test response from the client" },
        model: "test-model",
        stopReason: "endTurn",
      };
    };
    const elicit: Answer = async (params) => {
      elicitations.push(params);
      const props = Object.keys(params.requestedSchema?.properties ?? {});
      if (props.includes("username"))
        return { action: "accept", content: { username: "testuser", email: "test@example.com" } };
      if (props.includes("verified"))
        return {
          action: "accept",
          content: { name: "Jane Smith", age: 25, score: 88.0, status: "inactive", verified: false },
        };
      return {
        action: "accept",
        content: {
          untitledSingle: "option1",
          titledSingle: "value1",
          legacyEnum: "opt1",
          untitledMulti: ["option1", "option2"],
          titledMulti: ["value1", "value2"],
        },
      };
    };
    driver = (sdk === "v1" ? driverV1 : driverV2)(sample, elicit, (p) => void logs.push(p));
    client = driver.client;
    if (mode === "http") server = await startEverything();
    await driver.connect(server?.url ?? "stdio");
  });

  test.after(async () => {
    await client?.close().catch(() => {});
    if (server) {
      const exit = await server.stop();
      assert.equal(exit, { code: 0, signal: null }, `clean exit on SIGTERM; stderr: ${server.stderr()}`);
    }
  });

  test("handshake: 2025-11-25, serverInfo and the declared capabilities", () => {
    assert.is(client.getServerVersion()?.name, "everything");
    const caps = client.getServerCapabilities()!;
    assert.equal(caps.tools, { listChanged: true });
    assert.equal(caps.resources, { subscribe: true, listChanged: true });
    assert.equal(caps.prompts, { listChanged: true });
    assert.ok(caps.logging && caps.completions);
  });

  test("tools/list: every fixture with a description and an object schema; the 2020-12 schema verbatim", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t: any) => t.name);
    for (const n of [
      "test_simple_text",
      "test_image_content",
      "test_audio_content",
      "test_embedded_resource",
      "test_multiple_content_types",
      "test_tool_with_logging",
      "test_tool_with_progress",
      "test_error_handling",
      "test_sampling",
      "test_elicitation",
      "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums",
      "json_schema_2020_12_tool",
      "test_reconnection",
    ])
      assert.ok(names.includes(n), `${n} listed`);
    for (const t of tools as any[]) {
      assert.ok(t.description, `${t.name} has a description`);
      assert.is(t.inputSchema.type, "object");
    }
    const s: any = tools.find((t: any) => t.name === "json_schema_2020_12_tool")!.inputSchema;
    assert.is(s.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.is(s.$defs.address.$anchor, "addressDef");
    assert.is(s.additionalProperties, false);
    assert.equal(s.allOf, [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }]);
    assert.equal(s.else, { required: ["email"] });
  });

  test("content tools: text (without arguments), image, audio, embedded resource, mixed, error", async () => {
    const simple: any = await driver.callTool({ name: "test_simple_text" });
    assert.is(simple.content[0].text, "This is a simple text response for testing.");
    const image: any = await driver.callTool({ name: "test_image_content", arguments: {} });
    assert.is(image.content[0].type, "image");
    assert.is(image.content[0].mimeType, "image/png");
    assert.ok(Buffer.from(image.content[0].data, "base64").subarray(1, 4).toString() === "PNG");
    const audio: any = await driver.callTool({ name: "test_audio_content", arguments: {} });
    assert.is(audio.content[0].mimeType, "audio/wav");
    assert.is(Buffer.from(audio.content[0].data, "base64").subarray(8, 12).toString(), "WAVE");
    const embedded: any = await driver.callTool({ name: "test_embedded_resource", arguments: {} });
    assert.equal(embedded.content[0], {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    });
    const mixed: any = await driver.callTool({ name: "test_multiple_content_types", arguments: {} });
    assert.equal(
      mixed.content.map((c: any) => c.type),
      ["text", "image", "resource"],
    );
    const error: any = await driver.callTool({ name: "test_error_handling", arguments: {} });
    assert.is(error.isError, true);
    assert.is(error.content[0].text, "This tool intentionally returns an error for testing");
  });

  test("logging: three info messages arrive during test_tool_with_logging, after setLevel debug", async () => {
    await client.setLoggingLevel("debug");
    logs.length = 0;
    const r: any = await driver.callTool({ name: "test_tool_with_logging", arguments: {} });
    assert.ok(r.content[0].text);
    assert.equal(
      logs.map((l) => [l.level, l.data]),
      [
        ["info", "Tool execution started"],
        ["info", "Tool processing data"],
        ["info", "Tool execution completed"],
      ],
    );
    await client.setLoggingLevel("error");
    logs.length = 0;
    await driver.callTool({ name: "test_tool_with_logging", arguments: {} });
    assert.is(logs.length, 0, "info is below the error threshold");
  });

  test("progress: 0, 50, 100 of 100; the result is the progress token", async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const r: any = await driver.callTool({ name: "test_tool_with_progress", arguments: {} }, (p) => void seen.push(p));
    const all = [
      [0, 100],
      [50, 100],
      [100, 100],
    ];
    // The SDKs dispatch notifications a microtask later than responses; over stdio the last
    // progress and the result often arrive in one read, and the client drops that progress.
    const want = mode === "stdio" ? all.slice(0, Math.max(2, seen.length)) : all;
    assert.equal(
      seen.map((p) => [p.progress, p.total]),
      want,
    );
    assert.is(seen[1]!.message, "Completed step 50 of 100");
    assert.ok(/^\d+$/.test(r.content[0].text), "the SDK's numeric token comes back");
  });

  test("sampling: the prompt goes out as one user message with maxTokens 100; the reply comes back", async () => {
    const r: any = await driver.callTool({ name: "test_sampling", arguments: { prompt: "Test prompt for sampling" } });
    assert.equal(samplings.at(-1), {
      messages: [{ role: "user", content: { type: "text", text: "Test prompt for sampling" } }],
      maxTokens: 100,
    });
    assert.is(r.content[0].text, "LLM response: This is a test response from the client");
    const bad: any = await driver.callTool({ name: "test_sampling", arguments: {} });
    assert.is(bad.isError, true, "a missing required argument is a tool error at 2025-11-25");
  });

  test("elicitation: plain form, SEP-1034 defaults, SEP-1330 enums", async () => {
    const r1: any = await driver.callTool({
      name: "test_elicitation",
      arguments: { message: "Please provide your information" },
    });
    assert.is(elicitations.at(-1).message, "Please provide your information");
    assert.is(
      r1.content[0].text,
      'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
    );

    const r2: any = await driver.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} });
    const p2 = elicitations.at(-1).requestedSchema.properties;
    assert.equal(
      [p2.name.default, p2.age.type, p2.age.default, p2.score.default, p2.status.default, p2.verified.default],
      ["John Doe", "integer", 30, 95.5, "active", true],
    );
    assert.ok(r2.content[0].text.startsWith("Elicitation completed: action=accept"));

    const r3: any = await driver.callTool({ name: "test_elicitation_sep1330_enums", arguments: {} });
    const p3 = elicitations.at(-1).requestedSchema.properties;
    assert.is(p3.untitledSingle.oneOf, undefined);
    assert.is(p3.titledSingle.enum, undefined);
    assert.is(p3.titledSingle.oneOf.length, 3);
    assert.is(p3.legacyEnum.enumNames.length, p3.legacyEnum.enum.length);
    assert.equal(p3.untitledMulti.items.enum, ["option1", "option2", "option3"]);
    assert.is(p3.titledMulti.items.enum, undefined);
    assert.is(p3.titledMulti.items.anyOf[0].title, "First Choice");
    assert.ok(r3.content[0].text.includes('"titledMulti":["value1","value2"]'));
  });

  test("resources: list, read text/binary/template, subscribe and unsubscribe", async () => {
    const { resources } = await client.listResources();
    // the manifest's resources, then its skills' SKILL.md files (Skills extension)
    assert.equal(
      resources.map((r: any) => r.uri),
      [
        "test://static-text",
        "test://static-binary",
        "test://watched-resource",
        "skill://pdf-processing/SKILL.md",
        "skill://acme/billing/refunds/SKILL.md",
      ],
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(
      resourceTemplates.map((t: any) => t.uriTemplate),
      ["test://template/{id}/data"],
    );
    const text: any = await client.readResource({ uri: "test://static-text" });
    assert.equal(text.contents, [
      { uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." },
    ]);
    const bin: any = await client.readResource({ uri: "test://static-binary" });
    assert.is(bin.contents[0].mimeType, "image/png");
    assert.ok(bin.contents[0].blob.length > 0);
    const tpl: any = await client.readResource({ uri: "test://template/123/data" });
    assert.is(tpl.contents[0].uri, "test://template/123/data");
    assert.equal(JSON.parse(tpl.contents[0].text), { id: "123", templateTest: true, data: "Data for ID: 123" });
    assert.equal(await client.subscribeResource({ uri: "test://watched-resource" }), {});
    assert.equal(await client.unsubscribeResource({ uri: "test://watched-resource" }), {});
    const missing = await client.readResource({ uri: "test://nope" }).catch((e) => e);
    // -32002 on the wire (legacy "resource not found"); SDK v2 reports it with the 2026-07-28 code.
    assert.is(missing.code, sdk === "v1" ? -32002 : -32602);
  });

  test("prompts: list with descriptions and required arguments; get each", async () => {
    const { prompts } = await client.listPrompts();
    assert.equal(
      prompts.map((p: any) => p.name),
      [
        "test_simple_prompt",
        "test_prompt_with_arguments",
        "test_prompt_with_embedded_resource",
        "test_input_required_result_prompt",
        "test_prompt_with_image",
      ],
    );
    for (const p of prompts as any[]) assert.ok(p.description);
    assert.equal(
      prompts[1]!.arguments!.map((a: any) => [a.name, a.required]),
      [
        ["arg1", true],
        ["arg2", true],
      ],
    );
    const simple: any = await client.getPrompt({ name: "test_simple_prompt" });
    assert.equal(simple.messages, [
      { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
    ]);
    const args: any = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "testValue1", arg2: "testValue2" },
    });
    assert.is(args.messages[0].content.text, "Prompt with arguments: arg1='testValue1', arg2='testValue2'");
    const res: any = await client.getPrompt({
      name: "test_prompt_with_embedded_resource",
      arguments: { resourceUri: "test://example-resource" },
    });
    assert.is(res.messages[0].content.type, "resource");
    assert.is(res.messages[0].content.resource.uri, "test://example-resource");
    const img: any = await client.getPrompt({ name: "test_prompt_with_image" });
    assert.is(img.messages[0].content.type, "image");
    assert.is(img.messages[0].content.mimeType, "image/png");
    const missing = await client
      .getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "x" } })
      .catch((e) => e);
    assert.is(missing.code, -32602);
  });

  test("completion and ping", async () => {
    const c = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "test" },
    });
    assert.equal(c.completion.values, ["test", "testValue1", "testing"]);
    const none = await client.complete({
      ref: { type: "ref/prompt", name: "test_simple_prompt" },
      argument: { name: "x", value: "" },
    });
    assert.equal(none.completion.values, []);
    assert.equal(await client.ping(), {});
  });

  test.run();
}
