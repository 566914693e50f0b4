// The resource-server guard on the Streamable HTTP server, spoken to with raw HTTP: metadata,
// challenges, malformed credentials, scope refusals, and that every method of the endpoint is guarded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startAs, startProtected, issued } from "./fake-as.js";

const cleanup: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup() {
  const as = await startAs();
  cleanup.push(() => as.close());
  const mcp = await startProtected(() => as.url, { requiredScopes: ["mcp:read"], resourceName: "notes" });
  cleanup.push(() => mcp.server.close());
  return { as, mcp };
}

const ACCEPT = "application/json, text/event-stream";
const rpc = (method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
function post(url: URL, body: string, authorization?: string) {
  return fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", accept: ACCEPT, ...(authorization ? { authorization } : {}) },
  });
}
function mint(resource: string, scopes: string[], issuer: string): string {
  const t = `at-test-${Math.random().toString(36).slice(2)}`;
  issued.set(t, { scopes, resource, exp: Date.now() + 60_000, issuer, client: "c" });
  return t;
}

test("protected-resource metadata at the RFC 9728 path of the endpoint", async () => {
  const { as, mcp } = await setup();
  const res = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", mcp.url));
  assert.is(res.status, 200);
  assert.equal(await res.json(), {
    resource: mcp.url.href,
    authorization_servers: [as.url],
    bearer_methods_supported: ["header"],
    scopes_supported: ["mcp:read", "mcp:write"],
    resource_name: "notes",
  });
  assert.is(
    (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", mcp.url), { method: "POST" })).status,
    405,
  );
});

test("no token: 401 with resource_metadata and the scope the request needs; GET and DELETE guarded too", async () => {
  const { mcp } = await setup();
  const res = await post(mcp.url, rpc("initialize"));
  assert.is(res.status, 401);
  const www = res.headers.get("www-authenticate")!;
  assert.match(www, /^Bearer /);
  assert.match(www, new RegExp(`resource_metadata="${mcp.url.origin}/.well-known/oauth-protected-resource/mcp"`));
  assert.match(www, /scope="mcp:read"/);
  assert.not.match(www, /error=/, "a request without credentials gets no error code (RFC 6750 §3.1)");
  for (const method of ["GET", "DELETE"]) {
    const r = await fetch(mcp.url, { method, headers: { accept: "text/event-stream" } });
    assert.is(r.status, 401, method);
  }
});

test("a token the verifier refuses: 401 invalid_token with its reason; malformed credentials: 400", async () => {
  const { as, mcp } = await setup();
  const wrongAudience = mint("https://elsewhere.example/mcp", ["mcp:read"], as.url);
  const res = await post(mcp.url, rpc("initialize"), `Bearer ${wrongAudience}`);
  assert.is(res.status, 401);
  assert.match(
    res.headers.get("www-authenticate")!,
    /error="invalid_token", error_description="token audience is not this resource"/,
  );
  assert.not.match(await res.text(), new RegExp(wrongAudience));
  assert.is((await post(mcp.url, rpc("initialize"), "Bearer two words")).status, 400);
  assert.is((await post(mcp.url, rpc("initialize"), `Bearer ${"a".repeat(10_000)}`)).status, 400);
  assert.is((await post(mcp.url, rpc("initialize"), "Basic dXNlcjpwYXNz")).status, 401);
});

test("missing scope: 403 insufficient_scope naming every scope the request needs (per-tool scopes included)", async () => {
  const { as, mcp } = await setup();
  const readOnly = mint(mcp.url.href, ["mcp:read"], as.url);
  const res = await post(mcp.url, rpc("tools/call", { name: "write", arguments: {} }), `Bearer ${readOnly}`);
  assert.is(res.status, 403);
  const www = res.headers.get("www-authenticate")!;
  assert.match(www, /error="insufficient_scope"/);
  assert.match(www, /scope="mcp:read mcp:write"/);
  assert.equal(((await res.json()) as { error: string }).error, "insufficient_scope");
  const noScopes = mint(mcp.url.href, [], as.url);
  assert.is((await post(mcp.url, rpc("initialize"), `Bearer ${noScopes}`)).status, 403);
});

test("stateless endpoint: every POST is authorized on its own, and the handler sees that request's principal", async () => {
  const as = await startAs();
  cleanup.push(() => as.close());
  const mcp = await startProtected(() => as.url, {}, true);
  cleanup.push(() => mcp.server.close());
  const call = (token?: string) =>
    fetch(mcp.url, {
      method: "POST",
      body: rpc("tools/call", { name: "read", arguments: {} }),
      headers: {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-protocol-version": "2025-11-25",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
  assert.is((await call()).status, 401);
  const t1 = mint(mcp.url.href, ["a"], as.url);
  const t2 = mint(mcp.url.href, ["b"], as.url);
  const r1 = await call(t1);
  assert.is(r1.status, 200);
  assert.is((await call(t2)).status, 200);
  assert.equal(
    mcp.seen.map((a) => a?.scopes),
    [["a"], ["b"]],
  );
  assert.is((await call()).status, 401, "an earlier token does not carry over");
});

test.run();
