// Discovery order and refusals of malformed metadata, with the OAuth client's fetch replaced by
// a table of canned answers (every URL it asks for is recorded).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { OAuthClient, OAuthFlowError, type AuthorizationUserAgent } from "@mcpgen/runtime/auth";

type Answer = { status?: number; json?: unknown; text?: string };

function stub(table: Record<string, Answer>) {
  const asked: string[] = [];
  const fetchFn = (async (input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(url);
    const a = table[url];
    if (a === undefined) return new Response("not found", { status: 404 });
    return new Response(a.text ?? JSON.stringify(a.json), {
      status: a.status ?? 200,
      headers: { "content-type": "application/json" },
    });
  }) as typeof fetch;
  return { asked, fetchFn };
}

/** Records the authorization URL and stops the flow there. */
function recordingAgent(seen: URL[]): AuthorizationUserAgent {
  return {
    redirectUri: "http://127.0.0.1:9/cb",
    async authorize(url) {
      seen.push(url);
      throw new Error("stop here");
    },
  };
}

const S = "http://127.0.0.1:7000";
const AS = "http://127.0.0.1:7001";
const asMeta = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${AS}/authorize`,
  token_endpoint: `${AS}/token`,
  registration_endpoint: `${AS}/register`,
  code_challenge_methods_supported: ["S256"],
  ...extra,
});

async function run(table: Record<string, Answer>, www = "Bearer"): Promise<{ e: Error; asked: string[]; seen: URL[] }> {
  const { asked, fetchFn } = stub(table);
  const seen: URL[] = [];
  const oauth = new OAuthClient({ server: `${S}/mcp`, userAgent: recordingAgent(seen), fetch: fetchFn });
  let e: Error | undefined;
  await oauth
    .challenged({ url: new URL(`${S}/mcp`), status: 401, wwwAuthenticate: www, attempt: 0 })
    .catch((x: Error) => (e = x));
  return { e: e!, asked, seen };
}

const code = (e: Error): string => (e instanceof OAuthFlowError ? e.code : `not an OAuthFlowError: ${e.message}`);

test("PRM: path-based then root when the challenge names none; AS metadata: RFC 8414 insertion, OIDC insertion, OIDC append", async () => {
  const { asked, seen } = await run({
    [`${S}/.well-known/oauth-protected-resource`]: { json: { resource: S, authorization_servers: [`${AS}/tenant`] } },
    [`${AS}/tenant/.well-known/openid-configuration`]: { json: asMeta(`${AS}/tenant`) },
    [`${AS}/register`]: { status: 201, json: { client_id: "c1" } },
  });
  assert.equal(asked.slice(0, 5), [
    `${S}/.well-known/oauth-protected-resource/mcp`,
    `${S}/.well-known/oauth-protected-resource`,
    `${AS}/.well-known/oauth-authorization-server/tenant`,
    `${AS}/.well-known/openid-configuration/tenant`,
    `${AS}/tenant/.well-known/openid-configuration`,
  ]);
  assert.is(seen[0]!.searchParams.get("resource"), S, "resource exactly as published, no slash added");
});

test("PRM named in the challenge: only that URL, and its failure is an error", async () => {
  const { e, asked } = await run({}, `Bearer resource_metadata="${S}/custom/prm.json"`);
  assert.equal(asked, [`${S}/custom/prm.json`]);
  assert.is(code(e), "resource_metadata");
  assert.match(e.message, /custom\/prm\.json: HTTP 404/);
});

test("malformed PRM and AS metadata are refused with what was wrong", async () => {
  const prm = `${S}/.well-known/oauth-protected-resource/mcp`;
  let r = await run({ [prm]: { json: { resource: `${S}/mcp` } } });
  assert.is(code(r.e), "resource_metadata");
  assert.match(r.e.message, /"authorization_servers" must be a non-empty array/);
  r = await run({ [prm]: { text: "<html>" } });
  assert.is(code(r.e), "resource_metadata");
  assert.match(r.e.message, /not JSON/);
  const good = { [prm]: { json: { resource: `${S}/mcp`, authorization_servers: [AS] } } };
  r = await run({
    ...good,
    [`${AS}/.well-known/oauth-authorization-server`]: { json: asMeta(AS, { token_endpoint: 42 }) },
  });
  assert.is(code(r.e), "server_metadata");
  assert.match(r.e.message, /"token_endpoint" is not a URL/);
  r = await run({ ...good, [`${AS}/.well-known/oauth-authorization-server`]: { json: asMeta(`${AS}/`) } });
  assert.is(code(r.e), "server_metadata", "issuer differs by a trailing slash: exact comparison");
  r = await run({
    ...good,
    [`${AS}/.well-known/oauth-authorization-server`]: {
      json: asMeta(AS, { code_challenge_methods_supported: ["plain"] }),
    },
  });
  assert.is(code(r.e), "unsupported");
  assert.match(r.e.message, /S256/);
  r = await run(good);
  assert.is(code(r.e), "server_metadata");
  assert.match(r.e.message, /publishes no metadata/);
});

test("2025-03-26 server (no PRM, no metadata): /authorize, /register at the server's origin, no resource parameter", async () => {
  const { seen, asked } = await run({ [`${S}/register`]: { status: 201, json: { client_id: "legacy" } } });
  assert.ok(asked.includes(`${S}/register`));
  assert.is(seen[0]!.origin + seen[0]!.pathname, `${S}/authorize`);
  assert.is(seen[0]!.searchParams.get("client_id"), "legacy");
  assert.is(seen[0]!.searchParams.get("resource"), null);
});

test("a registration answer without client_id is a registration error", async () => {
  const { e } = await run({
    [`${S}/.well-known/oauth-protected-resource/mcp`]: { json: { resource: `${S}/mcp`, authorization_servers: [AS] } },
    [`${AS}/.well-known/oauth-authorization-server`]: { json: asMeta(AS) },
    [`${AS}/register`]: { status: 201, json: { client_secret: "s" } },
  });
  assert.is(code(e), "registration");
  assert.match(e.message, /no "client_id"/);
  assert.not.match(e.message, /"s"/);
});

test.run();
