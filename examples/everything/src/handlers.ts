/**
 * Handlers of the "everything" server: one per tool, prompt, resource and template of
 * mcp.manifest.json. Texts, URIs and shapes follow the MCP reference everything server, so clients
 * (and the conformance suite) see the same fixtures from either.
 */
import { toolError, type HandlerContext } from "@mcpgen/runtime/facades";
import type { EverythingHandlers } from "./mcp/server.js";
import { PNG_1X1, WAV_SILENCE } from "./fixtures.js";
import { taskTools } from "./task-fixtures.js";
import { statelessPrompts, statelessTools, type ListChanges } from "./stateless-fixtures.js";

/** Waits `ms`, or rejects as soon as the request is cancelled. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal.addEventListener("abort", abort, { once: true });
  });

const text = (t: string) => ({ type: "text" as const, text: t });

/** SEP-1034: every primitive field type with a default value. */
const defaultsForm = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: [],
} as const;

/** SEP-1330: untitled, titled and legacy (enumNames) single selects; untitled and titled multi selects. */
const enumsForm = {
  type: "object",
  properties: {
    untitledSingle: {
      type: "string",
      description: "Simple enum without titles",
      enum: ["option1", "option2", "option3"],
    },
    titledSingle: {
      type: "string",
      description: "Enum with titles (oneOf of const/title)",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      description: "Legacy enum with enumNames",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: {
      type: "array",
      description: "Multi-select without titles",
      minItems: 1,
      maxItems: 3,
      items: { type: "string", enum: ["option1", "option2", "option3"] },
    },
    titledMulti: {
      type: "array",
      description: "Multi-select with titles",
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
  required: [],
} as const;

export function createHandlers(changes: ListChanges): EverythingHandlers {
  return {
    tools: {
      ...statelessTools(changes),
      ...taskTools(),

      testSimpleText: () => "This is a simple text response for testing.",

      testImageContent: () => [{ type: "image" as const, data: PNG_1X1, mimeType: "image/png" }],

      testAudioContent: () => [{ type: "audio" as const, data: WAV_SILENCE, mimeType: "audio/wav" }],

      testEmbeddedResource: () => [
        {
          type: "resource" as const,
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],

      testMultipleContentTypes: () => [
        text("Multiple content types test:"),
        { type: "image" as const, data: PNG_1X1, mimeType: "image/png" },
        {
          type: "resource" as const,
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],

      async testToolWithLogging(_input: unknown, ctx: HandlerContext) {
        await ctx.log("info", "Tool execution started");
        await sleep(50, ctx.signal);
        await ctx.log("info", "Tool processing data");
        await sleep(50, ctx.signal);
        await ctx.log("info", "Tool execution completed");
        return "Tool with logging executed successfully";
      },

      async testToolWithProgress(_input: unknown, ctx: HandlerContext) {
        for (const step of [0, 50, 100]) {
          await ctx.sendProgress(step, { total: 100, message: `Completed step ${step} of 100` });
          if (step < 100) await sleep(50, ctx.signal);
        }
        const token = ctx.meta?.progressToken;
        return token === undefined ? "Progress test completed (no progress token)" : String(token);
      },

      testErrorHandling: () => toolError("This tool intentionally returns an error for testing"),

      async testSampling({ prompt }: { prompt: string }, ctx: HandlerContext) {
        const reply = await ctx.client.createMessage({
          messages: [{ role: "user", content: { type: "text", text: prompt } }],
          maxTokens: 100,
        });
        const content = reply.content as { type?: string; text?: string };
        const said =
          content.type === "text" && typeof content.text === "string" ? content.text : JSON.stringify(reply.content);
        return `LLM response: ${said}`;
      },

      async testElicitation({ message }: { message: string }, ctx: HandlerContext) {
        const r = await ctx.client.elicit({
          message,
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "Your username" },
              email: { type: "string", description: "Your email address" },
            },
            required: ["username", "email"],
          },
        });
        return `User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
      },

      async testElicitationSep1034Defaults(_input: unknown, ctx: HandlerContext) {
        const r = await ctx.client.elicit({
          message: "Please review and update the form fields with defaults",
          requestedSchema: defaultsForm,
        });
        return `Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
      },

      async testElicitationSep1330Enums(_input: unknown, ctx: HandlerContext) {
        const r = await ctx.client.elicit({
          message: "Please select options from the enum fields",
          requestedSchema: enumsForm,
        });
        return `Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
      },

      jsonSchema202012Tool: (input: { name?: string; contactMethod?: string }) =>
        `Received ${input.name ?? "a contact"} (contact by ${input.contactMethod ?? "any method"})`,

      async testReconnection(_input: unknown, ctx: HandlerContext) {
        // Polling (2025-11-25): drop the connection after the priming event and answer on the resumed stream.
        const closed = ctx.closeStream();
        await sleep(100, ctx.signal);
        return closed
          ? "Reconnection test completed (answered after the stream was closed)"
          : "Reconnection test completed";
      },
    },

    prompts: {
      ...statelessPrompts(),
      testSimplePrompt: () => "This is a simple prompt for testing.",

      testPromptWithArguments: ({ arg1, arg2 }: { arg1: string; arg2: string }) =>
        `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,

      testPromptWithEmbeddedResource: ({ resourceUri }: { resourceUri: string }) => [
        {
          role: "user" as const,
          content: {
            type: "resource" as const,
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user" as const, content: text("Please process the embedded resource above.") },
      ],

      testPromptWithImage: () => [
        { role: "user" as const, content: { type: "image" as const, data: PNG_1X1, mimeType: "image/png" } },
        { role: "user" as const, content: text("Please analyze the image above.") },
      ],
    },

    resources: {
      staticText: () => "This is the content of the static text resource.",
      staticBinary: () => [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG_1X1 }],
      watchedResource: () => "Watched resource content",
      templateData: ({ id }: { id: string }) => ({
        contents: [
          {
            uri: `test://template/${id}/data`,
            mimeType: "application/json",
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      }),
    },

    completions: {
      prompts: {
        testPromptWithArguments: {
          arg1: (value: string) => ["test", "testValue1", "testing"].filter((v) => v.startsWith(value)),
          arg2: (value: string) => ["testValue2", "other"].filter((v) => v.startsWith(value)),
        },
      },
    },
  };
}
