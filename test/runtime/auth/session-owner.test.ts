// A session belongs to the principal (client id + subject) whose token created it: another
// principal's valid token gets 404 "Session not found" on its id, exactly as an unknown id, for
// POST, GET and DELETE over Streamable HTTP and for POST /messages over legacy HTTP+SSE; a 2026-07-28
// POST carrying someone else's live Mcp-Session-Id is served statelessly, never in that session.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { randomUUID } from "node:crypto";
import { startIssuer } from "./jwt-issuer.js";
import { startGuarded, send, bearer, openSse, rpc, JSON_POST, INITIALIZE, type Answer } from "./guarded-weather.js";
import { OpenStream } from "../transports/helpers.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup() {
  const iss = await startIssuer();
  cleanup.push(() => iss.close());
  const g = await startGuarded(iss);
  cleanup.push(() => g.close());
  const as = (sub: string, client = "c1", scope = "weather:read"): string =>
    iss.token({ sub, client_id: client, aud: g.resource, scope });
  return { g, as, mcp: new URL("/mcp", g.origin) };
}

const forecast = (id: number) =>
  rpc(id, "tools/call", { name: "get_forecast", arguments: { location: { city: "Paris" }, days: 1 } });

/** The answer to an id that names no session, for comparison: another principal's session must look the same. */
function assertNotFound(a: Answer, unknown: Answer, what: string): void {
  assert.is(a.status, 404, what);
  assert.is(a.body, unknown.body, `${what}: the same answer as an unknown id`);
  assert.is(a.headers["mcp-session-id"], undefined, `${what}: no session id echoed`);
}

test("Streamable HTTP: another principal's POST, GET and DELETE on a session are 404 like an unknown id; the owner's session is untouched", async () => {
  const { g, as, mcp } = await setup();
  const alice = as("alice");
  const init = await send(mcp, "POST", { ...JSON_POST, ...bearer(alice) }, rpc(1, "initialize", INITIALIZE));
  assert.is(init.status, 200);
  const sid = String(init.headers["mcp-session-id"]);
  const inSession = (token: string) => ({
    ...JSON_POST,
    ...bearer(token),
    "mcp-session-id": sid,
    "mcp-protocol-version": "2025-11-25",
  });
  assert.is(
    (await send(mcp, "POST", inSession(alice), JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })))
      .status,
    202,
  );

  const unknown = await send(mcp, "POST", { ...inSession(alice), "mcp-session-id": randomUUID() }, forecast(2));
  assert.is(unknown.status, 404);
  // Another subject of the same client, and the same subject through another client: other principals.
  for (const [who, token] of [
    ["mallory", as("mallory")],
    ["alice via another client", as("alice", "c2")],
  ] as const) {
    assertNotFound(await send(mcp, "POST", inSession(token), forecast(3)), unknown, `${who}: POST`);
    assertNotFound(
      await send(
        mcp,
        "POST",
        inSession(token),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      ),
      unknown,
      `${who}: POST notification`,
    );
    assertNotFound(
      await send(mcp, "GET", { ...inSession(token), accept: "text/event-stream" }),
      unknown,
      `${who}: GET (the owner's stream)`,
    );
    assertNotFound(
      await send(mcp, "GET", { ...inSession(token), accept: "text/event-stream", "last-event-id": "x" }),
      unknown,
      `${who}: GET resuming`,
    );
    assertNotFound(await send(mcp, "DELETE", inSession(token)), unknown, `${who}: DELETE`);
  }
  assert.equal(g.seen, [], "no tool ran for another principal");
  assert.ok(g.streamable!.sessions.has(sid), "the session survived");

  // The owner, with a fresh token of its own (another jti, more scopes), is still at home.
  const again = as("alice", "c1", "weather:read weather:alerts");
  const call = await send(mcp, "POST", inSession(again), forecast(4));
  assert.is(call.status, 200);
  assert.is(call.headers["mcp-session-id"], sid);
  assert.equal(
    g.seen.map((a) => a?.subject),
    ["alice"],
  );
  assert.is((await send(mcp, "GET", { ...inSession(again), accept: "text/event-stream" })).status, 200);
  assert.is((await send(mcp, "DELETE", inSession(alice))).status, 200);
  assert.not.ok(g.streamable!.sessions.has(sid));
});

