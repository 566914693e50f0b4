// The real session/lifecycle layer, with the generated 2024-11-05…2025-11-25 bindings, over each real transport: stdio (child process), Streamable
// HTTP (stateful and stateless), legacy HTTP+SSE through the probe.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fileURLToPath } from "node:url";
import { ConnectionClosedError } from "@mcpgen/runtime";
import { connectClient, createServerSession } from "@mcpgen/runtime/internal";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import {
  createStreamableHttpServer,
  createLegacySseHandler,
  connectHttp,
  StreamableHttpClientTransport,
} from "@mcpgen/runtime/http";
import type { ClientSession, Transport } from "@mcpgen/runtime";
import type { ServerOptions } from "@mcpgen/runtime/internal";
import { binding as b20241105 } from "@mcpgen/runtime/protocol/2024-11-05";
import { binding as b20250326 } from "@mcpgen/runtime/protocol/2025-03-26";
import { binding as b20250618 } from "@mcpgen/runtime/protocol/2025-06-18";
import { binding as b20251125 } from "@mcpgen/runtime/protocol/2025-11-25";

// The generated bindings (method tables + standalone validators) of the legacy era.
const bindings = [b20241105, b20250326, b20250618, b20251125];
import { waitFor, within } from "./helpers.js";

const fixture = fileURLToPath(new URL("../../../../test/fixtures/session-stdio-server.mjs", import.meta.url));
const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]!.text;

/** Handlers of tool "wait" that started / saw their cancellation. */
const waiting = { count: 0, aborted: 0 };

function serverOptions(transport: Transport, extra: Partial<ServerOptions> = {}): ServerOptions {
  return {
    transport,
    bindings,
    serverInfo: { name: "e2e", version: "1.0.0" },
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [{ name: "add", inputSchema: { type: "object" } }] }),
      "tools/call": async (params: { name: string; arguments: { a: number; b: number } }, ctx) => {
        await ctx.sendProgress(1, { total: 2 });
        if (params.name === "wait") {
          waiting.count++;
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
          waiting.aborted++;
          return { content: [] };
        }
        if (params.name === "ask") {
          const roots = await ctx.sendRequest<{ roots: { uri: string }[] }>("roots/list");
          return { content: [{ type: "text", text: roots.roots.map((r) => r.uri).join(",") }] };
        }
        const { a, b } = params.arguments;
        return { content: [{ type: "text", text: String(a + b) }] };
      },
    },
    ...extra,
  };
}

async function exercise(client: ClientSession, withRoots = true): Promise<void> {
  const progress: number[] = [];
  const r = await within(
    client.request(
      "tools/call",
      { name: "add", arguments: { a: 2, b: 3 } },
      { onprogress: (p) => progress.push(p.progress) },
    ),
    5000,
    "tools/call",
  );
  assert.is(text(r), "5");
  assert.equal(progress, [1]);
  const many = await within(
    Promise.all(
      Array.from({ length: 16 }, (_, i) => client.request("tools/call", { name: "add", arguments: { a: i, b: 1 } })),
    ),
    5000,
    "16 in flight",
  );
  assert.equal(
    many.map(text),
    Array.from({ length: 16 }, (_, i) => String(i + 1)),
  );
  if (withRoots) {
    const asked = await within(
      client.request("tools/call", { name: "ask", arguments: {} }),
      5000,
      "server→client request",
    );
    assert.is(text(asked), "file:///tmp");
  }
  await within(client.ping(), 5000, "ping");
}

const clientBase = {
  bindings,
  clientInfo: { name: "e2e-client", version: "1.0.0" },
  capabilities: { roots: {} },
  handlers: { "roots/list": () => ({ roots: [{ uri: "file:///tmp" }] }) },
};

test("session over stdio: handshake, calls with progress, 16 in flight, shutdown", async () => {
  const t = new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: "pipe" });
  cleanup.push(() => t.close());
  const client = await within(
    connectClient({ ...clientBase, capabilities: {}, handlers: {}, transport: t }),
    10000,
    "connect",
  );
  assert.is(client.protocolVersion, "2025-11-25");
  await exercise(client, false);
  await within(client.close(), 5000, "close");
  assert.equal(t.exit, { code: 0, signal: null });
});

test("session over stdio negotiated down to 2024-11-05", async () => {
  const t = new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: "pipe" });
  cleanup.push(() => t.close());
  const client = await within(
    connectClient({ ...clientBase, capabilities: {}, handlers: {}, protocolVersion: "2024-11-05", transport: t }),
    10000,
    "connect",
  );
  assert.is(client.protocolVersion, "2024-11-05");
  assert.is(
    text(await within(client.request("tools/call", { name: "add", arguments: { a: 4, b: 4 } }), 5000, "call")),
    "8",
  );
  await client.close();
});

