import { test } from "uvu";
import * as assert from "uvu/assert";
import { CapabilityError, createMemoryTransportPair } from "@mcpgen/runtime";
import { connectClient, createServerSession, hasCapability } from "@mcpgen/runtime/internal";
import { bindings, byRevision } from "./helpers/binding.js";
import { connectPair } from "./helpers/pair.js";
import { rawPeer, rejection, settle } from "./helpers/peer.js";

const samplingParams = { messages: [], maxTokens: 5 };
const sampleResult = () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" });
const elicitResult = () => ({ action: "accept" });

test("hasCapability walks dotted paths; false and null mean absent", () => {
  assert.ok(hasCapability({ resources: { subscribe: true } }, "resources.subscribe"));
  assert.ok(hasCapability({ tools: {} }, "tools"));
  assert.not.ok(hasCapability({ resources: { subscribe: false } }, "resources.subscribe"));
  assert.not.ok(hasCapability({ resources: {} }, "resources.subscribe"));
  assert.not.ok(hasCapability({ tools: null }, "tools"));
  assert.not.ok(hasCapability(undefined, "tools"));
});

test("client calling tools/call on a server without tools: CapabilityError, nothing sent", async () => {
  const { client, ct } = await connectPair({ server: { capabilities: { prompts: {} } } });
  const sent: unknown[] = [];
  const send = ct.send.bind(ct);
  ct.send = (message, options) => (sent.push(message), send(message, options));
  const e = await rejection(client.request("tools/call", { name: "x" }));
  assert.equal(sent, []);
  assert.instance(e, CapabilityError);
  assert.is(e.capability, "tools");
  assert.match(e.message, /server does not declare the 'tools' capability/);
  await client.close();
});

test("a server without tools answers a raw tools/call with -32601", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServerSession({ transport: st, bindings, serverInfo: { name: "s", version: "1" } });
  const peer = rawPeer(ct);
  await peer.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  });
  await peer.next();
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
  const r = await peer.next();
  assert.is(r.error.code, -32601);
  assert.match(r.error.message, /'tools'/);
});

test("server sending sampling/createMessage to a client without sampling: CapabilityError", async () => {
  const { client, server } = await connectPair();
  const e = await rejection(server.request("sampling/createMessage", samplingParams));
  assert.instance(e, CapabilityError);
  assert.is(e.capability, "sampling");
  await client.close();
});

test("sampling tools/toolChoice need sampling.tools", async () => {
  const plain = await connectPair({
    client: { capabilities: { sampling: {} }, handlers: { "sampling/createMessage": sampleResult } },
  });
  await plain.server.request("sampling/createMessage", samplingParams);
  for (const extra of [{ tools: [] }, { toolChoice: { mode: "auto" } }]) {
    const e = await rejection(plain.server.request("sampling/createMessage", { ...samplingParams, ...extra }));
    assert.instance(e, CapabilityError);
    assert.is(e.capability, "sampling.tools");
  }
  await plain.client.close();
  const withTools = await connectPair({
    client: { capabilities: { sampling: { tools: {} } }, handlers: { "sampling/createMessage": sampleResult } },
  });
  await withTools.server.request("sampling/createMessage", {
    ...samplingParams,
    tools: [],
    toolChoice: { mode: "auto" },
  });
  await withTools.client.close();
});

test("elicitation modes: {} is form only; form and url declared separately (2025-11-25)", async () => {
  const cases: [Record<string, unknown>, boolean, boolean][] = [
    [{}, true, false],
    [{ form: {} }, true, false],
    [{ url: {} }, false, true],
    [{ form: {}, url: {} }, true, true],
  ];
  const form = { message: "name?", requestedSchema: { type: "object", properties: {} } };
  const url = { mode: "url", message: "go", url: "https://example.com", elicitationId: "e1" };
  for (const [elicitation, formOk, urlOk] of cases) {
    const { client, server } = await connectPair({
      client: { capabilities: { elicitation }, handlers: { "elicitation/create": elicitResult } },
    });
    for (const [params, ok] of [
      [form, formOk],
      [url, urlOk],
    ] as const) {
      const p = server.request("elicitation/create", params);
      if (ok) assert.equal(await p, { action: "accept" });
      else {
        const e = await rejection(p);
        assert.instance(e, CapabilityError, JSON.stringify(elicitation));
        assert.is(e.capability, `elicitation.${params === url ? "url" : "form"}`);
      }
    }
    if (urlOk) await server.notify("notifications/elicitation/complete", { elicitationId: "e1" });
    else
      assert.instance(
        await rejection(server.notify("notifications/elicitation/complete", { elicitationId: "e1" })),
        CapabilityError,
      );
    await client.close();
  }
  const none = await connectPair();
  assert.instance(await rejection(none.server.request("elicitation/create", form)), CapabilityError);
  await none.client.close();
});

