// Legacy sessions (2025-11-25) on a cluster of three "everything" instances sharing one Redis
// behind HAProxy, round-robin with no stickiness, driven by the official SDK v1 client: every
// request of its session (its GET stream, the answer to a server-to-client request) may land on
// any instance and is forwarded to the session's; a tools list change raised on any instance
// reaches its stream; DELETE ends the session cluster-wide; when the session's instance dies,
// another takes the session over.
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
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: "accept",
    content: { username: "ann", email: "ann@example.com" },
  }));
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
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "test_trigger_tool_change",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "test_trigger_tool_change",
            arguments: {},
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      const body = await res.text();
      assert.is(res.status, 200, body);
    }
    for (let i = 0; i < 100 && changes < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.is(changes, 3);
    const sid = transport.sessionId!;
    await transport.terminateSession();
    // Whichever instance a request reaches now, the session is gone.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(cluster.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sid,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
      });
      await res.text();
      assert.is(res.status, 404);
    }
  } finally {
    await client.close();
  }
});

test("a session whose instance died is taken over by the instance its next request reaches: the same client goes on in the same session", async () => {
  const client = new Client({ name: "cluster-v1-kill", version: "1.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(cluster.url);
  await client.connect(transport);
  const sid = transport.sessionId!;
  await client.callTool({ name: "test_simple_text", arguments: {} });
  // Find and kill the instance that holds it: the one that knows the session id without forwarding.
  const holders = async () => {
    const found: number[] = [];
    for (const [i, p] of cluster.instances.entries()) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
      const res = await fetch(p.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sid,
          "mcp-protocol-version": "2025-11-25",
          "mcpgen-forwarded": "1",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
      });
      await res.text();
      if (res.status === 200) found.push(i);
    }
    return found;
  };
  const [victim] = await holders();
  assert.ok(victim !== undefined, "one instance holds the session");
  cluster.instances[victim]!.child.kill("SIGKILL");
  await new Promise((r) => cluster.instances[victim]!.child.once("exit", r));
  // Its announcement lapses within 3 s; until then a forward to it fails fast (503) rather than hang.
  let r: any;
  for (let i = 0; i < 50 && r === undefined; i++) {
    r = await client.callTool({ name: "test_simple_text", arguments: {} }).catch((e: Error) => {
      assert.match(e.message, /503|Service unavailable/, e.message);
      return new Promise((res) => setTimeout(res, 200)).then(() => undefined);
    });
  }
  assert.is(r.content[0].text, "This is a simple text response for testing.");
  assert.is(transport.sessionId, sid, "the same session");
  assert.is((await holders()).length, 1, "one survivor holds it now");
  await client.close().catch(() => {});
});

test.run();
