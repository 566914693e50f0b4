// The OAuth client's grants without a person: workload identity (the JWT-bearer grant with the
// workload's JWT) and enterprise-managed authorization (the user's ID token exchanged at the
// enterprise IdP for an ID-JAG, then the JWT-bearer grant), against the scripted authorization
// server and a scripted IdP on 127.0.0.1. A refused assertion ends the authorization: no retry,
// no other grant.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { connectMcpClient } from "@mcpgen/runtime";
import { connectClient } from "@mcpgen/runtime/internal";
import { connectHttp, StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import { OAuthClient, type OAuthClientOptions } from "@mcpgen/runtime/auth";
import { binding } from "@mcpgen/runtime/protocol/2025-11-25";
import { startAs, startProtected, type AsBehaviour, type ProtectedServer } from "./fake-as.js";
import { dual } from "../helpers/binding.js";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(b: AsBehaviour) {
  const as = await startAs(b);
  cleanup.push(() => as.close());
  const mcp = await startProtected(() => as.url);
  cleanup.push(() => mcp.server.close());
  return { as, mcp };
}

async function call(mcp: ProtectedServer, o: Partial<OAuthClientOptions>): Promise<string[]> {
  const logs: string[] = [];
  const oauth = new OAuthClient({ server: mcp.url, log: (m) => logs.push(m), ...o });
  const transport = new StreamableHttpClientTransport({ url: mcp.url, auth: oauth, openGetStream: false });
  const session = await connectClient({
    transport,
    bindings: [binding],
    clientInfo: { name: "t", version: "1" },
    capabilities: {},
    handlers: {},
  });
  cleanup.push(() => session.close());
  await session.request("tools/call", { name: "read", arguments: {} });
  return logs;
}

const tokenRequests = (log: { path: string; params: Record<string, string> }[]) =>
  log.filter((l) => l.path === "/token");

test("workload identity: the JWT-bearer grant with the workload's current JWT, the client's id and the resource", async () => {
  const { as, mcp } = await setup({
    grants: [JWT_BEARER],
    jwtBearer: (a) => (a === "workload-jwt-2" ? "w" : undefined),
  });
  let reads = 0;
  await call(mcp, { client: { client_id: "w" }, workloadIdentity: { assertion: () => `workload-jwt-${++reads + 1}` } });
  const [t] = tokenRequests(as.log);
  assert.is(t!.params.grant_type, JWT_BEARER);
  assert.is(t!.params.assertion, "workload-jwt-2");
  assert.is(t!.params.client_id, "w");
  assert.is(t!.params.resource, mcp.url.href);
  assert.is(reads, 1, "the assertion is read when a grant needs it");
  assert.is(mcp.seen.at(-1)?.clientId, "w");
});

test("workload identity: a refused assertion fails the request at once, without retrying or trying another grant", async () => {
  const { as, mcp } = await setup({
    grants: [JWT_BEARER, "client_credentials"],
    authMethods: ["client_secret_basic"],
    jwtBearer: () => undefined,
  });
  const e = await call(mcp, {
    client: { client_id: "w", client_secret: "s" },
    workloadIdentity: { assertion: () => "expired-jwt" },
  }).then(
    () => undefined,
    (x: unknown) => x as Error,
  );
  assert.ok(e, "the request succeeded");
  assert.match(e.message, /JWT-bearer \(workload identity\) grant refused: HTTP 400 invalid_grant/);
  assert.equal(
    tokenRequests(as.log).map((t) => t.params.grant_type),
    [JWT_BEARER],
  );
});

test("workload identity through the dual-era client: a refused assertion ends the connection, not a fallback that asks again", async () => {
  const { as, mcp } = await setup({ grants: [JWT_BEARER], jwtBearer: () => undefined });
  const oauth = new OAuthClient({
    server: mcp.url,
    client: { client_id: "w" },
    workloadIdentity: { assertion: () => "expired-jwt" },
  });
  const e = await connectMcpClient(connectHttp(mcp.url, { auth: oauth }), {
    bindings: dual,
    clientInfo: { name: "t", version: "1" },
    eraCache: false,
    timeout: 5000,
  }).then(
    (c) => (cleanup.push(() => c.close()), undefined),
    (x: unknown) => x as Error,
  );
  assert.ok(e, "connected");
  assert.match(e.message, /grant refused: HTTP 400 invalid_grant/);
  assert.is(tokenRequests(as.log).length, 1, "the assertion was presented again");
});

/** A scripted enterprise IdP: token exchange of an ID token for an ID-JAG (or `issued` instead). */
async function startIdp(issued = "urn:ietf:params:oauth:token-type:id-jag") {
  const seen: { params: Record<string, string>; authorization: string | undefined }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
      seen.push({ params, authorization: req.headers.authorization });
      if (
        params.grant_type !== "urn:ietf:params:oauth:grant-type:token-exchange" ||
        params.subject_token !== "alice-id-token"
      ) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          access_token: `jag-for-${params.audience}`,
          issued_token_type: issued,
          token_type: "N_A",
          expires_in: 300,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { tokenEndpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, seen };
}

test("enterprise-managed: ID token → ID-JAG at the IdP (audience the AS, resource the server), then the JWT-bearer grant with the client's secret", async () => {
  const idp = await startIdp();
  const basic = `Basic ${Buffer.from("mcp-client:mcp-secret").toString("base64")}`;
  const { as, mcp } = await setup({
    grants: [JWT_BEARER],
    authMethods: ["client_secret_basic"],
    jwtBearer: (a, authorization) => (authorization === basic && a.startsWith("jag-for-") ? "mcp-client" : undefined),
  });
  await call(mcp, {
    client: { client_id: "mcp-client", client_secret: "mcp-secret" },
    enterprise: { tokenEndpoint: idp.tokenEndpoint, clientId: "idp-client", idToken: () => "alice-id-token" },
  });
  const [x] = idp.seen;
  assert.equal(
    { ...x!.params },
    {
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: "alice-id-token",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: as.url,
      resource: mcp.url.href,
      client_id: "idp-client",
      scope: "mcp:write",
    },
  );
  const [t] = tokenRequests(as.log);
  assert.is(t!.params.grant_type, JWT_BEARER);
  assert.is(t!.params.assertion, `jag-for-${as.url}`);
  assert.is(mcp.seen.at(-1)?.clientId, "mcp-client");
});

test("enterprise-managed: an IdP that answers with something else than an ID-JAG is not passed on", async () => {
  const idp = await startIdp("urn:ietf:params:oauth:token-type:access_token");
  const { as, mcp } = await setup({
    grants: [JWT_BEARER],
    authMethods: ["client_secret_basic"],
    jwtBearer: () => "mcp-client",
  });
  const e = await call(mcp, {
    client: { client_id: "mcp-client", client_secret: "mcp-secret" },
    enterprise: { tokenEndpoint: idp.tokenEndpoint, clientId: "idp-client", idToken: () => "alice-id-token" },
  }).then(
    () => undefined,
    (x: unknown) => x as Error,
  );
  assert.ok(e);
  assert.match(e.message, /not an ID-JAG/);
  assert.is(tokenRequests(as.log).length, 0);
});

test.run();
