// The HTTP client transports over `fetch` on Node (the `fetch` option; the default there is
// node:http): the generated typed client in both eras against the everything example, a request
// cancelled mid-flight, and closing the transport ending what is still open. test/hosts runs the
// same driver as the default on workerd, Bun and Deno.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connectHttp, ModernHttpClientTransport } from "@mcpgen/runtime/http-client";
import { createEverythingClient } from "../../../examples/everything/src/mcp/client.js";
import { startEverything, type EverythingProcess } from "../../examples/helpers/everything-process.js";

let server: EverythingProcess | undefined;
let fetched = 0;
const countingFetch: typeof fetch = (input, init) => {
  fetched++;
  return fetch(input, init);
};

test.before(async () => {
  server = await startEverything();
});

test.after(async () => {
  await server?.stop();
});

for (const era of ["modern", "legacy"] as const) {
  test(`the typed client over fetch on Node, ${era} era: lists, calls, reads`, async () => {
    const before = fetched;
    const client = await createEverythingClient(connectHttp(server!.url, { fetch: countingFetch }), {
      clientInfo: { name: "fetch-driver", version: "1.0.0" },
      era,
      timeout: 10_000,
    });
    try {
      assert.is(client.era, era);
      assert.ok((await client.listTools()).length > 10);
      const r = await client.tools.greet({ name: "fetch" });
      assert.match((r.content[0] as { text: string }).text, /fetch/);
      const read = await client.readResource("test://static-text");
      assert.ok(read.contents.length > 0);
    } finally {
      await client.close();
    }
    assert.ok(fetched - before >= 3, `every request went through the given fetch (${fetched - before})`);
  });
}

test("a listen stream (SSE) over fetch receives a change", async () => {
  const client = await createEverythingClient(connectHttp(server!.url, { fetch: countingFetch }), {
    clientInfo: { name: "fetch-driver", version: "1.0.0" },
    era: "modern",
    timeout: 10_000,
  });
  try {
    let changed!: () => void;
    const change = new Promise<void>((r) => (changed = r));
    const sub = client.listen(
      { toolsListChanged: true },
      { onnotification: (m) => m === "notifications/tools/list_changed" && changed() },
    );
    assert.equal(await sub.acknowledged, { toolsListChanged: true });
    await client.callTool("test_trigger_tool_change", {});
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      change,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no change within 10 s")), 10_000))),
    ]);
    clearTimeout(timer);
    await sub.close();
    assert.not.ok(sub.active);
  } finally {
    await client.close();
  }
});

test("a cancelled 2026-07-28 request ends its fetch; close() ends what is open", async () => {
  const t = new ModernHttpClientTransport({ url: server!.url, fetch: countingFetch });
  await t.start();
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" },
  };
  const errors: Error[] = [];
  t.onerror = (e) => errors.push(e);
  const sent = t.send({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "slow_compute", arguments: { seconds: 30 }, _meta: meta },
  } as never);
  for (let i = 0; i < 100 && t.openExchanges === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.is(t.openExchanges, 1);
  await t.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } } as never);
  await Promise.race([
    sent,
    new Promise((_, reject) => setTimeout(() => reject(new Error("the cancelled POST did not end within 5 s")), 5000)),
  ]);
  assert.is(t.openExchanges, 0);
  const open = t.send({
    jsonrpc: "2.0",
    id: 8,
    method: "tools/call",
    params: { name: "slow_compute", arguments: { seconds: 30 }, _meta: meta },
  } as never);
  await new Promise((r) => setTimeout(r, 100));
  await t.close();
  await Promise.race([
    open,
    new Promise((_, reject) => setTimeout(() => reject(new Error("close() left the POST open for 5 s")), 5000)),
  ]);
  assert.is(t.openExchanges, 0);
});

test.run();
