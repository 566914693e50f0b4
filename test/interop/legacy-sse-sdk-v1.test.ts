// The legacy 2024-11-05 HTTP+SSE transport: our runtime's client (LegacySseClientTransport, and the
// connectHttp probe falling back to it) with the generic client, against the official SDK v1
// SSEServerTransport behind a plain node:http server on 127.0.0.1 serving an SDK v1 McpServer.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { z } from "zod";
import { connectMcpClient, type McpClient, type Transport } from "@mcpgen/runtime";
import { connectHttp, LegacySseClientTransport } from "@mcpgen/runtime/http";
import { bindings, byRevision, dual, latest } from "../runtime/helpers/binding.js";

const clientInfo = { name: "mcpgen-interop", version: "1.0.0" };
const TIMEOUT = 5000;

interface SdkSseServer {
  sse: URL;
  /** Protocol versions the SDK server saw in `initialize`, in order. */
  requested: string[];
  /** Streamable HTTP attempts (POST to the SSE URL) that were refused. */
  refusedPosts: number;
  close(): Promise<void>;
}

/** GET /sse opens a session (one McpServer each); POST /messages?sessionId= feeds it; POST /sse is refused with 405 like a legacy-only server. */
async function startSdkSseServer(): Promise<SdkSseServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const state = { requested: [] as string[], refusedPosts: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => void sessions.delete(transport.sessionId);
      const mcp = new McpServer({ name: "sdk-v1-sse", version: "1.32.2" });
      mcp.registerTool(
        "add",
        { description: "a + b", inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
      );
      // Record the revision each initialize asks for (wrapping after connect: the SDK sets onmessage there).
      void mcp.connect(transport).then(() => {
        const deliver = transport.onmessage!;
        transport.onmessage = (m: any, extra) => {
          if (m.method === "initialize") state.requested.push(m.params.protocolVersion);
          deliver(m, extra);
        };
      });
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end("no such session");
      return void transport.handlePostMessage(req, res);
    }
    if (url.pathname === "/sse") state.refusedPosts++;
    res.writeHead(405, { allow: "GET" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    sse: new URL(`http://127.0.0.1:${port}/sse`),
    get requested() {
      return state.requested;
    },
    get refusedPosts() {
      return state.refusedPosts;
    },
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function exercise(client: McpClient): Promise<void> {
  assert.is(client.serverInfo.name, "sdk-v1-sse");
  assert.equal(
    (await client.listTools()).map((t) => t.name),
    ["add"],
  );
  const r = await client.callTool("add", { a: 2, b: 40 });
  assert.equal(r.content, [{ type: "text", text: "42" }]);
  await client.ping();
}

async function withServer(body: (server: SdkSseServer) => Promise<void>): Promise<void> {
  const server = await startSdkSseServer();
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

async function withClient(
  transport: Transport,
  options: { bindings: typeof bindings; eraCache?: false },
  body: (client: McpClient) => Promise<void>,
): Promise<void> {
  let client: McpClient | undefined;
  try {
    client = await connectMcpClient(transport, { clientInfo, timeout: TIMEOUT, ...options });
    await body(client);
  } finally {
    await (client ? client.close() : transport.close());
  }
}

test("LegacySseClientTransport offering only 2024-11-05: SDK v1 SSE server negotiates it, tools work", () =>
  withServer(async (server) => {
    const transport = new LegacySseClientTransport({ url: server.sse, connectTimeoutMs: TIMEOUT });
    await withClient(transport, { bindings: [byRevision("2024-11-05")] }, async (client) => {
      assert.is(client.protocolVersion, "2024-11-05");
      assert.equal(server.requested, ["2024-11-05"]);
      assert.is(transport.endpointUrl?.pathname, "/messages");
      await exercise(client);
    });
  }));

test("connectHttp probe: Streamable HTTP POST refused with 405, falls back to SSE, 2024-11-05", () =>
  withServer(async (server) => {
    const transport = connectHttp(server.sse, {});
    await withClient(transport, { bindings: [byRevision("2024-11-05")] }, async (client) => {
      assert.is(transport.mode, "sse");
      assert.is(server.refusedPosts, 1);
      assert.is(client.protocolVersion, "2024-11-05");
      assert.equal(server.requested, ["2024-11-05"]);
      await exercise(client);
    });
  }));

test(`connectHttp probe offering every revision: SSE fallback, SDK v1 settles on ${latest.revision}`, () =>
  withServer(async (server) => {
    const transport = connectHttp(server.sse, {});
    await withClient(transport, { bindings }, async (client) => {
      assert.is(transport.mode, "sse");
      assert.is(client.protocolVersion, latest.revision);
      assert.equal(server.requested, [latest.revision]);
      await exercise(client);
    });
  }));

test("dual-era client (2026-07-28 + legacy): the modern probe POST is refused (405), initialize too, then HTTP+SSE", () =>
  withServer(async (server) => {
    const transport = connectHttp(server.sse, {});
    await withClient(transport, { bindings: dual, eraCache: false }, async (client) => {
      assert.is(client.era, "legacy");
      assert.is(transport.mode, "sse");
      assert.is(server.refusedPosts, 2, "server/discover, then initialize, each refused by the legacy-only endpoint");
      assert.is(client.protocolVersion, latest.revision);
      await exercise(client);
    });
  }));

test.run();
