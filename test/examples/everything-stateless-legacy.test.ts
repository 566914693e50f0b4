// Legacy stateless Streamable HTTP (no sessions, a connection per POST) on a manifest that also
// offers 2026-07-28, set up as docs/server-client.md shows: a POST at a legacy
// MCP-Protocol-Version (or none: 2025-03-26) is served in the legacy era, so legacy clients work
// (the generated typed client forced to a legacy revision, the official SDK v1 client), and a
// 2026-07-28 client on the same endpoint still gets the stateless modern era.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  connectHttp,
  createStreamableHttpHandler,
  createStreamableHttpServer,
  StreamableHttpClientTransport,
  type StreamableHttpHandler,
} from "@mcpgen/runtime/http";
import { createServer } from "../../examples/everything/src/server.js";
import { createEverythingClient } from "../../examples/everything/src/mcp/client.js";

const errors: Error[] = [];
const server = createServer({ onerror: (e) => errors.push(e) });

/** The documented setup: `createStreamableHttpHandler` in a node:http server, the header's revision passed to connect. */
async function documented(): Promise<{ url: URL; close: () => Promise<void> }> {
  const handler: StreamableHttpHandler = createStreamableHttpHandler({
    stateless: true,
    onsession: async (t, req) =>
      void (await server.connect(t, {
        stateless: { protocolVersion: req.headers["mcp-protocol-version"] as string | undefined },
      })),
  });
  const http: Server = createHttpServer((req, res) => handler.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The short form: `createStreamableHttpServer({ stateless: true })` and a plain connect(t). */
async function plain(): Promise<{ url: URL; close: () => Promise<void> }> {
  const http = createStreamableHttpServer({ stateless: true, onsession: async (t) => void (await server.connect(t)) });
  return { url: await http.listen(), close: () => http.close() };
}

for (const [setup, start] of [
  ["documented handler", documented],
  ["plain connect", plain],
] as const) {
  for (const revision of ["2025-06-18", "2025-03-26"]) {
    test(`${setup}: the typed client at ${revision} calls tools, prompts and resources after initialize`, async () => {
      const endpoint = await start();
      errors.length = 0;
      const client = await createEverythingClient(
        new StreamableHttpClientTransport({ url: endpoint.url, openGetStream: false }),
        { clientInfo: { name: "typed", version: "1" }, protocolVersion: revision },
      );
      try {
        assert.is(client.era, "legacy");
        assert.is(client.protocolVersion, revision);
        assert.equal((await client.tools.greet({ name: "legacy" })).content, [
          { type: "text", text: "Hello, legacy!" },
        ]);
        assert.ok((await client.listTools()).some((t) => t.name === "slow_compute"));
        assert.match(JSON.stringify(await client.prompts.testSimplePrompt()), /This is a simple prompt for testing\./);
        assert.is((await client.readResource("test://static-text")).contents.length, 1);
        assert.equal(
          errors.map((e) => e.message),
          [],
        );
      } finally {
        await client.close();
        await endpoint.close();
      }
    });
  }

  test(`${setup}: the official SDK v1 client (stateless, no session id) lists and calls`, async () => {
    const endpoint = await start();
    errors.length = 0;
    const sdk = new Client({ name: "sdk-v1", version: "1.0.0" });
    try {
      await sdk.connect(new StreamableHTTPClientTransport(endpoint.url));
      assert.is(sdk.getServerVersion()?.name, "everything");
      const tools = await sdk.listTools();
      assert.ok(tools.tools.some((t) => t.name === "greet"));
      assert.equal((await sdk.callTool({ name: "greet", arguments: { name: "sdk" } })).content, [
        { type: "text", text: "Hello, sdk!" },
      ]);
      assert.is((await sdk.getPrompt({ name: "test_simple_prompt" })).messages.length, 1);
      await sdk.ping();
      assert.equal(
        errors.map((e) => e.message),
        [],
      );
    } finally {
      await sdk.close();
      await endpoint.close();
    }
  });

  test(`${setup}: a 2026-07-28 client on the same endpoint still gets the modern era`, async () => {
    const endpoint = await start();
    const client = await createEverythingClient(connectHttp(endpoint.url), {
      clientInfo: { name: "modern", version: "1" },
      eraCache: false,
    });
    try {
      assert.is(client.era, "modern");
      assert.equal((await client.tools.greet({ name: "modern" })).content, [{ type: "text", text: "Hello, modern!" }]);
    } finally {
      await client.close();
      await endpoint.close();
    }
  });
}

test.after(() => server.close());

test.run();
