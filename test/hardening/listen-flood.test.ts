// Hostile clients flooding `subscriptions/listen` over real HTTP (127.0.0.1), behind an OAuth
// resource server: listens whose connections were dropped do not pile up, and one client (one
// session, one principal across sessions and tokens) cannot take the server's listens from others.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { createResourceServer, InvalidTokenError, type AuthInfo } from "@mcpgen/runtime/auth";
import type { McpServerOptions } from "@mcpgen/runtime";
import { waitFor } from "../runtime/transports/helpers.js";
import { server } from "../runtime/modern/fixture.js";
import { acknowledged, legacySession, modernHeaders, openListen, refusal } from "../runtime/modern/listen-http.js";

const stops: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const f of stops.splice(0).reverse()) await f();
});

/** Bearer tokens the verifier accepts: two of them for one principal (same client and subject). */
const TOKENS: Record<string, AuthInfo> = {
  "a-1": { clientId: "app", subject: "alice", scopes: [] },
  "a-2": { clientId: "app", subject: "alice", scopes: [] },
  "b-1": { clientId: "app", subject: "bob", scopes: [] },
};

async function start(listens: McpServerOptions["listens"]) {
  const s = server({ listens });
  const auth = createResourceServer({
    resource: "https://mcp.test/mcp",
    authorizationServers: ["https://as.test"],
    verifier: {
      verify: async (token) => {
        const p = TOKENS[token];
        if (p === undefined) throw new InvalidTokenError("unknown token");
        return p;
      },
    },
  });
  const http = createStreamableHttpServer({
    onsession: (t) => s.connect(t).then(() => {}),
    auth,
    keepAliveMs: 0,
    onerror: () => {},
  });
  stops.push(
    () => s.close(),
    () => http.close(),
  );
  return { s, url: await http.listen() };
}

test("listens of dropped connections do not pile up: sessions that open and drop listens leave the server's slots to others", async () => {
  const { s, url } = await start({ max: 20, perSession: 5 });
  // Ten sessions, five listens each, every connection dropped once acknowledged: no socket stays open.
  for (let i = 0; i < 10; i++) {
    const h = await legacySession(url, "Bearer b-1");
    for (let k = 0; k < 5; k++) {
      const st = await openListen(url, h, k);
      assert.ok(acknowledged(st), `session ${i} listen ${k}`);
      st.close();
    }
  }
  await waitFor(() => s.listens.size === 0, 2000, "every dropped listen to end");
  const other = await openListen(url, modernHeaders("Bearer a-1"), 1);
  assert.ok(acknowledged(other), "another client's listen still opens");
  other.close();
});

test("one principal is refused at its share across sessions, tokens and stateless POSTs (-32000, listens.perPrincipal); another principal still listens", async () => {
  const { s, url } = await start({ max: 8, perSession: 3, perPrincipal: 4 });
  const open = [];
  const a1 = await legacySession(url, "Bearer a-1");
  for (let k = 0; k < 3; k++) open.push(await openListen(url, a1, k));
  const perSession = await openListen(url, a1, 3);
  assert.equal(refusal(perSession)?.data, { limit: "listens.perSession", max: 3 });
  // A second session with another token of the same principal: one more, then the principal's share is used up.
  const a2 = await legacySession(url, "Bearer a-2");
  open.push(await openListen(url, a2, 0));
  assert.ok(open.every(acknowledged));
  const perPrincipal = await openListen(url, a2, 1);
  assert.equal(refusal(perPrincipal), {
    code: -32000,
    message: "Too many listens: this principal already holds 4 open listens",
    data: { limit: "listens.perPrincipal", max: 4 },
  });
  const stateless = await openListen(url, modernHeaders("Bearer a-1"), 9);
  assert.equal(
    [stateless.status, refusal(stateless)?.code, refusal(stateless)?.data?.limit],
    [200, -32000, "listens.perPrincipal"],
  );
  // Bob is another principal: his listens open, in a session and stateless.
  const b = await legacySession(url, "Bearer b-1");
  const bob = [await openListen(url, b, 0), await openListen(url, modernHeaders("Bearer b-1"), 1)];
  assert.ok(bob.every(acknowledged));
  assert.is(s.listens.size, 6);
  // Alice's dropped listen gives her slot back.
  open.pop()!.close();
  await waitFor(() => s.listens.size === 5, 2000, "the dropped listen to end");
  const again = await openListen(url, modernHeaders("Bearer a-2"), 10);
  assert.ok(acknowledged(again));
  for (const st of [...open, ...bob, again]) st.close();
  await waitFor(() => s.listens.size === 0, 2000, "every listen to end");
});

test.run();
