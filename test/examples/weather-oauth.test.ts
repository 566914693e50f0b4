// End to end: the generated weather server behind mcpgen's resource-server guard, a real OAuth
// authorization server (oidc-provider, issuing RFC 9068 JWT access tokens for resource
// indicators) on 127.0.0.1, and the generated weather client connecting through OAuthClient:
// it completes the code flow with PKCE, steps up to the scope `set_alert` declares in the
// manifest, and its token is refused by a server it was not issued for.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generateKeyPairSync, randomBytes, webcrypto } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import Provider from "oidc-provider";
import { connectHttp, createStreamableHttpHandler, StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import {
  createResourceServer,
  InMemoryOAuthStore,
  introspectionVerifier,
  jwtVerifier,
  OAuthClient,
  type AuthInfo,
  type AuthorizationUserAgent,
  type DPoPGuardOptions,
  type DPoPOptions,
} from "@mcpgen/runtime/auth";
import { handlers } from "../../examples/weather/src/handlers.js";
import { createWeatherExampleServer } from "../../examples/weather/src/mcp/server.js";
import { createWeatherExampleClient } from "../../examples/weather/src/mcp/client.js";
import { definition } from "../../examples/weather/src/mcp/definition.js";
import { proof, proofKey } from "../runtime/auth/dpop-proof.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** The user: logs in as "alice" and allows whatever the client asks for. */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: "alice" } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant =
    details.grantId !== undefined
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** oidc-provider as the authorization server of the MCP resources in `resources`; the user "alice" logs in and consents at once. */
async function startAuthorizationServer(resources: string[], o: { dpopNonce?: boolean; opaque?: boolean } = {}) {
  const authorizations: URLSearchParams[] = [];
  /** The DPoP proof (or none) of every token request. */
  const tokenProofs: (string | undefined)[] = [];
  const box: { provider?: Provider } = {};
  const { origin } = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/interaction/")) {
      void interact(box.provider!, req, res);
      return;
    }
    if (url.pathname === "/auth") authorizations.push(url.searchParams);
    if (url.pathname === "/token") tokenProofs.push(req.headers.dpop as string | undefined);
    box.provider!.callback()(req, res);
  });
  const key = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  const provider = new Provider(origin, {
    jwks: { keys: [{ ...key, kid: "k1", alg: "ES256", use: "sig" }] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: { enabled: true },
      // oidc-provider binds tokens to a DPoP proof's key whenever a token request carries one.
      dPoP: { enabled: true, ...(o.dpopNonce ? { nonceSecret: randomBytes(32), requireNonce: () => true } : {}) },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!resources.includes(indicator)) throw new Error(`unknown resource ${indicator}`);
          if (o.opaque)
            return { scope: "weather:read weather:alerts", audience: indicator, accessTokenFormat: "opaque" };
          return {
            scope: "weather:read weather:alerts",
            audience: indicator,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "ES256" } },
          };
        },
      },
    },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    // The weather servers' own identity, for token introspection.
    clients: [
      { client_id: RS_CLIENT, client_secret: RS_SECRET, grant_types: [], response_types: [], redirect_uris: [] },
    ],
    pkce: { required: () => true },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["mcpgen-e2e"] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      Interaction: 600,
      Session: 600,
      IdToken: 600,
      RefreshToken: 600,
    },
  });
  box.provider = provider;
  return { issuer: origin, authorizations, tokenProofs };
}

const RS_CLIENT = "weather-rs";
const RS_SECRET = "weather-rs-secret";

/** A browser with a cookie jar that follows the authorization server's redirects until it is sent back to the client. */
function browser(redirectUri: string): AuthorizationUserAgent {
  return {
    redirectUri,
    async authorize(start, signal) {
      const jar = new Map<string, string>();
      let at = start;
      for (let hop = 0; hop < 10; hop++) {
        if (at.href.startsWith(redirectUri)) return at;
        const res = await fetch(at, {
          redirect: "manual",
          signal,
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
        });
        for (const c of res.headers.getSetCookie()) {
          const pair = c.split(";")[0]!;
          jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
        }
        await res.body?.cancel();
        const location = res.headers.get("location");
        if (location === null) throw new Error(`${at.pathname} answered HTTP ${res.status} without a redirect`);
        at = new URL(location, at);
      }
      throw new Error("too many redirects");
    },
  };
}

