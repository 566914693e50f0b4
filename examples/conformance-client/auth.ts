/**
 * Every `auth/*` scenario of the official suite is the same application behaviour: connect to a
 * server that demands OAuth, list its tools and call one. What differs is only the server and
 * its authorization server; the runtime's OAuthClient must cope with each. The one thing read
 * from the scenario is MCP_CONFORMANCE_CONTEXT's credentials (what a user would configure:
 * pre-registered client id and secret, or a private key for private_key_jwt; the enterprise IdP
 * and the user's ID token from single sign-on; the workload's JWT). DPoP is on wherever both the
 * authorization server and the MCP server take it, as a security-minded deployment would configure it.
 */
import type { McpClient } from "@mcpgen/runtime";
import {
  OAuthClient,
  type AuthorizationUserAgent,
  type EnterpriseAuthorization,
  type PreRegisteredClient,
  type WorkloadIdentity,
} from "@mcpgen/runtime/auth";
import type { ScenarioContext } from "./scenarios.js";

/** This client's identity document (CIMD) URL, used where the authorization server supports it. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Never listened on: the headless user agent reads the redirect's Location instead. */
const REDIRECT_URI = "http://localhost:3000/callback";

/**
 * A user who approves at once: the authorization endpoint is fetched without following its
 * redirect, and the redirect target is what the browser would have been sent to.
 */
function headlessUserAgent(): AuthorizationUserAgent {
  return {
    redirectUri: REDIRECT_URI,
    async authorize(url: URL, signal: AbortSignal): Promise<URL> {
      const res = await fetch(url, { redirect: "manual", signal });
      await res.body?.cancel();
      const location = res.headers.get("location");
      if (location === null) throw new Error(`authorization endpoint answered HTTP ${res.status} without a redirect`);
      return new URL(location, url);
    },
  };
}

function str(context: Record<string, unknown> | undefined, k: string): string | undefined {
  return typeof context?.[k] === "string" ? (context[k] as string) : undefined;
}

/** Credentials the user configured (from MCP_CONFORMANCE_CONTEXT), if any. */
function configuredClient(context: Record<string, unknown> | undefined): PreRegisteredClient | undefined {
  const id = str(context, "client_id");
  if (id === undefined) return undefined;
  const c: PreRegisteredClient = { client_id: id };
  const secret = str(context, "client_secret");
  const key = str(context, "private_key_pem");
  const alg = str(context, "signing_algorithm");
  const issuer = str(context, "issuer");
  if (secret !== undefined) c.client_secret = secret;
  if (key !== undefined) c.private_key = key;
  if (alg !== undefined) c.signing_algorithm = alg;
  if (issuer !== undefined) c.issuer = issuer;
  return c;
}

/** The enterprise identity provider and the user's ID token from signing in there, if configured. */
function enterpriseIdp(context: Record<string, unknown> | undefined): EnterpriseAuthorization | undefined {
  const tokenEndpoint = str(context, "idp_token_endpoint");
  const clientId = str(context, "idp_client_id");
  const idToken = str(context, "idp_id_token");
  if (tokenEndpoint === undefined || clientId === undefined || idToken === undefined) return undefined;
  const issuer = str(context, "idp_issuer");
  return { tokenEndpoint, clientId, idToken: () => idToken, ...(issuer !== undefined ? { issuer } : {}) };
}

/** The workload's JWT from its platform, if configured. */
function workload(context: Record<string, unknown> | undefined): WorkloadIdentity | undefined {
  const jwt = str(context, "valid_jwt");
  return jwt === undefined ? undefined : { assertion: () => jwt };
}

export function oauthClient(ctx: ScenarioContext): OAuthClient {
  return new OAuthClient({
    server: ctx.url,
    userAgent: headlessUserAgent(),
    client: configuredClient(ctx.context),
    enterprise: enterpriseIdp(ctx.context),
    workloadIdentity: workload(ctx.context),
    dpop: "auto",
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientMetadata: { client_name: "mcpgen-conformance-client" },
    log: (m) => ctx.log(`oauth: ${m}`),
  });
}

/** Connect through OAuth, list the tools, call the first one. */
export async function authorizedSession(
  ctx: ScenarioContext,
  connect: (auth: OAuthClient) => Promise<McpClient>,
): Promise<void> {
  const c = await connect(oauthClient(ctx));
  try {
    const tools = await c.listTools();
    ctx.log(`tools: ${tools.map((t) => t.name).join(", ")}`);
    const first = tools[0];
    if (first !== undefined) {
      await c.callTool(first.name, {});
      ctx.log(`called ${first.name}`);
    }
  } finally {
    await c.close();
  }
}
