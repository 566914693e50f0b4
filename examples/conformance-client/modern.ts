/**
 * The client scenarios of the official suite on the 2026-07-28 wire. Each one is ordinary use of
 * the runtime's dual-era client (`connectMcpClient` over `connectHttp`, with mcpgen's generated
 * 2026-07-28 and 2025-x bindings): it probes with server/discover, stays on the stateless
 * protocol, sends per-request `_meta` and the request-metadata headers, answers input-required
 * results through its elicitation / sampling / roots handlers, and drops tools whose x-mcp-header
 * annotations are invalid. What differs per scenario is only what the "application" does.
 */
import { connectMcpClient, type CallToolResult, type McpClient, type Tool } from "@mcpgen/runtime";
import { connectHttp } from "@mcpgen/runtime/http";
import type { HttpAuthorizer } from "@mcpgen/runtime/auth";
import { sampleArguments } from "./arguments.js";
import { dualBindings } from "./bindings.js";
import { applyDefaults } from "./defaults.js";
import type { ScenarioContext } from "./scenarios.js";

/** The dual-era client; `auth` (OAuth for the auth/* scenarios) authorizes its requests in both eras. */
export async function connectDual(ctx: ScenarioContext, auth?: HttpAuthorizer): Promise<McpClient> {
  const client = await connectMcpClient(connectHttp(ctx.url, { auth }), {
    bindings: dualBindings,
    clientInfo: { name: "mcpgen-conformance-client", version: "0.1.0" },
    timeout: 20_000,
    onerror: (e) => ctx.log(`runtime: ${e.message}`),
    handlers: {
      // The user "just presses OK": accept with the schema's defaults.
      elicitation: (params) => ({ action: "accept", content: applyDefaults(params.requestedSchema) }),
      sampling: () => ({
        role: "assistant",
        content: { type: "text", text: "mcpgen conformance client" },
        model: "mcpgen-canned",
        stopReason: "endTurn",
      }),
      roots: () => [{ uri: "file:///conformance", name: "conformance" }],
    },
  });
  ctx.log(`connected to ${client.serverInfo?.name ?? "?"}: ${client.era} era, ${client.protocolVersion}`);
  return client;
}

async function withClient(ctx: ScenarioContext, body: (c: McpClient) => Promise<void>): Promise<void> {
  const c = await connectDual(ctx);
  try {
    await body(c);
  } finally {
    await c.close();
  }
}

function describe(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ");
}

async function call(c: McpClient, ctx: ScenarioContext, name: string, args: Record<string, unknown>): Promise<void> {
  const r = await c.callTool(name, args);
  ctx.log(`${name}(${JSON.stringify(args)}) -> ${r.isError ? "error: " : ""}${describe(r)}`);
}

/** Call every listed tool with arguments made up from its input schema. */
async function callEvery(c: McpClient, ctx: ScenarioContext, tools: Tool[]): Promise<void> {
  for (const t of tools) await call(c, ctx, t.name, sampleArguments(t));
}

/** The tool calls a scenario's context prescribes (`{ toolCalls: [{ name, arguments }] }`). */
function prescribedCalls(ctx: ScenarioContext): { name: string; arguments: Record<string, unknown> }[] {
  const calls = ctx.context?.toolCalls;
  if (!Array.isArray(calls)) throw new Error("MCP_CONFORMANCE_CONTEXT has no toolCalls");
  return calls.map((x: unknown, i: number) => {
    const o = x as { name?: unknown; arguments?: unknown };
    if (typeof o?.name !== "string") throw new Error(`MCP_CONFORMANCE_CONTEXT /toolCalls/${i}/name: expected a string`);
    return { name: o.name, arguments: (o.arguments ?? {}) as Record<string, unknown> };
  });
}

export const modernScenarios: Record<string, (ctx: ScenarioContext) => Promise<void>> = {
  /** List the tools and call `add_numbers`. */
  tools_call: (ctx) =>
    withClient(ctx, async (c) => {
      const tools = await c.listTools();
      const t = tools.find((x) => x.name === "add_numbers") ?? tools[0];
      if (!t) throw new Error("the server lists no tool");
      await call(c, ctx, t.name, sampleArguments(t));
    }),

  /** Discover (after a -32022 the client retries with a version the server lists), then list tools if offered. */
  "request-metadata": (ctx) =>
    withClient(ctx, async (c) => {
      if (c.serverCapabilities.tools === undefined) return ctx.log("the server offers no tools");
      ctx.log(`${(await c.listTools()).length} tools`);
    }),

  /** Every MRTR tool, in list order: input-required rounds run through the handlers. */
  "sep-2322-client-request-state": (ctx) => withClient(ctx, async (c) => callEvery(c, ctx, await c.listTools())),

  /** Every kind of request that carries Mcp-Method / Mcp-Name. */
  "http-standard-headers": (ctx) =>
    withClient(ctx, async (c) => {
      await callEvery(c, ctx, await c.listTools());
      for (const r of await c.listResources())
        ctx.log(`read ${r.uri}: ${(await c.readResource(r.uri)).contents.length} contents`);
      for (const p of await c.listPrompts())
        ctx.log(`prompt ${p.name}: ${(await c.getPrompt(p.name, {})).messages.length} messages`);
    }),

  /** The prescribed calls, after tools/list taught the client which arguments are mirrored into headers. */
  "http-custom-headers": (ctx) =>
    withClient(ctx, async (c) => {
      await c.listTools();
      for (const x of prescribedCalls(ctx)) await call(c, ctx, x.name, x.arguments);
    }),

  /** Every tool the client keeps: those with invalid x-mcp-header annotations are not in its view. */
  "http-invalid-tool-headers": (ctx) =>
    withClient(ctx, async (c) => {
      const tools = await c.listTools();
      ctx.log(`kept ${tools.map((t) => t.name).join(", ")}`);
      await callEvery(c, ctx, tools);
    }),

  /** SEP-1613 on the stateless wire: the rich tool's input schema, as listed, handed to the echo tool. */
  "json-schema-2020-12-preservation": (ctx) =>
    withClient(ctx, async (c) => {
      const tools = await c.listTools();
      const echo = tools.find((t) => t.name === "json_schema_echo");
      const rich = tools.find((t) => t !== echo);
      if (echo === undefined || rich === undefined)
        throw new Error(`expected an echo tool and another; listed ${tools.map((t) => t.name).join(", ")}`);
      await call(c, ctx, echo.name, { schema: rich.inputSchema });
    }),

  /** List tools whose schema holds a network $ref; the client never dereferences it. */
  "json-schema-ref-no-deref": (ctx) =>
    withClient(ctx, async (c) => {
      const tools = await c.listTools();
      ctx.log(`listed ${tools.map((t) => t.name).join(", ")}`);
    }),
};
