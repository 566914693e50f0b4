// The resource-server guard on the fetch handler, as on node:http: the protected-resource metadata
// is the one public path, a request without an acceptable token gets 401 with the challenge, a tool
// needing a scope the token lacks 403, a legacy session belongs to the principal that initialized
// it (another principal's token on its id is 404, as an unknown id), and handlers see ctx.auth.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createResourceServer, InvalidTokenError, type AuthInfo } from "@mcpgen/runtime/auth/server";
import { handlers } from "../../../examples/weather/src/handlers.js";
import { createWeatherExampleServer } from "../../../examples/weather/src/mcp/server.js";
import { definition } from "../../../examples/weather/src/mcp/definition.js";

const principals: Record<string, AuthInfo> = {
  alice: { clientId: "c1", subject: "alice", scopes: ["weather:read"] },
  mallory: { clientId: "c1", subject: "mallory", scopes: ["weather:read"] },
};
const seen: (AuthInfo | undefined)[] = [];
const server = createWeatherExampleServer({
  ...handlers,
  tools: {
    ...handlers.tools,
    getForecast: (input, ctx) => (seen.push(ctx.auth), handlers.tools.getForecast(input, ctx)),
  },
});
const auth = createResourceServer({
  resource: "http://127.0.0.1:8787/mcp",
  authorizationServers: ["https://as.example"],
  requiredScopes: ["weather:read"],
  toolScopes: definition.toolScopes,
  verifier: {
    async verify(token) {
      const who = principals[token];
      if (who === undefined) throw new InvalidTokenError("unknown token");
      return who;
    },
  },
});
const mcp = createFetchHandler(server, { auth });
const BASE = "http://127.0.0.1:8787";

function post(body: object, headers: Record<string, string> = {}): Promise<Response> {
  return mcp(
    new Request(`${BASE}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    }),
  );
}
const bearer = (who: string) => ({ authorization: `Bearer ${who}` });
const forecast = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "get_forecast", arguments: { location: { city: "Paris" }, days: 1 } },
});

test.after(async () => {
  await mcp.close();
  await server.close();
});

test("metadata is public; no token is 401 with the challenge; a missing tool scope is 403", async () => {
  const meta = await mcp(new Request(`${BASE}/.well-known/oauth-protected-resource/mcp`));
  assert.is(meta.status, 200);
  assert.is(((await meta.json()) as { resource: string }).resource, "http://127.0.0.1:8787/mcp");
  const none = await post(forecast(1), { "mcp-protocol-version": "2025-11-25" });
  assert.is(none.status, 401);
  assert.match(none.headers.get("www-authenticate") ?? "", /Bearer .*resource_metadata=/);
  await none.text();
  const alert = await post(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "set_alert", arguments: {} } },
    { ...bearer("alice"), "mcp-protocol-version": "2025-11-25" },
  );
  assert.is(alert.status, 403);
  assert.match(alert.headers.get("www-authenticate") ?? "", /insufficient_scope/);
  await alert.text();
});

test("a legacy session is its initializer's: another principal's token on its id is 404 like an unknown id; handlers see ctx.auth", async () => {
  const init = await post(
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    bearer("alice"),
  );
  assert.is(init.status, 200);
  await init.text();
  const sid = init.headers.get("mcp-session-id")!;
  const inSession = (who: string) => ({ ...bearer(who), "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" });
  assert.is((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession("alice"))).status, 202);
  const unknown = await post(forecast(2), { ...inSession("alice"), "mcp-session-id": "no-such-session" });
  const other = await post(forecast(3), inSession("mallory"));
  assert.equal([other.status, await other.text()], [unknown.status, await unknown.text()]);
  assert.is(other.status, 404);
  assert.equal(seen, [], "no tool ran for another principal");
  const mine = await post(forecast(4), inSession("alice"));
  assert.is(mine.status, 200);
  await mine.text();
  assert.equal(
    seen.map((a) => a?.subject),
    ["alice"],
  );
  assert.ok(mcp.sessions.has(sid));
});

test.run();
