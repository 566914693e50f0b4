// Legacy sessions (2025-11-25) on a cluster of three "everything" instances sharing one Redis
// behind HAProxy routing by the Mcp-Session-Id header (no cookie; docs/scale-out.md), driven by
// the official SDK v1 client: its session, server-to-client requests and tasks work through the
// balancer, and a tools list change raised on another instance reaches its session's stream.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startCluster, type Cluster } from "./cluster.js";

let cluster!: Cluster;

test.before(async () => {
  cluster = await startCluster(3);
});
test.after(async () => {
  await cluster?.close();
});

test("SDK v1 through the balancer: session, elicitation, and a list change raised on every other instance", async () => {
  const client = new Client({ name: "cluster-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { username: "ann", email: "ann@example.com" } }));
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changes++);
  const transport = new StreamableHTTPClientTransport(cluster.url);
  await client.connect(transport);
  try {
    for (let i = 0; i < 4; i++) {
      const r: any = await client.callTool({ name: "test_simple_text", arguments: {} });
      assert.is(r.content[0].text, "This is a simple text response for testing.");
    }
    const e: any = await client.callTool({ name: "test_elicitation", arguments: { message: "who?" } });
    assert.match(e.content[0].text, /accept/);
    // Raised on each instance in turn (2026-07-28 POSTs straight to it): the session, wherever it
    // lives, hears two of them over the bus and the third from its own instance.
    for (const p of cluster.instances) {
      const res = await fetch(p.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "test_trigger_tool_change" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_trigger_tool_change", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
      });
      const body = await res.text();
      assert.is(res.status, 200, body);
    }
    for (let i = 0; i < 100 && changes < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.is(changes, 3);
  } finally {
    await client.close();
  }
});

test.run();