/** The generated weather server over Streamable HTTP behind a guard that trusts `issuer`'s JWTs for its own URL. */
async function startWeather(issuer: () => string, guardToolScopes = true, dpop?: DPoPGuardOptions, introspect = false) {
  /** Every request's Authorization scheme and DPoP header, as the guard saw them. */
  const presented: { scheme: string; proof: string | undefined }[] = [];
  const seen: (AuthInfo | undefined)[] = [];
  // The handlers see the verified principal as ctx.auth.
  const server = createWeatherExampleServer({
    ...handlers,
    tools: {
      ...handlers.tools,
      getForecast: (input, ctx) => (seen.push(ctx.auth), handlers.tools.getForecast(input, ctx)),
      setAlert: (input, ctx) => (seen.push(ctx.auth), handlers.tools.setAlert(input, ctx)),
    },
  });
  const box: { handle?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const { origin } = await listen((req, res) => box.handle!(req, res));
  const resource = `${origin}/mcp`;
  const handler = createStreamableHttpHandler({
    onsession: async (transport) => void (await server.connect(transport)),
    auth: createResourceServer({
      resource,
      authorizationServers: [issuer()],
      verifier: introspect
        ? introspectionVerifier({ issuer: issuer(), clientId: RS_CLIENT, clientSecret: RS_SECRET, audience: resource })
        : jwtVerifier({ issuer: issuer(), audience: resource }),
      requiredScopes: ["weather:read"],
      toolScopes: guardToolScopes ? definition.toolScopes : undefined,
      resourceName: "weather",
      ...(dpop ? { dpop } : {}),
    }),
  });
  box.handle = (req, res) => {
    if (req.headers.authorization)
      presented.push({
        scheme: req.headers.authorization.split(" ")[0]!,
        proof: req.headers.dpop as string | undefined,
      });
    handler.handle(req, res);
  };
  cleanup.push(() => handler.close());
  return { resource, seen, presented };
}

test("oidc-provider + generated weather server + generated client: code flow, step-up to the manifest's scope, wrong audience refused", async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources);
  const weather = await startWeather(() => as.issuer);
  const other = await startWeather(() => as.issuer);
  resources.push(weather.resource, other.resource);

  const logs: string[] = [];
  const oauth = new OAuthClient({
    server: weather.resource,
    userAgent: browser("http://127.0.0.1:1/callback"),
    log: (m) => logs.push(m),
  });
  const transport = new StreamableHttpClientTransport({ url: weather.resource, auth: oauth, openGetStream: false });
  const client = await createWeatherExampleClient(transport, {
    clientInfo: { name: "weather-oauth-e2e", version: "1.0.0" },
  });
  cleanup.push(() => client.close());

  const forecast = await client.tools.getForecast({ location: { city: "Paris" }, days: 1 });
  assert.is(forecast.structured?.city, "Paris");
  assert.is(as.authorizations.length, 1);
  assert.is(as.authorizations[0]!.get("resource"), weather.resource);
  assert.is(as.authorizations[0]!.get("code_challenge_method"), "S256");
  assert.match(as.authorizations[0]!.get("scope")!, /weather:read/);
  assert.not.match(as.authorizations[0]!.get("scope")!, /weather:alerts/);
  assert.equal(weather.seen.at(-1)?.scopes, ["weather:read"]);
  assert.is(weather.seen.at(-1)?.subject, "alice");

  // set_alert needs weather:alerts (manifest auth.scopes): 403 insufficient_scope, step-up, success.
  const alert = await client.tools.setAlert({ city: "Paris", condition: { kind: "wind", speedAbove: 50 } });
  assert.match(alert.content.map((c) => (c.type === "text" ? c.text : "")).join(""), /Alert set for Paris/);
  assert.is(as.authorizations.length, 2);
  assert.equal(
    as.authorizations[1]!.get("scope")!
      .split(" ")
      .filter((s) => s.startsWith("weather:"))
      .sort(),
    ["weather:alerts", "weather:read"],
  );
  assert.equal(weather.seen.at(-1)?.scopes.slice().sort(), ["weather:alerts", "weather:read"]);

  // The same token at another resource: refused for its audience.
  const token = (await oauth.tokens())!.access_token;
  const res = await fetch(other.resource, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  assert.is(res.status, 401);
  const challenge = res.headers.get("www-authenticate")!;
  assert.match(challenge, /error="invalid_token"/);
  assert.match(challenge, /audience/);
  assert.match(
    challenge,
    new RegExp(`resource_metadata="${other.resource.replace("/mcp", "")}/.well-known/oauth-protected-resource/mcp"`),
  );
  for (const line of logs) assert.not.ok(line.includes(token), "token in a log line");
});