test("client side refuses what it did not declare: -32601 for sampling/roots, -32602 for sampling tools and elicitation modes", async () => {
  const [ct, st] = createMemoryTransportPair();
  const peer = rawPeer(st);
  const connecting = connectClient({
    transport: ct,
    bindings,
    clientInfo: { name: "c", version: "1" },
    capabilities: { elicitation: {}, sampling: {} },
    handlers: { "elicitation/create": elicitResult, "sampling/createMessage": sampleResult },
  });
  const init = await peer.next();
  await peer.send({
    jsonrpc: "2.0",
    id: init.id,
    result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
  });
  const client = await connecting;
  await peer.next(); // initialized
  const ask = async (id: number, method: string, params?: unknown) => {
    await peer.send({ jsonrpc: "2.0", id, method, params });
    return peer.next();
  };
  assert.is((await ask(1, "roots/list")).error.code, -32601);
  assert.is((await ask(2, "sampling/createMessage", { ...samplingParams, tools: [] })).error.code, -32602);
  assert.is(
    (await ask(3, "elicitation/create", { mode: "url", message: "m", url: "https://x", elicitationId: "1" })).error
      .code,
    -32602,
  );
  assert.equal(
    (await ask(4, "elicitation/create", { message: "m", requestedSchema: { type: "object", properties: {} } })).result,
    { action: "accept" },
  );
  assert.is((await ask(5, "sampling/createMessage", samplingParams)).result.model, "m");
  await client.close();
});

test("notifications/resources/updated only for subscribed URIs, tracked through subscribe/unsubscribe", async () => {
  const { client, server, errors } = await connectPair({
    server: { capabilities: { resources: { subscribe: true } } },
  });
  const updates: unknown[] = [];
  client.setNotificationHandler("notifications/resources/updated", (p) => void updates.push(p));
  const e = await rejection(server.notify("notifications/resources/updated", { uri: "file:///a" }));
  assert.instance(e, CapabilityError);
  assert.match(e.message, /not subscribed/);
  await client.request("resources/subscribe", { uri: "file:///a" });
  assert.ok(server.subscriptions.has("file:///a"));
  await server.notify("notifications/resources/updated", { uri: "file:///a" });
  await settle();
  assert.equal(updates, [{ uri: "file:///a" }]);
  await client.request("resources/unsubscribe", { uri: "file:///a" });
  assert.instance(
    await rejection(server.notify("notifications/resources/updated", { uri: "file:///a" })),
    CapabilityError,
  );
  assert.is(errors.length, 0);
  await client.close();
});

test("a client drops resources/updated for a URI it never subscribed to", async () => {
  const [ct, st] = createMemoryTransportPair();
  const peer = rawPeer(st);
  const errors: Error[] = [];
  const connecting = connectClient({
    transport: ct,
    bindings,
    clientInfo: { name: "c", version: "1" },
    onerror: (e) => errors.push(e),
  });
  const init = await peer.next();
  await peer.send({
    jsonrpc: "2.0",
    id: init.id,
    result: {
      protocolVersion: "2025-11-25",
      capabilities: { resources: { subscribe: true } },
      serverInfo: { name: "s", version: "1" },
    },
  });
  const client = await connecting;
  const updates: unknown[] = [];
  client.setNotificationHandler("notifications/resources/updated", (p) => void updates.push(p));
  await peer.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///z" } });
  await settle();
  assert.equal(updates, []);
  assert.is(errors.length, 1);
  assert.instance(errors[0], CapabilityError);
});

