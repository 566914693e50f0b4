// One guard for every path a handler answers: each route (every method on the MCP endpoint, the
// legacy HTTP+SSE paths, unknown paths) refuses a request without a token, with a bad token and
// with a token lacking the required scope, for the Streamable HTTP handler with legacy SSE mounted
// beside it and for a legacy SSE handler on its own; only the protected-resource metadata is
// public. Then the legacy transport end to end: per-tool scopes at POST /messages, and ctx.auth.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { startIssuer, type LocalIssuer } from "./jwt-issuer.js";
import {
  startGuarded,
  send,
  bearer,
  openSse,
  rpc,
  JSON_POST,
  INITIALIZE,
  type Guarded,
  type GuardedOptions,
} from "./guarded-weather.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(
  o: GuardedOptions = {},
): Promise<{ iss: LocalIssuer; g: Guarded; as: (sub: string, scope: string, client?: string) => string }> {
  const iss = await startIssuer();
  cleanup.push(() => iss.close());
  const g = await startGuarded(iss, o);
  cleanup.push(() => g.close());
  return { iss, g, as: (sub, scope, client = "c1") => iss.token({ sub, client_id: client, aud: g.resource, scope }) };
}

interface Route {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const SSE = { accept: "text/event-stream" };
const MODERN = { ...JSON_POST, "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };
const discover = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const forecast = rpc(2, "tools/call", { name: "get_forecast", arguments: { location: { city: "Paris" }, days: 1 } });

/** Routes that are not the MCP endpoint's own: the legacy paths and paths nobody serves. */
function legacyAndUnknown(): Route[] {
  const sid = randomUUID();
  return [
    { method: "GET", path: "/sse", headers: SSE },
    { method: "POST", path: "/sse", headers: JSON_POST, body: forecast },
    { method: "DELETE", path: "/sse" },
    {
      method: "POST",
      path: `/messages?sessionId=${sid}`,
      headers: { "content-type": "application/json" },
      body: forecast,
    },
    { method: "POST", path: "/messages", headers: { "content-type": "application/json" }, body: forecast },
    { method: "GET", path: `/messages?sessionId=${sid}`, headers: SSE },
    { method: "GET", path: "/" },
    { method: "GET", path: "/nowhere" },
    { method: "POST", path: "/nowhere", headers: JSON_POST, body: forecast },
    { method: "GET", path: "/.well-known/oauth-protected-resource" },
    { method: "GET", path: "/.well-known/oauth-authorization-server" },
  ];
}

function endpointRoutes(): Route[] {
  const sid = randomUUID();
  return [
    { method: "POST", path: "/mcp", headers: JSON_POST, body: rpc(1, "initialize", INITIALIZE) },
    { method: "POST", path: "/mcp", headers: { ...JSON_POST, "mcp-session-id": sid }, body: forecast },
    { method: "POST", path: "/mcp", headers: MODERN, body: discover },
    { method: "GET", path: "/mcp", headers: { ...SSE, "mcp-session-id": sid } },
    { method: "GET", path: "/mcp", headers: SSE },
    { method: "DELETE", path: "/mcp", headers: { "mcp-session-id": sid } },
    { method: "PUT", path: "/mcp", headers: JSON_POST, body: forecast },
    { method: "PATCH", path: "/mcp" },
    { method: "OPTIONS", path: "/mcp" },
    { method: "HEAD", path: "/mcp" },
  ];
}

/** Every route refuses each bad credential the way RFC 6750 says, and a good one gets past the guard. */
async function assertGuarded(
  g: Guarded,
  routes: Route[],
  creds: { bad: string; narrow: string; good: string },
): Promise<void> {
  const metadata = new RegExp(`resource_metadata="${g.metadataUrl.replace(/[.?/]/g, "\\$&")}"`);
  for (const r of routes) {
    const what = `${r.method} ${r.path}`;
    const url = new URL(r.path, g.origin);
    const none = await send(url, r.method, r.headers, r.body);
    assert.is(none.status, 401, `${what} without a token`);
    assert.match(String(none.headers["www-authenticate"]), metadata, `${what}: challenge`);
    assert.not.match(String(none.headers["www-authenticate"]), /error=/, `${what}: no error code without credentials`);
    const bad = await send(url, r.method, { ...r.headers, ...bearer(creds.bad) }, r.body);
    assert.is(bad.status, 401, `${what} with a bad token`);
    assert.match(String(bad.headers["www-authenticate"]), /error="invalid_token"/, `${what}: invalid_token`);
    const narrow = await send(url, r.method, { ...r.headers, ...bearer(creds.narrow) }, r.body);
    assert.is(narrow.status, 403, `${what} with a token lacking the required scope`);
    assert.match(
      String(narrow.headers["www-authenticate"]),
      /error="insufficient_scope", scope="weather:read/,
      `${what}: insufficient_scope`,
    );
    const good = await send(url, r.method, { ...r.headers, ...bearer(creds.good) }, r.body);
    assert.ok(good.status !== 401 && good.status !== 403, `${what} with a good token got ${good.status}`);
  }
  // The metadata is public: served to anyone, whatever credentials come with it.
  for (const auth of [undefined, creds.bad, creds.narrow]) {
    const m = await send(g.metadataUrl, "GET", bearer(auth));
    assert.is(m.status, 200, `metadata with ${auth === undefined ? "no token" : "a token"}`);
    assert.is((JSON.parse(m.body) as { resource: string }).resource, g.resource);
  }
}

test("Streamable HTTP handler with legacy SSE mounted (the legacy handler has no guard of its own): every route is guarded, the metadata public", async () => {
  const { iss, g, as } = await setup();
  await assertGuarded(g, [...legacyAndUnknown(), ...endpointRoutes()], {
    bad: iss.forged({ sub: "alice", client_id: "c1", aud: g.resource, scope: "weather:read" }),
    narrow: as("alice", "weather:other"),
    good: as("alice", "weather:read"),
  });
  assert.equal(g.seen, [], "no tool ran for a refused request");
});

test("a legacy SSE handler on its own, given `auth`: every route guarded, the metadata public", async () => {
  const { iss, g, as } = await setup({ shape: "legacy" });
  await assertGuarded(g, legacyAndUnknown(), {
    bad: iss.forged({ sub: "alice", client_id: "c1", aud: g.resource, scope: "weather:read" }),
    narrow: as("alice", "weather:other"),
    good: as("alice", "weather:read"),
  });
  // The endpoint it announces keeps the guard: POSTs are admitted per message, with the token's principal.
  const sse = await openSse(new URL("/sse", g.origin).href, as("alice", "weather:read"));
  cleanup.push(() => sse.stream.close());
  assert.is((await sse.post(rpc(1, "initialize", INITIALIZE), null)).status, 401);
  assert.is((await sse.post(rpc(1, "initialize", INITIALIZE))).status, 202);
  assert.ok("result" in (await sse.reply(1)));
});

test("a legacy SSE handler with a guard of its own mounted under a guarded Streamable handler: both guards admit each request", async () => {
  const { g, as } = await setup({ legacyGuard: "extra" });
  const sse = new URL("/sse", g.origin);
  assert.is((await send(sse, "GET", SSE)).status, 401);
  const outerOnly = await send(sse, "GET", { ...SSE, ...bearer(as("alice", "weather:read")) });
  assert.is(outerOnly.status, 403, "the legacy handler's own required scope still applies");
  assert.match(String(outerOnly.headers["www-authenticate"]), /scope="weather:read weather:sse"/);
  assert.is(
    (await send(sse, "GET", { ...SSE, ...bearer(as("alice", "weather:sse")) })).status,
    403,
    "the Streamable handler's guard applies",
  );
  assert.is((await send(sse, "GET", { ...SSE, ...bearer(as("alice", "weather:read weather:sse")) })).status, 200);
});

test("property: whatever the method, path, headers and JSON-RPC message, a request without a token gets 401, only the metadata path answers", async () => {
  for (const shape of ["streamable", "legacy"] as const) {
    const { g } = await setup({ shape });
    const metadataPath = new URL(g.metadataUrl).pathname;
    const segment = fc.oneof(
      fc.constantFrom(
        "mcp",
        "sse",
        "messages",
        ".well-known",
        "oauth-protected-resource",
        "oauth-authorization-server",
        "",
      ),
      fc.webSegment(),
    );
    const path = fc
      .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.option(fc.webQueryParameters(), { nil: undefined }))
      .map(([segs, q]) => `/${segs.join("/")}${q === undefined ? "" : `?${q}`}`);
    const message = fc.record({
      jsonrpc: fc.constant("2.0"),
      id: fc.integer({ min: 0, max: 1000 }),
      method: fc.oneof(
        fc.constantFrom("initialize", "tools/call", "ping", "server/discover", "tasks/get"),
        fc.string({ maxLength: 20 }),
      ),
      params: fc.oneof(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
        fc.constant({ name: "set_alert", arguments: {} }),
      ),
    });
    const headers = fc.record(
      {
        "mcp-session-id": fc.constantFrom(randomUUID()),
        "mcp-protocol-version": fc.constantFrom("2025-11-25", "2026-07-28"),
        "last-event-id": fc.string({ maxLength: 10 }).filter((v) => /^[\x21-\x7e]*$/.test(v)),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
        path,
        headers,
        message,
        async (method, p, extra, m) => {
          const withBody = method !== "GET" && method !== "HEAD";
          const res = await send(
            `${g.origin}${p}`,
            method,
            { ...JSON_POST, ...extra },
            withBody ? JSON.stringify(m) : undefined,
          );
          if (p.split("?")[0] === metadataPath)
            assert.ok(res.status === 200 || res.status === 405, `${method} ${p}: ${res.status}`);
          else assert.is(res.status, 401, `${method} ${p}`);
        },
      ),
      { numRuns: 150 },
    );
    assert.equal(g.seen, []);
  }
});

/** A legacy SSE session of `token`'s principal, initialized. */
async function legacySession(g: Guarded, token: string) {
  const sse = await openSse(new URL("/sse", g.origin).href, token);
  cleanup.push(() => sse.stream.close());
  assert.is((await sse.post(rpc(1, "initialize", INITIALIZE))).status, 202);
  assert.ok("result" in (await sse.reply(1)));
  assert.is((await sse.post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).status, 202);
  return sse;
}

const setAlert = (id: number) =>
  rpc(id, "tools/call", {
    name: "set_alert",
    arguments: { city: "Paris", condition: { kind: "wind", speedAbove: 50 } },
  });

test("legacy SSE behind the Streamable handler: POST /messages is admitted per message (tool scopes), and the handler sees the principal as ctx.auth", async () => {
  const { g, as } = await setup();
  const sse = await legacySession(g, as("alice", "weather:read"));
  assert.is((await sse.post(forecast)).status, 202);
  assert.ok("result" in (await sse.reply(2)));
  assert.is(g.seen.length, 1);
  assert.is(g.seen[0]?.subject, "alice");
  assert.is(g.seen[0]?.clientId, "c1");
  const refused = await sse.post(setAlert(3));
  assert.is(refused.status, 403, "set_alert needs weather:alerts");
  assert.match(
    String(refused.headers["www-authenticate"]),
    /error="insufficient_scope", scope="weather:read weather:alerts"/,
  );
  assert.is(g.seen.length, 1, "set_alert did not run");
  // The same principal with a token that grants it (a step-up) may call it in the same session.
  assert.is((await sse.post(setAlert(4), as("alice", "weather:read weather:alerts"))).status, 202);
  const done = (await sse.reply(4)) as { result?: { content: { text: string }[] } };
  assert.match(done.result!.content[0]!.text, /Alert set for Paris/);
  assert.equal(g.seen[1]?.scopes, ["weather:read", "weather:alerts"]);
});

test("legacy SSE, guard without toolScopes: the generated server's own scope check sees ctx.auth and refuses set_alert", async () => {
  const { g, as } = await setup({ toolScopes: false });
  const sse = await legacySession(g, as("alice", "weather:read"));
  assert.is((await sse.post(setAlert(5))).status, 202, "the guard does not know the tool's scope");
  const answer = (await sse.reply(5)) as {
    error?: { message: string };
    result?: { isError?: boolean; content?: { text: string }[] };
  };
  const text = answer.error?.message ?? answer.result?.content?.map((c) => c.text).join("") ?? "";
  assert.match(text, /needs OAuth scope weather:alerts/);
  assert.is(g.seen.length, 0, "set_alert did not run");
});

test.run();
