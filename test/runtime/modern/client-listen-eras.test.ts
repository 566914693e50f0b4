// McpClient.listen() / subscribeResource() across eras: the same application code against a
// legacy server (our legacy lifecycle on the in-memory transport) and a scripted 2026-07-28 one.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CapabilityError, connectMcpClient, createMemoryTransportPair } from "@mcpgen/runtime";
import { MetaKey, createServerSession } from "@mcpgen/runtime/internal";
import { bindings, dual, modern } from "../helpers/binding.js";
import { scriptedPeer } from "./peer.js";

test("legacy listen: acknowledged from capabilities, resources/subscribe per URI, changes delivered, close unsubscribes", async () => {
  const [ct, st] = createMemoryTransportPair();
  const server = await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "legacy", version: "1" },
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    handlers: {
      "tools/list": () => ({ tools: [] }),
      "resources/subscribe": () => ({}),
      "resources/unsubscribe": () => ({}),
    },
  });
  const client = await connectMcpClient(ct, {
    bindings: dual,
    clientInfo: { name: "c", version: "1" },
    timeout: 2000,
    eraCache: false,
  });
  assert.is(client.era, "legacy");
  const onSeen: string[] = [];
  client.on("notifications/tools/list_changed", () => void onSeen.push("on"));
  const seen: string[] = [];
  const sub = client.listen(
    { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] },
    { onnotification: (m, p) => seen.push(p?.uri ? `${m} ${p.uri}` : m) },
  );
  assert.equal(
    await sub.acknowledged,
    { toolsListChanged: true, resourceSubscriptions: ["file:///a"] },
    "prompts are not promised by this server",
  );
  assert.ok(server.subscriptions.has("file:///a"));
  await server.notify("notifications/tools/list_changed");
  await server.notify("notifications/resources/updated", { uri: "file:///a" });
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(seen, ["notifications/tools/list_changed", "notifications/resources/updated file:///a"]);
  assert.equal(onSeen, ["on"], "on() handlers still run");
  await sub.close();
  assert.not.ok(server.subscriptions.has("file:///a"), "closing unsubscribed");
  await server.notify("notifications/tools/list_changed");
  await new Promise((r) => setTimeout(r, 5));
  assert.is(seen.length, 2);
  const open = client.listen({ toolsListChanged: true });
  await open.acknowledged;
  await client.close();
  await open.ended;
});

test("2026-07-28 subscribeResource: a listen stream per URI feeding on(); unsubscribe cancels it; a refused URI is an error", async () => {
  const peer = await scriptedPeer((m, p) => {
    if (m.method !== "subscriptions/listen") return undefined;
    const uris = (m.params!.notifications.resourceSubscriptions as string[]).filter((u) => u !== "file:///secret");
    p.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { resourceSubscriptions: uris }, _meta: { [MetaKey.subscriptionId]: m.id! } },
    });
    return null;
  });
  const client = await connectMcpClient(peer.transport, {
    bindings: [modern],
    clientInfo: { name: "c", version: "1" },
    timeout: 2000,
  });
  assert.is(client.era, "modern");
  const got: string[] = [];
  client.on("notifications/resources/updated", (p: { uri: string }) => void got.push(p.uri));
  await client.subscribeResource("file:///a");
  await client.subscribeResource("file:///a");
  const listens = peer.requests("subscriptions/listen");
  assert.is(listens.length, 1, "subscribing twice opens one stream");
  peer.send({
    jsonrpc: "2.0",
    method: "notifications/resources/updated",
    params: { uri: "file:///a", _meta: { [MetaKey.subscriptionId]: listens[0]!.id! } },
  });
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(got, ["file:///a"]);
  await client.unsubscribeResource("file:///a");
  assert.ok(peer.seen.some((m) => m.method === "notifications/cancelled" && m.params!.requestId === listens[0]!.id));
  assert.instance(await client.subscribeResource("file:///secret").catch((e: unknown) => e), CapabilityError);
  await client.close();
});

test.run();
