/**
 * Where the authorization server is: protected-resource metadata (RFC 9728) from the challenge's
 * `resource_metadata`, else the path-based then the root well-known URL; authorization-server
 * metadata (RFC 8414 path insertion, OpenID Connect Discovery in both forms) with the issuer
 * compared exactly; and the 2025-03-26 fallbacks (metadata at the MCP server's root, then
 * `/authorize`, `/token`, `/register` there).
 */
import type { AuthorizationServer } from "oauth4webapi";
import { OAuthFlowError } from "./errors.js";
import { jsonObject } from "./fetch.js";

export type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface ResourceMetadata {
  /** Exactly as published (sent unchanged as the `resource` parameter). */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  /** `dpop_signing_alg_values_supported`: the resource server takes DPoP proofs (RFC 9728 §2). */
  dpopSigningAlgs?: string[];
  /** Where it was read. */
  url: string;
}

const JSON_ACCEPT = { accept: "application/json" };

/** Candidate PRM URLs for an MCP endpoint, best first. */
export function resourceMetadataUrls(server: URL, fromChallenge: string | undefined): URL[] {
  if (fromChallenge !== undefined) {
    try {
      return [new URL(fromChallenge, server)];
    } catch {
      throw new OAuthFlowError(
        "resource_metadata",
        `WWW-Authenticate resource_metadata is not a URL: ${JSON.stringify(fromChallenge.slice(0, 200))}`,
      );
    }
  }
  const path = server.pathname === "/" ? "" : server.pathname.replace(/\/$/, "");
  const urls = [new URL(`/.well-known/oauth-protected-resource${path}`, server.origin)];
  if (path !== "") urls.push(new URL("/.well-known/oauth-protected-resource", server.origin));
  return urls;
}

/**
 * Reads the first PRM document that exists. Undefined when none does (a 2025-03-26 server);
 * a document that exists but is malformed, or that describes another resource, is an error.
 */
export async function discoverResource(
  fetchFn: Fetch,
  server: URL,
  fromChallenge: string | undefined,
): Promise<ResourceMetadata | undefined> {
  for (const url of resourceMetadataUrls(server, fromChallenge)) {
    const res = await fetchFn(url, { headers: JSON_ACCEPT });
    if (res.status !== 200) {
      if (fromChallenge !== undefined)
        throw new OAuthFlowError("resource_metadata", `protected-resource metadata ${url.href}: HTTP ${res.status}`);
      continue;
    }
    const doc = await jsonObject(res, `protected-resource metadata ${url.href}`, "resource_metadata");
    const m = parseResourceMetadata(doc, url.href);
    if (!resourceCovers(m.resource, server)) {
      throw new OAuthFlowError(
        "resource_mismatch",
        `protected-resource metadata ${url.href} is for ${JSON.stringify(m.resource)}, not for the MCP server ${server.origin}${server.pathname}`,
      );
    }
    return m;
  }
  return undefined;
}

function parseResourceMetadata(doc: Record<string, unknown>, url: string): ResourceMetadata {
  const bad = (what: string): never => {
    throw new OAuthFlowError("resource_metadata", `protected-resource metadata ${url}: ${what}`);
  };
  if (typeof doc.resource !== "string" || doc.resource === "") bad('"resource" must be a non-empty string');
  const as = doc.authorization_servers;
  if (!Array.isArray(as) || as.length === 0 || !as.every((x) => typeof x === "string"))
    bad('"authorization_servers" must be a non-empty array of strings');
  const scopes = doc.scopes_supported;
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((x) => typeof x === "string")))
    bad('"scopes_supported" must be an array of strings');
  const m: ResourceMetadata = {
    resource: doc.resource as string,
    authorizationServers: (as as string[]).slice(0, 16),
    scopesSupported: scopes as string[] | undefined,
    url,
  };
  const dpop = doc.dpop_signing_alg_values_supported;
  if (Array.isArray(dpop) && dpop.length > 0 && dpop.every((x) => typeof x === "string"))
    m.dpopSigningAlgs = dpop.slice(0, 16) as string[];
  return m;
}

/**
 * True when tokens for `resource` may be sent to `server`: same origin, and the resource's path
 * is the server's path or a parent of it on a segment boundary (a PRM at the root may describe
 * the whole origin).
 */
export function resourceCovers(resource: string, server: URL): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.origin !== server.origin || r.hash !== "") return false;
  const rp = r.pathname.replace(/\/$/, "");
  const sp = server.pathname.replace(/\/$/, "");
  return rp === "" || sp === rp || sp.startsWith(`${rp}/`);
}

/** Well-known metadata URLs of an issuer, in the order MCP prescribes. */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
  if (path === "")
    return [
      new URL("/.well-known/oauth-authorization-server", issuer.origin),
      new URL("/.well-known/openid-configuration", issuer.origin),
    ];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Authorization-server metadata of `issuer`; its `issuer` must equal the expected one by exact
 * string comparison (RFC 8414 §3.3). `accept` replaces that check for the 2025-03-26 fallback,
 * where metadata is read from the MCP server's own origin and no issuer was ever published.
 */
export async function discoverServer(
  fetchFn: Fetch,
  issuer: string,
  accept?: (issuer: unknown) => boolean,
): Promise<AuthorizationServer | undefined> {
  let base: URL;
  try {
    base = new URL(issuer);
  } catch {
    throw new OAuthFlowError(
      "server_metadata",
      `authorization server ${JSON.stringify(issuer.slice(0, 200))} is not a URL`,
    );
  }
  for (const url of serverMetadataUrls(base)) {
    const res = await fetchFn(url, { headers: JSON_ACCEPT });
    if (res.status !== 200) continue;
    const doc = await jsonObject(res, `authorization-server metadata ${url.href}`, "server_metadata");
    if (accept ? !accept(doc.issuer) : doc.issuer !== issuer) {
      throw new OAuthFlowError(
        "server_metadata",
        `authorization-server metadata ${url.href} names issuer ${JSON.stringify(String(doc.issuer).slice(0, 200))}, expected ${JSON.stringify(issuer)}`,
      );
    }
    for (const k of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "jwks_uri"] as const) {
      if (doc[k] !== undefined && (typeof doc[k] !== "string" || !URL.canParse(doc[k]))) {
        throw new OAuthFlowError("server_metadata", `authorization-server metadata ${url.href}: "${k}" is not a URL`);
      }
    }
    for (const k of [
      "scopes_supported",
      "grant_types_supported",
      "token_endpoint_auth_methods_supported",
      "code_challenge_methods_supported",
    ] as const) {
      if (
        doc[k] !== undefined &&
        (!Array.isArray(doc[k]) || !(doc[k] as unknown[]).every((x) => typeof x === "string"))
      ) {
        throw new OAuthFlowError(
          "server_metadata",
          `authorization-server metadata ${url.href}: "${k}" must be an array of strings`,
        );
      }
    }
    return doc as unknown as AuthorizationServer;
  }
  return undefined;
}

/** 2025-03-26: no metadata anywhere, so the endpoints are fixed paths at the server's origin. */
export function fallbackServer(server: URL): AuthorizationServer {
  return {
    issuer: server.origin,
    authorization_endpoint: new URL("/authorize", server.origin).href,
    token_endpoint: new URL("/token", server.origin).href,
    registration_endpoint: new URL("/register", server.origin).href,
  };
}