test("session over stdio: the server dying mid-request fails the call with a connection-closed error", async () => {
  const t = new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: "pipe" });
  cleanup.push(() => t.close());
  const client = await within(
    connectClient({ ...clientBase, capabilities: {}, handlers: {}, transport: t }),
    10000,
    "connect",
  );
  try {
    await within(client.request("tools/call", { name: "die", arguments: {} }), 5000, "call");
    assert.unreachable("must reject");
  } catch (e) {
    assert.instance(e, ConnectionClosedError);
  }
  await waitFor(() => t.exit !== undefined, 5000, "exit status");
  assert.is(t.exit!.code, 7);
});

test("session over Streamable HTTP (stateful): progress and server→client requests over SSE, DELETE on close", async () => {
  const server = createStreamableHttpServer({
    onsession: (t) => void createServerSession(serverOptions(t)),
    keepAliveMs: 0,
  });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const client = await within(
    connectClient({ ...clientBase, transport: new StreamableHttpClientTransport({ url }) }),
    5000,
    "connect",
  );
  assert.is(server.sessions.size, 1);
  await exercise(client);
  await within(client.close(), 5000, "close");
  await waitFor(() => server.sessions.size === 0, 2000, "session ended");
});

test("cancellation over Streamable HTTP: abort sends notifications/cancelled (POST → 202), the handler is aborted", async () => {
  const server = createStreamableHttpServer({
    onsession: (t) => void createServerSession(serverOptions(t)),
    keepAliveMs: 0,
  });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const client = await within(
    connectClient({ ...clientBase, transport: new StreamableHttpClientTransport({ url }) }),
    5000,
    "connect",
  );
  const before = { ...waiting };
  const ac = new AbortController();
  const call = client.request("tools/call", { name: "wait", arguments: {} }, { signal: ac.signal });
  await waitFor(() => waiting.count === before.count + 1, 5000, "handler started");
  ac.abort(new Error("user cancelled"));
  try {
    await within(call, 5000, "cancelled call");
    assert.unreachable("must reject");
  } catch (e) {
    assert.match((e as Error).message, /user cancelled/);
  }
  await waitFor(() => waiting.aborted === before.aborted + 1, 5000, "server handler aborted");
  // The session still works afterwards.
  assert.is(
    text(await within(client.request("tools/call", { name: "add", arguments: { a: 1, b: 1 } }), 5000, "after")),
    "2",
  );
  await client.close();
});

test("unknown session: after the server forgets the session, calls fail with HTTP 404", async () => {
  const server = createStreamableHttpServer({
    onsession: (t) => void createServerSession(serverOptions(t)),
    keepAliveMs: 0,
  });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const transport = new StreamableHttpClientTransport({ url });
  const client = await within(connectClient({ ...clientBase, transport }), 5000, "connect");
  await server.sessions.get(transport.sessionId!)!.close();
  try {
    await within(client.request("tools/call", { name: "add", arguments: { a: 1, b: 1 } }), 5000, "call");
    assert.unreachable("must reject");
  } catch (e) {
    assert.match((e as Error).message, /404/);
  }
  await client.close();
});

test("session over Streamable HTTP (stateless): each POST its own server session", async () => {
  const server = createStreamableHttpServer({
    stateless: true,
    keepAliveMs: 0,
    onsession: (t, req) =>
      void createServerSession(
        serverOptions(t, { stateless: { protocolVersion: req.headers["mcp-protocol-version"] as string | undefined } }),
      ),
  });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const client = await within(
    connectClient({ ...clientBase, transport: new StreamableHttpClientTransport({ url }) }),
    5000,
    "connect",
  );
  await exercise(client, false);
  await client.close();
});

test("session over legacy HTTP+SSE through the probe, negotiated down to 2024-11-05", async () => {
  const legacy = createLegacySseHandler({
    onsession: (t) => void createServerSession(serverOptions(t)),
    keepAliveMs: 0,
  });
  const server = createStreamableHttpServer({ onsession: () => {}, legacySse: legacy, keepAliveMs: 0 });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const probe = connectHttp(new URL("/sse", url));
  const client = await within(
    connectClient({ ...clientBase, protocolVersion: "2024-11-05", transport: probe }),
    5000,
    "connect",
  );
  assert.is(probe.mode, "sse");
  assert.is(client.protocolVersion, "2024-11-05");
  await exercise(client);
  await client.close();
});

test.run();
