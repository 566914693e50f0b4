/** A hand-written dual-era definition (legacy 2025-11-25 + 2026-07-28) and a raw modern peer over memory. */
import {
  createMcpServer,
  type McpDefinition,
  type McpServer,
  type McpServerHandlers,
  type McpServerOptions,
  type Validator,
} from "@mcpgen/runtime";
import { bindings, modern } from "../helpers/binding.js";
import { rawPeer, type RawPeer } from "../helpers/peer.js";
import { createMemoryTransportPair } from "@mcpgen/runtime";

const anyObject = ((d: unknown) => typeof d === "object" && d !== null && !Array.isArray(d)) as Validator;

export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

export function definition(
  revisions: string[] = ["2026-07-28", "2025-11-25"],
  cache?: McpDefinition["cache"],
): McpDefinition {
  const tools = [
    {
      name: "echo",
      description: "echo",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          n: { type: "integer", "x-mcp-header": "N" },
        },
      },
    },
    { name: "ask", description: "asks twice", inputSchema: { type: "object" } },
    { name: "parallel", description: "asks three at once", inputSchema: { type: "object" } },
    { name: "sample", description: "needs sampling", inputSchema: { type: "object" } },
    { name: "log", description: "logs", inputSchema: { type: "object" } },
  ];
  const lists = {
    serverInfo: { name: "dual", version: "1.2.3" },
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
    },
    tools,
    prompts: [{ name: "p", description: "p", arguments: [{ name: "a", required: true }] }],
    resources: [{ uri: "u://static", name: "static" }],
    resourceTemplates: [{ uriTemplate: "u://item/{id}", name: "item" }],
  };
  return {
    revisions,
    pageSize: 100,
    published: Object.fromEntries(revisions.map((r) => [r, lists])),
    toolValidators: Object.fromEntries(tools.map((t) => [t.name, { input: anyObject, output: null }])),
    members: {
      tools: Object.fromEntries(tools.map((t) => [t.name, t.name])),
      prompts: { p: "p" },
      resources: { static: "static" },
      resourceTemplates: { item: "item" },
    },
    ...(cache ? { cache } : {}),
  };
}

/** How many times each tool handler ran (MRTR re-runs handlers). */
export const runs: Record<string, number> = {};

export function handlers(): McpServerHandlers {
  return {
    tools: {
      echo: (input: { region?: string }) => `region=${input.region ?? "-"}`,
      ask: async (_: never, ctx: any) => {
        runs.ask = (runs.ask ?? 0) + 1;
        const name = await ctx.client.elicit(
          {
            message: "name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
          { key: "name" },
        );
        const color = await ctx.client.elicit({
          message: "color?",
          requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
        });
        return `${name.content.name} likes ${color.content.color}`;
      },
      parallel: async (_: never, ctx: any) => {
        const [e, s, r] = await Promise.all([
          ctx.client.elicit({ message: "n?", requestedSchema: { type: "object", properties: {} } }),
          ctx.client.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "hi" } }],
            maxTokens: 5,
          }),
          ctx.client.listRoots(),
        ]);
        return `${e.action}/${s.content.text}/${r.length}`;
      },
      sample: async (_: never, ctx: any) => (await ctx.client.createMessage({ messages: [], maxTokens: 1 })).model,
      log: async (_: never, ctx: any) => {
        await ctx.log("debug", "d");
        await ctx.log("error", "e");
        return "logged";
      },
    },
    prompts: { p: (args: { a: string }) => `a=${args.a}` },
    resources: { static: () => "s", item: (v: { id: string }) => `item ${v.id}` },
  };
}

export function server(options: Partial<McpServerOptions> = {}, def = definition()): McpServer {
  return createMcpServer(def, handlers(), { bindings: [modern, ...bindings], onerror: () => {}, ...options });
}

let nextId = 1;
export interface ModernPeer extends RawPeer {
  /** Send a request and wait for its response (notifications before it land in `inbox`-free `seen`). */
  call(method: string, params?: Record<string, unknown>, meta?: Record<string, unknown> | null): Promise<any>;
  seen: any[];
}

/** A raw peer on a fresh connection of `s`, speaking 2026-07-28 unless told otherwise. */
export async function connect(s: McpServer): Promise<ModernPeer> {
  const [a, b] = createMemoryTransportPair();
  await s.connect(a);
  const peer = rawPeer(b) as ModernPeer;
  peer.seen = [];
  peer.call = async (method, params = {}, meta = {}) => {
    const id = nextId++;
    const p = meta === null ? params : { ...params, _meta: { ...META, ...meta } };
    await peer.send({ jsonrpc: "2.0", id, method, params: p });
    for (let i = 0; i < 100; i++) {
      const m = await peer.next(2000);
      if (m.id === id && !("method" in m)) return m;
      peer.seen.push(m);
    }
    throw new Error("no response");
  };
  return peer;
}