test("a 2026-07-28 POST carrying another principal's live Mcp-Session-Id is served statelessly, not in that session", async () => {
  const { g, as, mcp } = await setup();
  const alice = as("alice");
  const init = await send(mcp, "POST", { ...JSON_POST, ...bearer(alice) }, rpc(1, "initialize", INITIALIZE));
  const sid = String(init.headers["mcp-session-id"]);
  const modern = (token: string) => ({
    ...JSON_POST,
    ...bearer(token),
    "mcp-session-id": sid,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "server/discover",
  });
  const discover = JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "server/discover",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  const mallory = await send(mcp, "POST", modern(as("mallory")), discover);
  assert.is(mallory.status, 200);
  assert.is(mallory.headers["mcp-session-id"], undefined, "not answered from the session");
  const body = JSON.parse(mallory.body) as { result?: Record<string, unknown> };
  assert.ok(body.result !== undefined, `server/discover answered on the stateless path: ${mallory.body}`);
  // The same POST with an id that names no session is answered the same way.
  const unknown = await send(mcp, "POST", { ...modern(as("mallory")), "mcp-session-id": randomUUID() }, discover);
  assert.is(unknown.status, mallory.status);
  assert.equal(
    Object.keys((JSON.parse(unknown.body) as { result: object }).result).sort(),
    Object.keys(body.result!).sort(),
  );
  assert.ok(g.streamable!.sessions.has(sid));
});

test("legacy HTTP+SSE: another principal's POST to the owner's /messages endpoint is 404 like an unknown session id", async () => {
  const { g, as } = await setup();
  const sse = await openSse(new URL("/sse", g.origin).href, as("alice"));
  cleanup.push(() => sse.stream.close());
  const unknown = await send(
    new URL(`/messages?sessionId=${randomUUID()}`, g.origin),
    "POST",
    { "content-type": "application/json", ...bearer(as("alice")) },
    rpc(1, "initialize", INITIALIZE),
  );
  assert.is(unknown.status, 404);
  for (const token of [as("mallory"), as("alice", "c2")]) {
    const a = await sse.post(rpc(1, "initialize", INITIALIZE), token);
    assert.is(a.status, 404);
    assert.is(a.body, unknown.body);
  }
  assert.is(sse.messages().length, 0, "nothing reached the owner's session");
  assert.is((await sse.post(rpc(1, "initialize", INITIALIZE))).status, 202);
  assert.ok("result" in (await sse.reply(1)));
  assert.is(
    (await sse.post(forecast(2), as("alice", "c1", "weather:read weather:alerts"))).status,
    202,
    "the owner with another token of its own",
  );
  assert.ok("result" in (await sse.reply(2)));
  assert.equal(
    g.seen.map((a) => a?.subject),
    ["alice"],
  );
});

test("a client gone while its token is verified leaves nothing behind: no legacy session, no standalone stream, no 2026-07-28 request run", async () => {
  const iss = await startIssuer();
  cleanup.push(() => iss.close());
  const delay = { ms: 0 };
  const g = await startGuarded(iss, { verifyDelay: delay });
  cleanup.push(() => g.close());
  const alice = iss.token({ sub: "alice", client_id: "c1", aud: g.resource, scope: "weather:read" });
  const mcp = new URL("/mcp", g.origin);
  const init = await send(mcp, "POST", { ...JSON_POST, ...bearer(alice) }, rpc(1, "initialize", INITIALIZE));
  const sid = String(init.headers["mcp-session-id"]);
  const get = {
    accept: "text/event-stream",
    ...bearer(alice),
    "mcp-session-id": sid,
    "mcp-protocol-version": "2025-11-25",
  };
  const modern = {
    ...JSON_POST,
    ...bearer(alice),
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "get_forecast",
  };
  const call = JSON.stringify({
    jsonrpc: "2.0",
    id: 9,
    method: "tools/call",
    params: {
      name: "get_forecast",
      arguments: { location: { city: "Paris" }, days: 1 },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  delay.ms = 150;
  const gets = [
    [new URL("/sse", g.origin), "GET", { accept: "text/event-stream", ...bearer(alice) }, undefined],
    [mcp, "GET", get, undefined],
    [mcp, "POST", modern, call],
  ] as const;
  for (const [url, method, headers, body] of gets) {
    const gone = await OpenStream.open(url, { method, headers, body, waitHeaders: false });
    await new Promise((r) => setTimeout(r, 30));
    gone.close();
  }
  await new Promise((r) => setTimeout(r, 300));
  delay.ms = 0;
  assert.is(g.legacy.sessions.size, 0, "no legacy session for a client that left");
  assert.equal(g.seen, [], "the cancelled 2026-07-28 tools/call did not run");
  const stream = await OpenStream.open(mcp, { headers: get });
  cleanup.push(() => stream.close());
  assert.is(stream.status, 200, "the owner's standalone stream is free");
});

test.run();
