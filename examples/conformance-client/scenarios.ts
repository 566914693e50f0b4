/**
 * What the conformance client does in each client scenario of the official suite (the `core`
 * suite without OAuth). Every scenario connects through mcpgen's runtime (the legacy lifecycle's
 * `connectClient` over the Streamable HTTP client transport) with the generated 2025-x bindings,
 * so every message the server sends is checked by the generated validators.
 */
import type { ClientSession, Params } from "@mcpgen/runtime";
import { connectClient, type RequestHandlers } from "@mcpgen/runtime/internal";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import type {
  ClientRequestMethod,
  ElicitResult,
  RequestParams,
  ResultOf,
  Tool,
} from "@mcpgen/runtime/protocol/2025-11-25";
import { sampleArguments } from "./arguments.js";
import { bindings } from "./bindings.js";
import { applyDefaults } from "./defaults.js";

export interface ScenarioContext {
  url: string;
  /** MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.x): the revision the run targets. */
  protocolVersion?: string;
  /** MCP_CONFORMANCE_CONTEXT, parsed (auth scenarios). */
  context?: Record<string, unknown>;
  log: (msg: string) => void;
}

interface ConnectOptions {
  capabilities?: Record<string, unknown>;
  handlers?: RequestHandlers;
  /**
   * Open the standalone GET stream after the handshake (default true): servers may send requests
   * not tied to a client request there (the suite's elicitation mock does). sse-retry turns it
   * off because its mock takes any GET for the reconnection it is timing.
   */
  getStream?: boolean;
}

async function connect(ctx: ScenarioContext, o: ConnectOptions = {}): Promise<ClientSession> {
  const transport = new StreamableHttpClientTransport({ url: ctx.url, openGetStream: o.getStream ?? true });
  const known = bindings.some((b) => b.revision === ctx.protocolVersion);
  if (ctx.protocolVersion !== undefined && !known)
    ctx.log(`MCP_CONFORMANCE_PROTOCOL_VERSION=${ctx.protocolVersion} not spoken; offering ${bindings[0]!.revision}`);
  const session = await connectClient({
    transport,
    bindings,
    protocolVersion: known ? ctx.protocolVersion : undefined,
    clientInfo: { name: "mcpgen-conformance-client", version: "0.1.0" },
    capabilities: o.capabilities ?? {},
    handlers: o.handlers,
    timeout: 20_000,
    onerror: (e) => ctx.log(`runtime: ${e.message}`),
  });
  ctx.log(`connected to ${session.serverInfo?.name ?? "?"}, speaking ${session.protocolVersion}`);
  return session;
}

/**
 * A request typed by the generated method maps. The session API takes open `Params` records,
 * which generated interfaces (no index signature) are not assignable to, hence the casts; the
 * result's shape is guaranteed by the generated result validator the session runs.
 */
async function call<M extends ClientRequestMethod>(
  s: ClientSession,
  method: M,
  params: RequestParams<M>,
): Promise<ResultOf<M>> {
  return (await s.request(method, params as unknown as Params)) as unknown as ResultOf<M>;
}

async function listTools(s: ClientSession): Promise<Tool[]> {
  return (await call(s, "tools/list", {})).tools;
}

async function callTool(s: ClientSession, tool: Tool, ctx: ScenarioContext): Promise<void> {
  const params: RequestParams<"tools/call"> = { name: tool.name, arguments: sampleArguments(tool) };
  const r = await call(s, "tools/call", params);
  const text = r.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ");
  ctx.log(`${tool.name}(${JSON.stringify(params.arguments)}) -> ${r.isError ? "error: " : ""}${text}`);
}

/** The named tool, or the first listed one when the server calls it differently. */
function pick(tools: Tool[], name: string): Tool {
  const t = tools.find((x) => x.name === name) ?? tools[0];
  if (!t) throw new Error("the server lists no tool");
  return t;
}

async function withSession(
  ctx: ScenarioContext,
  o: ConnectOptions,
  body: (s: ClientSession) => Promise<void>,
): Promise<void> {
  const s = await connect(ctx, o);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

/** Accept every form elicitation with the schema's defaults (the user "just presses OK"). */
function acceptWithDefaults(ctx: ScenarioContext) {
  return (params: RequestParams<"elicitation/create">): ElicitResult => {
    if (params.mode === "url") return { action: "decline" };
    const content = applyDefaults(params.requestedSchema);
    ctx.log(`elicitation "${params.message}" accepted with ${JSON.stringify(content)}`);
    return { action: "accept", content };
  };
}

export const scenarios: Record<string, (ctx: ScenarioContext) => Promise<void>> = {
  /** Handshake only: initialize, initialized, then close. */
  initialize: (ctx) => withSession(ctx, {}, async () => {}),

  /** List tools and call `add_numbers` with numbers typed from its input schema. */
  tools_call: (ctx) => withSession(ctx, {}, async (s) => callTool(s, pick(await listTools(s), "add_numbers"), ctx)),

  /** Answer the server's form elicitation with accept and every schema default applied (SEP-1034). */
  "elicitation-sep1034-client-defaults": (ctx) =>
    withSession(
      ctx,
      {
        capabilities: { elicitation: { form: { applyDefaults: true } } },
        handlers: { "elicitation/create": acceptWithDefaults(ctx) },
      },
      async (s) => callTool(s, pick(await listTools(s), "test_client_elicitation_defaults"), ctx),
    ),

  /**
   * SEP-1613: a tool's input schema reaches the application as the server wrote it (2020-12
   * keywords included); the application hands the schema of the tool with the rich schema to the
   * echo tool, which takes any schema.
   */
  "json-schema-2020-12-preservation": (ctx) =>
    withSession(ctx, {}, async (s) => {
      const tools = await listTools(s);
      const echo = tools.find((t) => t.name === "json_schema_echo");
      const rich = tools.find((t) => t !== echo);
      if (echo === undefined || rich === undefined)
        throw new Error(`expected an echo tool and another; listed ${tools.map((t) => t.name).join(", ")}`);
      const r = await call(s, "tools/call", { name: echo.name, arguments: { schema: rich.inputSchema } });
      ctx.log(`echoed the input schema of ${rich.name}: ${r.isError ? "error" : "ok"}`);
    }),

  /**
   * SEP-2640 skills, client side: this client loads no skills (the skills client is another
   * part of issue #28), so as a host it must not fetch skill files it never loads; it connects
   * and reads nothing. The suite reports its checks SKIPPED (skills/list never called).
   */
  ...Object.fromEntries(
    [
      "sep-2640-client-no-prefetch",
      "sep-2640-client-verify-digest",
      "sep-2640-client-verify-size",
      "sep-2640-client-verify-frontmatter",
    ].map((name) => [
      name,
      (ctx: ScenarioContext) =>
        withSession(ctx, {}, async (s) =>
          ctx.log(`connected to ${s.serverInfo?.name ?? "?"}; no skill loaded, nothing read`),
        ),
    ]),
  ),

  /**
   * The server closes the tool call's SSE stream before the result; the transport resumes it with
   * GET + Last-Event-ID after the `retry` interval the server sent (SEP-1699).
   */
  "sse-retry": (ctx) =>
    withSession(ctx, { getStream: false }, async (s) =>
      callTool(s, pick(await listTools(s), "test_reconnection"), ctx),
    ),
};
