// The OAuth client against a scripted authorization server and a guarded MCP server, both real
// HTTP on 127.0.0.1: the whole flow, step-up, refresh, migration, and a hostile server's tricks.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ClientSession } from "@mcpgen/runtime";
import { connectClient } from "@mcpgen/runtime/internal";
import { StreamableHttpClientTransport, HttpStatusError } from "@mcpgen/runtime/http";
import {
  OAuthClient,
  OAuthFlowError,
  InMemoryOAuthStore,
  InvalidTokenError,
  type AuthorizationUserAgent,
  type OAuthClientOptions,
} from "@mcpgen/runtime/auth";
import { binding } from "@mcpgen/runtime/protocol/2025-11-25";
import { startAs, startProtected, type FakeAs, type ProtectedServer } from "./fake-as.js";

const cleanup: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** The user approves at once: fetch the authorization URL and read the redirect. */
const headless: AuthorizationUserAgent = {
  redirectUri: "http://127.0.0.1:9/callback",
  async authorize(url, signal) {
    const res = await fetch(url, { redirect: "manual", signal });
    await res.body?.cancel();
    return new URL(res.headers.get("location")!, url);
  },
};

async function setup(b: Parameters<typeof startAs>[0] = {}, guard: Parameters<typeof startProtected>[1] = {}) {
  const as = await startAs(b);
  cleanup.push(() => as.close());
  const box = { as };
  const mcp = await startProtected(() => box.as.url, guard);
  cleanup.push(() => mcp.server.close());
  return { as, mcp, box };
}

async function connect(
  mcp: ProtectedServer,
  o: Partial<OAuthClientOptions> = {},
): Promise<{ session: ClientSession; oauth: OAuthClient; logs: string[] }> {
  const logs: string[] = [];
  const oauth = new OAuthClient({ server: mcp.url, userAgent: headless, log: (m) => logs.push(m), ...o });
  const transport = new StreamableHttpClientTransport({ url: mcp.url, auth: oauth, openGetStream: false });
  const session = await connectClient({
    transport,
    bindings: [binding],
    clientInfo: { name: "t", version: "1" },
    capabilities: {},
    handlers: {},
  });
  cleanup.push(() => session.close());
  return { session, oauth, logs };
}

const authorizations = (as: FakeAs) => as.log.filter((l) => l.path === "/authorize");

async function rejected(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}

test("401 → PRM → AS metadata → DCR → PKCE code flow with resource → the request succeeds; ctx sees the principal", async () => {
  const { as, mcp } = await setup();
  const { session, oauth } = await connect(mcp);
  await session.request("tools/call", { name: "read", arguments: {} });
  const [authz] = authorizations(as);
  assert.is(authz!.params.code_challenge_method, "S256");
  assert.is(authz!.params.resource, mcp.url.href);
  assert.is(authz!.params.scope, "mcp:write", "no scope in the challenge: the PRM's scopes_supported");
  const reg = as.log.find((l) => l.path === "/register")!;
  assert.ok(reg);
  assert.equal(mcp.seen.at(-1), { scopes: ["mcp:write"], clientId: as.registrations[0], subject: "alice" });
  assert.is((await oauth.tokens())!.issuer, as.url);
});

test("403 insufficient_scope: re-authorizes for the union of granted and challenged scopes, then succeeds", async () => {
  const { as, mcp } = await setup({}, { requiredScopes: ["mcp:read"] });
  const { session } = await connect(mcp);
  await session.request("tools/call", { name: "read", arguments: {} });
  await session.request("tools/call", { name: "write", arguments: {} });
  const scopes = authorizations(as).map((a) => a.params.scope);
  assert.equal(scopes, ["mcp:read", "mcp:read mcp:write"]);
  assert.equal(mcp.seen.at(-1)!.scopes, ["mcp:read", "mcp:write"]);
});

test("a server that keeps answering 403 gets at most 3 authorizations per request, then an HttpStatusError 403", async () => {
  const { as, mcp } = await setup({ withhold: ["mcp:write"] });
  const { session } = await connect(mcp);
  const before = authorizations(as).length;
  const e = await rejected(session.request("tools/call", { name: "write", arguments: {} }));
  assert.instance(e, HttpStatusError, e.message);
  assert.is((e as HttpStatusError).status, 403);
  assert.is(authorizations(as).length - before, 3);
});

test("a server that refuses the token just issued: one authorization, then a typed error with the server's reason", async () => {
  const { as, mcp } = await setup(
    {},
    {
      verifier: {
        verify: async () => {
          throw new InvalidTokenError("token revoked");
        },
      },
    },
  );
  const oauth = new OAuthClient({ server: mcp.url, userAgent: headless });
  const transport = new StreamableHttpClientTransport({ url: mcp.url, auth: oauth, openGetStream: false });
  const e = await rejected(
    connectClient({
      transport,
      bindings: [binding],
      clientInfo: { name: "t", version: "1" },
      capabilities: {},
      handlers: {},
    }),
  );
  await transport.close().catch(() => {});
  assert.instance(e, OAuthFlowError);
  assert.is((e as OAuthFlowError).code, "token");
  assert.match(e.message, /refused the access token just issued by .*: token revoked/);
  assert.is(authorizations(as).length, 1);
});

