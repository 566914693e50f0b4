// What the fetch handler reads off a Request's URL (fetch-exchange.ts): a Request made in code
// (no Host header) is checked against its URL's host, and a loopback Origin must name the port of
// the URL the request arrived on (explicit, or its scheme's default).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMcpServer } from "@mcpgen/runtime/abi/v8";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { definition, handlers, META } from "../modern/fixture.js";
import { modern } from "../helpers/binding.js";

const server = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: [modern], onerror: () => {} });
const handler = createFetchHandler(server, { sessions: false, onerror: () => {} });

test.after(async () => {
  await handler.close();
  await server.close();
});

/** The status of a tools/list POSTed to `url` with `headers` (to `via`, default the handler above). */
async function statusOf(url: string, headers: Record<string, string> = {}, via = handler): Promise<number> {
  const r = await via(
    new Request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }),
    }),
  );
  await r.text();
  return r.status;
}

test("a Request without a Host header is checked against its URL's host", async () => {
  assert.is(new Request("http://evil.example/mcp").headers.get("host"), null, "a Request made in code has no Host");
  assert.is(await statusOf("http://evil.example/mcp"), 421);
  assert.is(await statusOf("http://localhost:8123/mcp"), 200);
  assert.is(await statusOf("http://[::1]:9000/mcp"), 200);
  assert.is(await statusOf("https://127.0.0.1/mcp"), 200);
});

test("by default the checks follow the address each request arrived on, a Host allowed before included", async () => {
  let address = "127.0.0.1";
  const h = createFetchHandler(server, { sessions: false, onerror: () => {}, localAddress: () => address });
  const evil = { origin: "http://evil.example" };
  try {
    assert.is(await statusOf("http://localhost:8123/mcp", evil, h), 403, "loopback: checked");
    address = "10.0.0.5";
    assert.is(await statusOf("http://localhost:8123/mcp", evil, h), 200, "the Host allowed before, not on loopback");
    assert.is(await statusOf("http://evil.example/mcp", evil, h), 200, "any Host, not on loopback");
    address = "::1";
    assert.is(await statusOf("http://evil.example/mcp", {}, h), 421);
    assert.is(await statusOf("http://localhost:8123/mcp", evil, h), 403);
    assert.is(await statusOf("http://localhost:8123/mcp", {}, h), 200);
  } finally {
    await h.close();
  }
});

test("allowedHosts or allowedOrigins set, even to null from an untyped config, keeps the checks on off loopback", async () => {
  for (const list of [{ allowedHosts: null }, { allowedOrigins: null }, { allowedHosts: ["localhost"] }]) {
    const h = createFetchHandler(server, {
      sessions: false,
      onerror: () => {},
      localAddress: () => "10.0.0.5",
      ...(list as { allowedHosts?: string[] }),
    });
    try {
      assert.is(await statusOf("http://evil.example/mcp", {}, h), 421, JSON.stringify(list));
    } finally {
      await h.close();
    }
  }
});

test("a loopback Origin must name the port of the request's URL", async () => {
  assert.is(await statusOf("http://localhost:8123/mcp", { origin: "http://localhost:8123" }), 200);
  assert.is(await statusOf("http://localhost:8123/mcp", { origin: "http://127.0.0.1:8123" }), 200);
  assert.is(await statusOf("http://localhost:8123/mcp", { origin: "http://localhost:8124" }), 403);
  assert.is(await statusOf("http://localhost:8123/mcp", { origin: "http://localhost" }), 403);
  // No port in the URL: its scheme's default, on both sides.
  assert.is(await statusOf("http://localhost/mcp", { origin: "http://localhost" }), 200);
  assert.is(await statusOf("http://localhost/mcp", { origin: "http://localhost:80" }), 200);
  assert.is(await statusOf("http://localhost/mcp", { origin: "https://localhost" }), 403);
  assert.is(await statusOf("https://localhost/mcp", { origin: "https://localhost" }), 200);
  assert.is(await statusOf("https://localhost/mcp", { origin: "https://localhost:443" }), 200);
  assert.is(await statusOf("https://localhost:8443/mcp", { origin: "https://localhost" }), 403);
  assert.is(await statusOf("http://[::1]:9000/mcp", { origin: "http://[::1]:9000" }), 200);
});

test("a Host header is matched whole (host:port) or by its host alone, lowercased; a malformed one is 400", async () => {
  const listed = createFetchHandler(server, { sessions: false, allowedHosts: ["mcp.example:8443", "api.example"] });
  const status = async (host: string) => {
    const r = await listed(
      new Request("http://mcp.example/mcp", {
        method: "POST",
        headers: { host, "content-type": "application/json", "mcp-protocol-version": "2026-07-28" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
      }),
    );
    await r.text();
    return r.status;
  };
  try {
    assert.is(await status("mcp.example:8443"), 202);
    assert.is(await status("MCP.Example:8443"), 202);
    assert.is(await status("mcp.example"), 421, "only mcp.example:8443 is listed");
    assert.is(await status("mcp.example:8444"), 421);
    assert.is(await status("api.example"), 202);
    assert.is(await status("api.example:1234"), 202, "a bare name matches any port");
    assert.is(await status("api.example:80@evil.example"), 400);
    assert.is(await status("evil.example"), 421);
  } finally {
    await listed.close();
  }
});

test.run();