test("2026-07-28 era: the dual-era client over connectHttp(url, { auth }) authorizes its discover probe and stays modern; the modern POST path is guarded", async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources);
  const weather = await startWeather(() => as.issuer);
  resources.push(weather.resource);

  // A 2026-07-28 request without a token is refused on the modern path like any other.
  const bare = await fetch(weather.resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "server/discover",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    }),
  });
  await bare.body?.cancel();
  assert.is(bare.status, 401);
  assert.match(bare.headers.get("www-authenticate")!, /resource_metadata=/);

  const oauth = new OAuthClient({ server: weather.resource, userAgent: browser("http://127.0.0.1:1/callback") });
  const client = await createWeatherExampleClient(connectHttp(weather.resource, { auth: oauth }), {
    clientInfo: { name: "weather-oauth-e2e", version: "1.0.0" },
  });
  cleanup.push(() => client.close());
  assert.is(client.era, "modern");
  assert.is(client.protocolVersion, "2026-07-28");

  const forecast = await client.tools.getForecast({ location: { city: "Paris" }, days: 1 });
  assert.is(forecast.structured?.city, "Paris");
  assert.is(as.authorizations.length, 1);
  assert.is(weather.seen.at(-1)?.subject, "alice");
  assert.equal(weather.seen.at(-1)?.scopes, ["weather:read"]);

  // Step-up to the manifest scope of set_alert, on the stateless wire.
  const alert = await client.tools.setAlert({ city: "Paris", condition: { kind: "wind", speedAbove: 50 } });
  assert.match(alert.content.map((c) => (c.type === "text" ? c.text : "")).join(""), /Alert set for Paris/);
  assert.is(as.authorizations.length, 2);
  assert.equal(weather.seen.at(-1)?.scopes.slice().sort(), ["weather:alerts", "weather:read"]);
});

test("2026-07-28 era: a guard without toolScopes still gets the manifest's scopes enforced by the generated server", async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources);
  const weather = await startWeather(() => as.issuer, false);
  resources.push(weather.resource);
  const oauth = new OAuthClient({ server: weather.resource, userAgent: browser("http://127.0.0.1:1/callback") });
  const client = await createWeatherExampleClient(connectHttp(weather.resource, { auth: oauth }), {
    clientInfo: { name: "weather-oauth-e2e", version: "1.0.0" },
  });
  cleanup.push(() => client.close());
  assert.is(client.era, "modern");
  const refused = await client.tools.setAlert({ city: "Paris", condition: { kind: "wind", speedAbove: 50 } }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  assert.ok(refused, "set_alert without weather:alerts was not refused");
  assert.match(refused.message, /needs OAuth scope weather:alerts/);
  assert.is(weather.seen.length, 0, "the handler ran");
});

test("DPoP: oidc-provider binds the tokens to the client's key, nonces from both servers, the guard admits only the key's proofs", async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources, { dpopNonce: true });
  const weather = await startWeather(() => as.issuer, true, { nonce: true });
  resources.push(weather.resource);
  const logs: string[] = [];
  const oauth = new OAuthClient({
    server: weather.resource,
    userAgent: browser("http://127.0.0.1:1/callback"),
    dpop: true,
    log: (m) => logs.push(m),
  });
  const client = await createWeatherExampleClient(connectHttp(weather.resource, { auth: oauth }), {
    clientInfo: { name: "weather-dpop-e2e", version: "1.0.0" },
  });
  cleanup.push(() => client.close());
  const forecast = await client.tools.getForecast({ location: { city: "Paris" }, days: 1 });
  assert.is(forecast.structured?.city, "Paris");

  // The authorization server asked for a nonce (use_dpop_nonce), the client came back with one.
  assert.ok(
    as.tokenProofs.length >= 2 && as.tokenProofs.every((p) => p !== undefined),
    `token requests with proofs: ${as.tokenProofs.length}`,
  );
  const claims = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
  assert.is(claims(as.tokenProofs[0]!).nonce, undefined);
  assert.type(claims(as.tokenProofs.at(-1)!).nonce, "string");
  const tokens = (await oauth.tokens())!;
  assert.is(tokens.token_type, "DPoP");

  // The principal's token is bound (cnf.jkt); every request to the MCP server used the DPoP scheme
  // with a fresh proof, the resource server's nonce once it had asked for one.
  const cnf = weather.seen.at(-1)?.claims?.cnf as { jkt?: string } | undefined;
  assert.type(cnf?.jkt, "string");
  assert.ok(
    weather.presented.length > 0 && weather.presented.every((p) => p.scheme === "DPoP" && p.proof !== undefined),
  );
  const jtis = weather.presented.map((p) => claims(p.proof!).jti);
  assert.is(new Set(jtis).size, jtis.length, "a proof was sent twice");
  const rsNonce = claims(weather.presented.at(-1)!.proof!).nonce;
  assert.type(rsNonce, "string");

  // The same token presented as a bearer token, or with a proof made by another key: refused.
  const call = (headers: Record<string, string>) =>
    fetch(weather.resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
  const asBearer = await call({ authorization: `Bearer ${tokens.access_token}` });
  assert.is(asBearer.status, 401);
  const other = proofKey();
  const foreignProof = proof(other, {
    htm: "POST",
    htu: weather.resource,
    token: tokens.access_token,
    nonce: rsNonce as string,
  });
  const foreign = await call({ authorization: `DPoP ${tokens.access_token}`, dpop: foreignProof });
  assert.is(foreign.status, 401);
  assert.match(foreign.headers.get("www-authenticate")!, /^DPoP |, DPoP /);
  for (const line of logs) assert.not.ok(line.includes(tokens.access_token), "token in a log line");
});