test("an expired access token is refreshed without a new authorization; offline_access requested only when listed", async () => {
  const { as, mcp } = await setup({
    expiresIn: 1,
    refreshTokens: true,
    scopesSupported: ["offline_access", "mcp:read"],
  });
  const { session } = await connect(mcp);
  await session.request("tools/call", { name: "read", arguments: {} });
  assert.match(authorizations(as)[0]!.params.scope!, /offline_access/);
  await new Promise((r) => setTimeout(r, 1100));
  await session.request("tools/call", { name: "read", arguments: {} });
  assert.is(authorizations(as).length, 1);
  assert.ok(as.log.some((l) => l.path === "/token" && l.params.grant_type === "refresh_token"));
});

test("a later run with the same store refreshes the kept token instead of authorizing again", async () => {
  const { as, mcp } = await setup({ expiresIn: 1, refreshTokens: true });
  const store = new InMemoryOAuthStore();
  const first = await connect(mcp, { store });
  await first.session.request("tools/call", { name: "read", arguments: {} });
  await first.session.close();
  await new Promise((r) => setTimeout(r, 1100));
  const second = await connect(mcp, { store });
  await second.session.request("tools/call", { name: "read", arguments: {} });
  assert.is(authorizations(as).length, 1);
  assert.is(as.log.filter((l) => l.path === "/token" && l.params.grant_type === "refresh_token").length >= 1, true);
});

test("the PRM switching authorization servers: tokens dropped, a new registration at the new server, old client id never sent there", async () => {
  const { as, mcp, box } = await setup();
  const { session, oauth } = await connect(mcp);
  await session.request("tools/call", { name: "read", arguments: {} });
  const as2 = await startAs();
  cleanup.push(() => as2.close());
  box.as = as2;
  // Registered anew at the new server, the client is another principal (another client id): the
  // session it opened as the old one is not its own any more (404), a new session is.
  assert.match((await rejected(session.request("tools/call", { name: "read", arguments: {} }))).message, /HTTP 404/);
  assert.is(as2.registrations.length, 1);
  assert.not.ok(as2.log.some((l) => l.params.client_id === as.registrations[0]));
  const transport = new StreamableHttpClientTransport({ url: mcp.url, auth: oauth, openGetStream: false });
  const again = await connectClient({
    transport,
    bindings: [binding],
    clientInfo: { name: "t", version: "1" },
    capabilities: {},
    handlers: {},
  });
  cleanup.push(() => again.close());
  await again.request("tools/call", { name: "read", arguments: {} });
  assert.is(as2.registrations.length, 1, "the new session uses the new server's token");
});

async function flowError(
  b: Parameters<typeof startAs>[0],
  guard: Parameters<typeof startProtected>[1] = {},
): Promise<{ e: OAuthFlowError; as: FakeAs }> {
  const { as, mcp } = await setup(b, guard);
  const logs: string[] = [];
  const oauth = new OAuthClient({ server: mcp.url, userAgent: headless, log: (m) => logs.push(m) });
  const transport = new StreamableHttpClientTransport({ url: mcp.url, auth: oauth, openGetStream: false });
  const e = await rejected(
    connectClient({
      transport,
      bindings: [binding],
      clientInfo: { name: "t", version: "1" },
      capabilities: {},
      handlers: {},
    }),
  );
  await transport.close().catch(() => {});
  assert.instance(e, OAuthFlowError, e.message);
  // No code, token or verifier in what a host might log.
  for (const text of [e.message, ...logs]) assert.not.match(text, /code-|at-|rt-|code_verifier/);
  return { e: e as OAuthFlowError, as };
}

test("wrong iss on the redirect: issuer_mismatch, no token request", async () => {
  const { e, as } = await flowError({ iss: "wrong" });
  assert.is(e.code, "issuer_mismatch");
  assert.match(e.message, /evil\.example/);
  assert.not.ok(as.log.some((l) => l.path === "/token"));
});

test("iss missing although advertised: issuer_mismatch", async () => {
  const { e } = await flowError({ iss: "omit" });
  assert.is(e.code, "issuer_mismatch");
});

test("metadata whose issuer is not the one it was fetched for: server_metadata, no registration", async () => {
  const { e, as } = await flowError({ metadataIssuer: "https://attacker.example" });
  assert.is(e.code, "server_metadata");
  assert.match(e.message, /attacker\.example/);
  assert.is(as.registrations.length, 0);
});

test("PRM for another resource: resource_mismatch before any authorization", async () => {
  const { e, as } = await flowError({}, { resource: "https://evil.example/mcp" });
  assert.is(e.code, "resource_mismatch");
  assert.is(authorizations(as).length, 0);
});

test("oversized metadata is refused after the byte limit, not buffered", async () => {
  const { e } = await flowError({ metadataBytes: 2 * 1024 * 1024 });
  assert.is(e.code, "http");
  assert.match(e.message, /limit/);
});

test("the token never goes to another origin", async () => {
  const oauth = new OAuthClient({ server: "http://127.0.0.1:1/mcp", store: new InMemoryOAuthStore() });
  assert.is(await oauth.authorization(new URL("http://127.0.0.1:2/mcp")), undefined);
});

test("a non-loopback plain-http authorization party is refused", async () => {
  const oauth = new OAuthClient({ server: "http://mcp.example/mcp", userAgent: headless });
  const e = await rejected(
    oauth.challenged({ url: new URL("http://mcp.example/mcp"), status: 401, wwwAuthenticate: "Bearer", attempt: 0 }),
  );
  assert.instance(e, OAuthFlowError);
  assert.is((e as OAuthFlowError).code, "http");
});

test.run();