test("a user handler for resources/subscribe runs and the subscription is still tracked", async () => {
  const seen: string[] = [];
  const { client, server } = await connectPair({
    server: {
      capabilities: { resources: { subscribe: true } },
      handlers: { "resources/subscribe": (p: any) => (seen.push(p.uri), {}) },
    },
  });
  await client.request("resources/subscribe", { uri: "file:///u" });
  assert.equal(seen, ["file:///u"]);
  assert.ok(server.subscriptions.has("file:///u"));
  await client.close();
});

test("own-capability notifications: list_changed needs listChanged, logging needs logging", async () => {
  const { client, server } = await connectPair({ server: { capabilities: { tools: {} } } });
  assert.instance(await rejection(server.notify("notifications/tools/list_changed")), CapabilityError);
  assert.instance(
    await rejection(server.notify("notifications/message", { level: "info", data: "x" })),
    CapabilityError,
  );
  assert.instance(await rejection(client.notify("notifications/roots/list_changed")), CapabilityError);
  await client.close();
  const ok = await connectPair({
    server: { capabilities: { tools: { listChanged: true }, logging: {} } },
    client: { capabilities: { roots: { listChanged: true } } },
  });
  await ok.server.notify("notifications/tools/list_changed");
  await ok.server.notify("notifications/message", { level: "info", data: "x" });
  await ok.client.notify("notifications/roots/list_changed");
  await ok.client.close();
});

test("wrong direction and wrong kind are refused locally", async () => {
  const { client, server } = await connectPair({
    server: { capabilities: { tools: {} } },
    client: { capabilities: { sampling: {} } },
  });
  assert.instance(await rejection(client.request("sampling/createMessage", samplingParams)), CapabilityError);
  assert.instance(await rejection(server.request("tools/list")), CapabilityError);
  assert.instance(await rejection(client.request("notifications/initialized")), CapabilityError);
  assert.instance(await rejection(client.notify("tools/list")), CapabilityError);
  assert.instance(await rejection(client.request("initialize", {})), Error);
  await client.close();
});

test("handlers inconsistent with declared capabilities are refused at registration", async () => {
  const [, st] = createMemoryTransportPair();
  const tryCreate = (capabilities: Record<string, unknown>, handlers: Record<string, () => object>) =>
    createServerSession({ transport: st, bindings, serverInfo: { name: "s", version: "1" }, capabilities, handlers });
  assert.instance(await rejection(tryCreate({}, { "tools/call": () => ({}) })), CapabilityError);
  assert.instance(
    await rejection(tryCreate({ resources: {} }, { "resources/subscribe": () => ({}) })),
    CapabilityError,
  );
  assert.instance(await rejection(tryCreate({}, { "no/such": () => ({}) })), CapabilityError);
  assert.instance(
    await rejection(tryCreate({ sampling: {} }, { "sampling/createMessage": () => ({}) })),
    CapabilityError,
    "servers never handle sampling",
  );
  const { client, server } = await connectPair({ server: { capabilities: { tools: {} } } });
  assert.throws(
    () => server.setRequestHandler("prompts/list", () => ({ prompts: [] })),
    (e: unknown) => e instanceof CapabilityError,
  );
  assert.throws(
    () => client.setRequestHandler("sampling/createMessage", sampleResult),
    (e: unknown) => e instanceof CapabilityError,
  );
  assert.throws(() => client.setRequestHandler("roots/list", () => ({ roots: [] })), /'roots'/);
  assert.throws(() => server.setRequestHandler("initialize", () => ({})), /answered by the lifecycle/);
  server.setRequestHandler("tools/list", () => ({ tools: [] }));
  assert.equal(await client.request("tools/list"), { tools: [] });
  await client.close();
});

test("completion/complete is ungated in 2024-11-05 and needs completions later", async () => {
  const old = await connectPair({ client: { bindings: [byRevision("2024-11-05")] }, server: { handlers: {} } });
  const p = old.client.request("completion/complete", { ref: {}, argument: {} });
  const e = await rejection(p);
  assert.is(e.name, "McpError", "sent (no local capability error); the server has no handler");
  assert.is(e.code, -32601);
  await old.client.close();
  const cur = await connectPair();
  assert.instance(
    await rejection(cur.client.request("completion/complete", { ref: {}, argument: {} })),
    CapabilityError,
  );
  await cur.client.close();
});

test.run();
