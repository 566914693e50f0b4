/**
 * The fixtures the 2026-07-28 conformance scenarios call (diagnostic tools, multi round-trip
 * input, header mirroring), written as ordinary handlers: `ctx.client.*` is an input-required
 * round trip in 2026-07-28 and a server-to-client request in the legacy revisions, without the
 * handler knowing which. Input keys and texts follow the scenarios' descriptions.
 */
import type { HandlerContext } from "@mcpgen/runtime";
import type { EverythingHandlers } from "./mcp/server.js";

/** How a handler announces list changes (the server instance is created after its handlers). */
export interface ListChanges {
  tools(): Promise<void>;
  prompts(): Promise<void>;
}

const text = (t: string) => ({ type: "text" as const, text: t });

const nameForm = (message: string) =>
  ({
    message,
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  }) as const;

const confirmForm = {
  message: "Please confirm",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
} as const;

const ask = (prompt: string, maxTokens: number) => ({
  messages: [{ role: "user" as const, content: text(prompt) }],
  maxTokens,
});

/** The text of a sampling answer (content is one block or a list of them). */
function sampled(r: { content: unknown }): string {
  const blocks = (Array.isArray(r.content) ? r.content : [r.content]) as { type?: string; text?: string }[];
  return blocks.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join(" ");
}

export function statelessTools(
  changes: ListChanges,
): Pick<
  EverythingHandlers["tools"],
  | "testMissingCapability"
  | "testStreamingElicitation"
  | "testLoggingTool"
  | "testTriggerToolChange"
  | "testTriggerPromptChange"
  | "testHeaderParam"
  | "testInputRequiredResultElicitation"
  | "testInputRequiredResultSampling"
  | "testInputRequiredResultListRoots"
  | "testInputRequiredResultRequestState"
  | "testInputRequiredResultMultipleInputs"
  | "testInputRequiredResultMultiRound"
  | "testInputRequiredResultTamperedState"
  | "testInputRequiredResultCapabilities"
> {
  return {
    async testMissingCapability(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.createMessage(ask("Say hello", 20));
      return `LLM response: ${sampled(r)}`;
    },

    async testStreamingElicitation(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.elicit(nameForm("What is your name?"), { key: "user_name" });
      return `User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
    },

    async testLoggingTool(_: unknown, ctx: HandlerContext) {
      await ctx.log("info", "Logging tool started");
      await ctx.log("info", "Logging tool finished");
      return "Logged two messages (if the request's log level allowed them)";
    },

    async testTriggerToolChange() {
      await changes.tools();
      return "Tools list change announced";
    },

    async testTriggerPromptChange() {
      await changes.prompts();
      return "Prompts list change announced";
    },

    testHeaderParam: ({ region }: { region: string }) => `region=${region}`,

    async testInputRequiredResultElicitation(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.elicit(nameForm("What is your name?"), { key: "user_name" });
      return r.action === "accept" ? `Hello, ${r.content?.name}!` : `No name given (${r.action})`;
    },

    async testInputRequiredResultSampling(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.createMessage(ask("What is the capital of France?", 100), { key: "capital_question" });
      return `LLM response: ${sampled(r)}`;
    },

    async testInputRequiredResultListRoots(_: unknown, ctx: HandlerContext) {
      const roots = await ctx.client.listRoots({ key: "client_roots" });
      return `Roots: ${roots.map((r) => r.uri).join(", ") || "(none)"}`;
    },

    async testInputRequiredResultRequestState(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.elicit(confirmForm, { key: "confirm" });
      // The runtime verified the echoed requestState (HMAC, method, params, expiry) before this run.
      return `state-ok: confirmed=${r.action === "accept" && r.content?.ok === true}`;
    },

    async testInputRequiredResultMultipleInputs(_: unknown, ctx: HandlerContext) {
      const [name, greeting, roots] = await Promise.all([
        ctx.client.elicit(nameForm("What is your name?"), { key: "user_name" }),
        ctx.client.createMessage(ask("Generate a greeting", 50), { key: "greeting" }),
        ctx.client.listRoots({ key: "client_roots" }),
      ]);
      return `name=${String(name.content?.name)}, greeting=${sampled(greeting)}, roots=${roots.length}`;
    },

    async testInputRequiredResultMultiRound(_: unknown, ctx: HandlerContext) {
      const name = await ctx.client.elicit(nameForm("Step 1: What is your name?"), { key: "step1" });
      const color = await ctx.client.elicit(
        {
          message: "Step 2: What is your favorite color?",
          requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
        },
        { key: "step2" },
      );
      return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
    },

    async testInputRequiredResultTamperedState(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.elicit(confirmForm, { key: "confirm" });
      return `confirmed=${r.action === "accept" && r.content?.ok === true}`;
    },

    async testInputRequiredResultCapabilities(_: unknown, ctx: HandlerContext) {
      const caps = ctx.client.capabilities;
      const asks: Promise<string>[] = [];
      if (caps.sampling) asks.push(ctx.client.createMessage(ask("Say something", 20), { key: "sample" }).then(sampled));
      if (caps.elicitation)
        asks.push(ctx.client.elicit(nameForm("What is your name?"), { key: "user_name" }).then((r) => r.action));
      if (asks.length === 0) return "The client declares neither sampling nor elicitation: nothing to ask";
      return `Answers: ${(await Promise.all(asks)).join(", ")}`;
    },
  };
}

export function statelessPrompts(): Pick<EverythingHandlers["prompts"], "testInputRequiredResultPrompt"> {
  return {
    async testInputRequiredResultPrompt(_: unknown, ctx: HandlerContext) {
      const r = await ctx.client.elicit(
        {
          message: "What context should the prompt use?",
          requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
        },
        { key: "user_context" },
      );
      return `Use this context: ${r.action === "accept" ? String(r.content?.context) : "(none)"}`;
    },
  };
}
