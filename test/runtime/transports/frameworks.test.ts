// An mcpgen server mounted in Express, Fastify and Hono with the one line docs/deploy-node.md
// gives for each (and a bare node:http server running another library's fetch handler through
// toNodeListener's Request/Response path), each on 127.0.0.1:0 beside a route of the app's own:
// the official SDK v2 client calls a tool at 2026-07-28 and an SDK v1 client in a legacy session,
// whatever body parser the app runs before the route.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { AddressInfo } from "node:net";
import { createServer as createHttpServer, type Server } from "node:http";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { serve } from "@hono/node-server";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createFetchHandler, type FetchHandler } from "@mcpgen/runtime/fetch";
import { fastifyPlugin, toNodeListener } from "@mcpgen/runtime/node";
import { createServer } from "../../../examples/everything/src/server.js";

interface Mounted {
  readonly base: URL;
  close(): Promise<void>;
}

function listening(server: Server): Promise<URL> {
  return new Promise((resolve) => {
    const done = () => resolve(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    if (server.listening) done();
    else server.once("listening", done);
  });
}

function closing(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const hosts: Record<string, (handler: FetchHandler) => Promise<Mounted>> = {
  async express(handler) {
    const app = express();
    // The app's own JSON parser runs first: the endpoint reads what it parsed.
    app.use(express.json());
    app.get("/health", (_req, res) => void res.json({ ok: true }));
    app.all("/mcp", toNodeListener(handler));
    const server = app.listen(0, "127.0.0.1");
    return { base: await listening(server), close: () => closing(server) };
  },
  async fastify(handler) {
    const app = Fastify();
    app.get("/health", async () => ({ ok: true }));
    await app.register(fastifyPlugin(handler));
    await app.listen({ port: 0, host: "127.0.0.1" });
    return {
      base: new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`),
      close: () => app.close(),
    };
  },
  async hono(handler) {
    const app = new Hono();
    app.get("/health", (c) => c.json({ ok: true }));
    app.all("/mcp", (c) => handler(c.req.raw));
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
    return { base: await listening(server), close: () => closing(server) };
  },
  async "node:http with another fetch handler"(handler) {
    // Not createFetchHandler's own function: toNodeListener goes through Request and Response.
    const listener = toNodeListener((request) => handler(request));
    const server = createHttpServer((req, res) =>
      req.url === "/health"
        ? res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}')
        : listener(req, res),
    );
    server.listen(0, "127.0.0.1");
    return { base: await listening(server), close: () => closing(server) };
  },
};

for (const [name, mount] of Object.entries(hosts)) {
  test(`${name}: a tool call at 2026-07-28 (SDK v2) and in a legacy session (SDK v1)`, async () => {
    const server = createServer({ onerror: () => {} });
    const handler = createFetchHandler(server);
    const mounted = await mount(handler);
    const v2 = new ClientV2({ name: "v2", version: "1" }, {
      capabilities: {},
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as never);
    const v1 = new ClientV1({ name: "v1", version: "1" }, { capabilities: {} });
    try {
      const health = await fetch(new URL("/health", mounted.base));
      assert.equal(await health.json(), { ok: true }, "the app's own route");
      const url = new URL("/mcp", mounted.base);
      await v2.connect(new HttpV2(url));
      const r: any = await v2.callTool({ name: "test_simple_text" });
      assert.is(r.content[0].text, "This is a simple text response for testing.");
      const v1Transport = new HttpV1(url);
      await v1.connect(v1Transport);
      assert.ok(v1Transport.sessionId, "a legacy session");
      const r1: any = await v1.callTool({ name: "test_simple_text" });
      assert.is(r1.content[0].text, "This is a simple text response for testing.");
      await v1Transport.terminateSession();
      assert.is(handler.sessions.size, 0);
    } finally {
      await v2.close().catch(() => {});
      await v1.close().catch(() => {});
      await handler.close();
      await server.close();
      await mounted.close();
    }
  });
}

test.run();
