// McpClient.listen() on a legacy-era connection: the same application code as against a
// 2026-07-28 server. Our legacy server lifecycle on the in-memory transport pushes the changes.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connectMcpClient, createMemoryTransportPair, createServerSession } from "@mcpgen/runtime";
import { bindings, dual } from "../helpers/binding.js";

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
  const client = await connectMcpClient(ct, { bindings: dual, clientInfo: { name: "c", version: "1" }, timeout: 2000, eraCache: false });
  assert.is(client.era, "legacy");
  const onSeen: string[] = [];
  client.on("notifications/tools/list_changed", () => void onSeen.push("on"));
  const seen: string[] = [];
  const sub = client.listen(
    { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] },
    { onnotification: (m, p) => seen.push(p?.uri ? `${m} ${p.uri}` : m) },
  );
  assert.equal(await sub.acknowledged, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] }, "prompts are not promised by this server");
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

test.run();
