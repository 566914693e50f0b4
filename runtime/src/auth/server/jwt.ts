/**
 * A ready TokenVerifier for JWT access tokens (RFC 9068) signed by an authorization server whose
 * keys are published at its JWKS URL: signature, `iss`, `exp`, `aud` = this resource, `typ`
 * at+jwt — all checked by oauth4webapi's `validateJwtAccessToken`, with the JWKS cached.
 */
import type { IncomingMessage } from "node:http";
import * as oauth from "oauth4webapi";
import { discoverServer } from "../discovery.js";
import { boundedFetch, type AuthHttpLimits } from "../fetch.js";
import type { AuthInfo } from "../principal.js";
import { InvalidTokenError, type TokenVerifier } from "./guard.js";

export interface JwtVerifierOptions extends AuthHttpLimits {
  /** The authorization server's issuer identifier (exactly as in its tokens' `iss`). */
  issuer: string;
  /** Its JWKS URL; default: read from its metadata (RFC 8414 / OpenID discovery). */
  jwksUri?: string;
  /** The audience tokens must carry: this server's resource identifier. */
  audience: string;
  /** Accepted JWS algorithms (default: all oauth4webapi supports). */
  algorithms?: string[];
  /** Plain-http issuer/JWKS allowed (default: only for loopback hosts). */
  allowHttp?: boolean;
}

export function jwtVerifier(o: JwtVerifierOptions): TokenVerifier {
  const fetchFn = boundedFetch(o);
  const cache: oauth.JWKSCacheInput = {};
  let as: Promise<oauth.AuthorizationServer> | undefined;
  const server = (): Promise<oauth.AuthorizationServer> => {
    as ??= (async () => {
      if (o.jwksUri !== undefined) return { issuer: o.issuer, jwks_uri: o.jwksUri };
      const meta = await discoverServer(fetchFn, o.issuer);
      if (meta?.jwks_uri === undefined) throw new Error(`authorization server ${o.issuer} publishes no jwks_uri`);
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
    async verify(token: string, req: IncomingMessage): Promise<AuthInfo> {
      const meta = await server();
      const request = new Request(`http://resource.invalid${req.url ?? "/"}`, { method: "GET", headers: { authorization: `Bearer ${token}` } });
      let claims: oauth.JWTAccessTokenClaims;
      try {
        claims = await oauth.validateJwtAccessToken(meta, request, o.audience, {
          [oauth.customFetch]: fetchFn,
          [oauth.allowInsecureRequests]: insecure(meta.jwks_uri),
          [oauth.jwksCache]: cache,
          ...(o.algorithms ? { signingAlgorithms: o.algorithms } : {}),
        });
      } catch (e) {
        throw new InvalidTokenError(describe(e), { cause: e });
      }
      const info: AuthInfo = { scopes: typeof claims.scope === "string" ? claims.scope.split(" ").filter((s) => s !== "") : [], claims };
      if (typeof claims.sub === "string") info.subject = claims.sub;
      if (typeof claims.client_id === "string") info.clientId = claims.client_id;
      if (typeof claims.exp === "number") info.expiresAt = claims.exp;
      return info;
    },
  };
}

/** A refusal reason without the token or its claims in it. */
function describe(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  if (/"aud"/.test(msg)) return "token audience is not this resource";
  if (/"exp"|expired|timestamp/i.test(msg)) return "token expired";
  if (/"iss"/.test(msg)) return "token issuer is not accepted";
  if (/signature/i.test(msg)) return "token signature is invalid";
  return msg.replace(/[\r\n]/g, " ").slice(0, 200);
}
