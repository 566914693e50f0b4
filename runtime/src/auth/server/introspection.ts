/**
 * A ready TokenVerifier for opaque access tokens: asks the authorization server (RFC 7662 token
 * introspection, authenticated as this resource server) whether a token is active, and accepts it
 * only when it is, has not expired, and names this resource among its audiences when it names
 * any. The introspection response is the principal's `claims`, so a DPoP-bound token's `cnf.jkt`
 * reaches the guard's proof check as it does from a JWT. Requests and responses are
 * oauth4webapi's; every exchange is bounded like the client's.
 */
import type { HttpRequestHead } from "../../http-exchange.js";
import * as oauth from "oauth4webapi";
import { discoverServer } from "../discovery.js";
import { boundedFetch, type AuthHttpLimits } from "../fetch.js";
import type { AuthInfo } from "../principal.js";
import { InvalidTokenError, type TokenVerifier } from "./guard.js";

export interface IntrospectionVerifierOptions extends AuthHttpLimits {
  /** The authorization server's issuer identifier. */
  issuer: string;
  /** Its introspection endpoint; default: read from its metadata. */
  introspectionEndpoint?: string;
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its secret there (client_secret_basic). */
  clientSecret: string;
  /** This server's resource identifier: a token naming other audiences only is refused. */
  audience: string;
  /** Plain-http authorization server allowed (default: only for loopback hosts). */
  allowHttp?: boolean;
}

export function introspectionVerifier(o: IntrospectionVerifierOptions): TokenVerifier {
  const fetchFn = boundedFetch(o);
  const client: oauth.Client = { client_id: o.clientId };
  const auth = oauth.ClientSecretBasic(o.clientSecret);
  let as: Promise<oauth.AuthorizationServer> | undefined;
  const server = (): Promise<oauth.AuthorizationServer> => {
    as ??= (async () => {
      if (o.introspectionEndpoint !== undefined)
        return { issuer: o.issuer, introspection_endpoint: o.introspectionEndpoint };
      const meta = await discoverServer(fetchFn, o.issuer);
      if (typeof meta?.introspection_endpoint !== "string")
        throw new Error(`authorization server ${o.issuer} publishes no introspection_endpoint`);
      return meta;
    })().catch((e: unknown) => {
      as = undefined;
      throw e;
    });
    return as;
  };
  const insecure = (url: string | undefined): boolean => {
    if (url === undefined) return false;
    const u = new URL(url);
    return u.protocol === "http:" && (o.allowHttp === true || ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname));
  };
  return {
    async verify(token: string, _req: HttpRequestHead): Promise<AuthInfo> {
      const meta = await server();
      let r: oauth.IntrospectionResponse;
      try {
        const res = await oauth.introspectionRequest(meta, client, auth, token, {
          [oauth.customFetch]: fetchFn,
          [oauth.allowInsecureRequests]: insecure(meta.introspection_endpoint),
        });
        r = await oauth.processIntrospectionResponse(meta, client, res);
      } catch (e) {
        // No verdict on the token: the guard refuses it without the authorization server's details.
        throw new Error(`token introspection at ${o.issuer} failed: ${(e as Error).message}`, { cause: e });
      }
      if (r.active !== true) throw new InvalidTokenError("token is not active");
      if (typeof r.exp === "number" && r.exp <= Math.floor(Date.now() / 1000))
        throw new InvalidTokenError("token expired");
      const aud = r.aud === undefined ? undefined : Array.isArray(r.aud) ? r.aud : [r.aud];
      if (aud !== undefined && !aud.includes(o.audience))
        throw new InvalidTokenError("token audience is not this resource");
      const info: AuthInfo = {
        scopes: typeof r.scope === "string" ? r.scope.split(" ").filter((s) => s !== "") : [],
        claims: r,
      };
      if (typeof r.sub === "string") info.subject = r.sub;
      if (typeof r.client_id === "string") info.clientId = r.client_id;
      if (typeof r.exp === "number") info.expiresAt = r.exp;
      return info;
    },
  };
}