test("DPoP: a kept token is used by a later client holding the same key pair; without it, the client authorizes anew", async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources);
  const weather = await startWeather(() => as.issuer, true, {});
  resources.push(weather.resource);
  const store = new InMemoryOAuthStore();
  const keyPair = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
    "verify",
  ])) as webcrypto.CryptoKeyPair;
  const run = async (dpop: DPoPOptions | true) => {
    const oauth = new OAuthClient({
      server: weather.resource,
      userAgent: browser("http://127.0.0.1:1/callback"),
      dpop,
      store,
    });
    const client = await createWeatherExampleClient(connectHttp(weather.resource, { auth: oauth }), {
      clientInfo: { name: "weather-dpop-kept", version: "1.0.0" },
    });
    assert.is((await client.tools.getForecast({ location: { city: "Paris" }, days: 1 })).structured?.city, "Paris");
    await client.close();
  };
  await run({ keyPair });
  assert.is(as.authorizations.length, 1);
  await run({ keyPair });
  assert.is(as.authorizations.length, 1, "the same key pair: the kept token was enough");
  await run(true);
  assert.is(as.authorizations.length, 2, "another key: a new authorization");
});

test("introspection: opaque DPoP-bound tokens, their binding read from the introspection response; another key's proof refused", async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources, { opaque: true });
  const weather = await startWeather(() => as.issuer, true, {}, true);
  resources.push(weather.resource);
  const oauth = new OAuthClient({
    server: weather.resource,
    userAgent: browser("http://127.0.0.1:1/callback"),
    dpop: true,
  });
  const client = await createWeatherExampleClient(connectHttp(weather.resource, { auth: oauth }), {
    clientInfo: { name: "weather-introspection", version: "1.0.0" },
  });
  cleanup.push(() => client.close());
  assert.is((await client.tools.getForecast({ location: { city: "Paris" }, days: 1 })).structured?.city, "Paris");
  const tokens = (await oauth.tokens())!;
  assert.is(tokens.token_type, "DPoP");
  assert.not.ok(tokens.access_token.includes("."), "an opaque token");
  const auth = weather.seen.at(-1)!;
  assert.is(auth.subject, "alice");
  assert.ok(auth.scopes.includes("weather:read"));
  assert.type((auth.claims?.cnf as { jkt?: string } | undefined)?.jkt, "string");

  const foreign = await fetch(weather.resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `DPoP ${tokens.access_token}`,
      dpop: proof(proofKey(), { htm: "POST", htu: weather.resource, token: tokens.access_token }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  assert.is(foreign.status, 401);
  assert.match(
    foreign.headers.get("www-authenticate")!,
    /DPoP error="invalid_dpop_proof", error_description="DPoP proof key is not the one the token is bound to"/,
  );
  const bogus = await fetch(weather.resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: "Bearer not-a-token",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
  });
  assert.is(bogus.status, 401);
  assert.match(
    bogus.headers.get("www-authenticate")!,
    /error="invalid_token", error_description="token is not active"/,
  );
});

test('DPoP "auto": bound tokens only where both servers take DPoP (oidc-provider offers it to every client)', async () => {
  const resources: string[] = [];
  const as = await startAuthorizationServer(resources);
  const bearerOnly = await startWeather(() => as.issuer);
  const withDpop = await startWeather(() => as.issuer, true, {});
  resources.push(bearerOnly.resource, withDpop.resource);
  for (const [weather, type] of [
    [bearerOnly, "Bearer"],
    [withDpop, "DPoP"],
  ] as const) {
    const oauth = new OAuthClient({
      server: weather.resource,
      userAgent: browser("http://127.0.0.1:1/callback"),
      dpop: "auto",
    });
    const client = await createWeatherExampleClient(connectHttp(weather.resource, { auth: oauth }), {
      clientInfo: { name: "weather-dpop-auto", version: "1.0.0" },
    });
    cleanup.push(() => client.close());
    assert.is((await client.tools.getForecast({ location: { city: "Paris" }, days: 1 })).structured?.city, "Paris");
    assert.is((await oauth.tokens())!.token_type, type);
    assert.ok(
      weather.presented.every((p) => p.scheme === type),
      `${type}: ${JSON.stringify(weather.presented.map((p) => p.scheme))}`,
    );
  }
});

test.run();
