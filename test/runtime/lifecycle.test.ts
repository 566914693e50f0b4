import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair, LifecycleError, ProtocolVersionError, type MemoryTransport } from "@mcpgen/runtime";
import { connectClient, createServerSession } from "@mcpgen/runtime/internal";
import { bindings, byRevision, REVISIONS } from "./helpers/binding.js";
import { connectPair } from "./helpers/pair.js";
import { rawPeer, rejection, settle } from "./helpers/peer.js";

test("handshake: newest common revision, info, capabilities, instructions, initialized", async () => {
  const { client, server, ct, st } = await connectPair({
    server: { capabilities: { tools: { listChanged: true } }, instructions: "be nice" },
    client: { capabilities: { sampling: {} } },
  });
  assert.is(client.protocolVersion, "2025-11-25");
  assert.is(server.protocolVersion, "2025-11-25");
  assert.equal(client.serverCapabilities, { tools: { listChanged: true } });
  assert.equal(client.serverInfo, { name: "test-server", version: "1.0.0" });
  assert.is(client.instructions, "be nice");
  assert.equal(server.clientCapabilities, { sampling: {} });
  assert.equal(server.clientInfo, { name: "test-client", version: "1.0.0" });
  assert.is((ct as MemoryTransport).protocolVersion, "2025-11-25");
  assert.is((st as MemoryTransport).protocolVersion, "2025-11-25");
  assert.is(client.binding.revision, "2025-11-25");
  await client.close();
});

for (const rev of REVISIONS) {
  test(`negotiation down to ${rev}: client asks for it, server echoes it`, async () => {
    const { client, server } = await connectPair({ client: { bindings: [byRevision(rev)] } });
    assert.is(client.protocolVersion, rev);
    assert.is(server.protocolVersion, rev);
    assert.is(server.binding.revision, rev, "server validates with the negotiated revision");
    await client.close();
  });
  test(`negotiation down to ${rev}: server only speaks it, client accepts`, async () => {
    const { client, server } = await connectPair({ server: { bindings: [byRevision(rev)] } });
    assert.is(client.protocolVersion, rev);
    assert.is(server.protocolVersion, rev);
    await client.close();
  });
}

test("client may ask for an older revision explicitly", async () => {
  const { client } = await connectPair({ client: { protocolVersion: "2025-03-26" } });
  assert.is(client.protocolVersion, "2025-03-26");
  await client.close();
});

test("unsupported server answer: connectClient fails naming both versions and closes", async () => {
  const [ct, st] = createMemoryTransportPair();
  let serverClosed = false;
  const server = await createServerSession({
    transport: st,
    bindings: [byRevision("2025-11-25")],
    serverInfo: { name: "s", version: "1" },
  });
  server.onclose = () => (serverClosed = true);
  const e = await rejection(
    connectClient({
      transport: ct,
      bindings: [byRevision("2024-11-05"), byRevision("2025-03-26")],
      clientInfo: { name: "c", version: "1" },
    }),
  );
  assert.instance(e, ProtocolVersionError);
  assert.match(e.message, /2025-03-26/);
  assert.match(e.message, /2025-11-25/);
  assert.is(e.received, "2025-11-25");
  await settle();
  assert.ok(serverClosed, "connection closed");
});

test("the -32602 'Unsupported protocol version' error form: retry with a listed revision, or fail clearly", async () => {
  for (const [supported, expect] of [
    [["2025-03-26", "1999-01-01"], "2025-03-26"],
    [["1999-01-01"], null],
  ] as const) {
    const [ct, st] = createMemoryTransportPair();
    const peer = rawPeer(st);
    const connecting = connectClient({ transport: ct, bindings, clientInfo: { name: "c", version: "1" } });
    const init = await peer.next();
    assert.is(init.params.protocolVersion, "2025-11-25");
    await peer.send({
      jsonrpc: "2.0",
      id: init.id,
      error: { code: -32602, message: "Unsupported protocol version", data: { supported, requested: "2025-11-25" } },
    });
    if (expect) {
      const retry = await peer.next();
      assert.is(retry.method, "initialize");
      assert.is(retry.params.protocolVersion, expect);
      await peer.send({
        jsonrpc: "2.0",
        id: retry.id,
        result: { protocolVersion: expect, capabilities: {}, serverInfo: { name: "s", version: "1" } },
      });
      const client = await connecting;
      assert.is(client.protocolVersion, expect);
      assert.is((await peer.next()).method, "notifications/initialized");
      await client.close();
    } else {
      const e = await rejection(connecting);
      assert.instance(e, ProtocolVersionError);
      assert.match(e.message, /1999-01-01/);
      assert.match(e.message, /2025-11-25/);
    }
  }
});

test("an invalid InitializeResult fails the connection", async () => {
  const [ct, st] = createMemoryTransportPair();
  const peer = rawPeer(st);
  const connecting = connectClient({ transport: ct, bindings, clientInfo: { name: "c", version: "1" } });
  const init = await peer.next();
  await peer.send({
    jsonrpc: "2.0",
    id: init.id,
    result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: 3 } },
  });
  const e = await rejection(connecting);
  assert.is(e.name, "InvalidResultError");
});

test("server: requests before initialize get an error, ping is answered, second initialize refused", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "s", version: "1" },
    capabilities: { tools: {} },
    handlers: { "tools/list": () => ({ tools: [] }) },
  });
  const peer = rawPeer(ct);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const r = await peer.next();
  assert.is(r.error.code, -32600);
  assert.match(r.error.message, /before initialize/);
  await peer.send({ jsonrpc: "2.0", id: 2, method: "ping" });
  assert.equal(await peer.next(), { jsonrpc: "2.0", id: 2, result: {} });
  const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } };
  await peer.send({ jsonrpc: "2.0", id: 3, method: "initialize", params: init });
  assert.is((await peer.next()).result.protocolVersion, "2025-06-18");
  await peer.send({ jsonrpc: "2.0", id: 4, method: "initialize", params: init });
  assert.is((await peer.next()).error.code, -32600);
  await peer.send({ jsonrpc: "2.0", id: 5, method: "tools/list" });
  assert.equal((await peer.next()).result, { tools: [] }, "requests are served once initialize was answered");
});

test("server answers an unknown client revision with its newest", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServerSession({ transport: st, bindings, serverInfo: { name: "s", version: "1" } });
  const peer = rawPeer(ct);
  await peer.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2099-01-01", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  });
  assert.is((await peer.next()).result.protocolVersion, "2025-11-25");
});

test("server: before notifications/initialized only ping and logging go out", async () => {
  const [ct, st] = createMemoryTransportPair();
  const server = await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "s", version: "1" },
    capabilities: { logging: {}, tools: { listChanged: true } },
  });
  const peer = rawPeer(ct);
  await peer.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "c", version: "1" } },
  });
  await peer.next();
  assert.instance(await rejection(server.request("roots/list")), LifecycleError);
  assert.instance(await rejection(server.notify("notifications/tools/list_changed")), LifecycleError);
  await server.notify("notifications/message", { level: "info", data: "hello" });
  assert.is((await peer.next()).method, "notifications/message");
  const ping = server.ping();
  const pm = await peer.next();
  assert.is(pm.method, "ping");
  await peer.send({ jsonrpc: "2.0", id: pm.id, result: {} });
  await ping;
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await server.initialized;
  const roots = server.request("roots/list");
  const rm = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: rm.id, result: { roots: [] } });
  assert.equal(await roots, { roots: [] });
});

test("server.initialized rejects when the connection closes first", async () => {
  const [ct, st] = createMemoryTransportPair();
  const server = await createServerSession({ transport: st, bindings, serverInfo: { name: "s", version: "1" } });
  await ct.start();
  await ct.close();
  assert.is((await rejection(server.initialized)).name, "ConnectionClosedError");
});

test("requests both ways, notifications, progress over the legacy facades", async () => {
  const { client, server } = await connectPair({
    server: {
      capabilities: { tools: {}, logging: {} },
      handlers: {
        "tools/call": async (p: any, ctx) => {
          await ctx.sendProgress(0.5, { total: 1 });
          const s: any = await ctx.sendRequest("sampling/createMessage", { messages: [], maxTokens: 5 });
          await ctx.sendNotification("notifications/message", { level: "info", data: "called" });
          return { content: [{ type: "text", text: `${p.name}:${s.model}` }] };
        },
      },
    },
    client: {
      capabilities: { sampling: {} },
      handlers: {
        "sampling/createMessage": () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m1" }),
      },
    },
  });
  const logs: unknown[] = [];
  client.setNotificationHandler("notifications/message", (p) => void logs.push(p));
  const progress: number[] = [];
  const r: any = await client.request(
    "tools/call",
    { name: "t" },
    { onprogress: (p) => void progress.push(p.progress) },
  );
  assert.is(r.content[0].text, "t:m1");
  assert.equal(progress, [0.5]);
  await settle();
  assert.equal(logs, [{ level: "info", data: "called" }]);
  await client.ping();
  await server.ping();
  await client.close();
});

test("after negotiation the client validates with the negotiated revision (no elicitation in 2025-03-26)", async () => {
  const { client, server } = await connectPair({
    client: {
      bindings: [byRevision("2025-03-26"), byRevision("2025-11-25")],
      protocolVersion: "2025-03-26",
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": () => ({ action: "accept" }) },
    },
  });
  assert.is(client.protocolVersion, "2025-03-26");
  const e = await rejection(
    server.request("elicitation/create", { message: "hi", requestedSchema: { type: "object", properties: {} } }),
  );
  assert.is(e.name, "CapabilityError");
  assert.match(e.message, /not part of protocol revision 2025-03-26/);
  await client.close();
});

test("closing the client closes the server side; both reject further calls", async () => {
  const { client, server } = await connectPair();
  let closed = 0;
  server.onclose = () => closed++;
  client.onclose = () => closed++;
  await client.close();
  await settle();
  assert.is(closed, 2);
  assert.ok(server.closed && client.closed);
  assert.is((await rejection(server.ping())).name, "ConnectionClosedError");
});

test("stateless server: serves at once with the header's revision (2025-03-26 without one), answers initialize any time", async () => {
  for (const [header, expect] of [
    [undefined, "2025-03-26"],
    ["2025-06-18", "2025-06-18"],
  ] as const) {
    const [ct, st] = createMemoryTransportPair();
    const server = await createServerSession({
      transport: st,
      bindings,
      serverInfo: { name: "s", version: "1" },
      capabilities: { tools: {} },
      handlers: { "tools/list": () => ({ tools: [] }) },
      stateless: { protocolVersion: header },
    });
    await server.initialized;
    assert.is(server.protocolVersion, expect);
    assert.is((st as MemoryTransport).protocolVersion, expect);
    const peer = rawPeer(ct);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal((await peer.next()).result, { tools: [] });
    const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } };
    await peer.send({ jsonrpc: "2.0", id: 2, method: "initialize", params: init });
    assert.is((await peer.next()).result.protocolVersion, "2025-11-25");
    await peer.send({ jsonrpc: "2.0", id: 3, method: "initialize", params: init });
    assert.ok((await peer.next()).result);
    assert.instance(await rejection(server.request("roots/list")), Error);
  }
});

test.run();
