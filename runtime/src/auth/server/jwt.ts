/**
 * A ready TokenVerifier for JWT access tokens (RFC 9068) signed by an authorization server whose
 * keys are published at its JWKS URL: signature, `iss`, `exp`, `nbf`, `aud` = this resource, `typ`
 * at+jwt — checked by oauth4webapi's `validateJwtAccessToken`, with the JWKS cached — and `iat`
 * not in the future, which oauth4webapi only type-checks. All three time claims allow the same
 * bounded clock tolerance.
 */
import type { HttpRequestHead } from "../../http-exchange.js";
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
  /**
   * Clock difference tolerated between this server and the issuer, in seconds (default 60, at
   * most 300): a token is refused when its `iat` or `nbf` is further in the future, or its `exp`
   * further in the past.
   */
  clockToleranceSeconds?: number;
}

/** Default of `clockToleranceSeconds`: ordinary drift between two hosts' clocks. */
const DEFAULT_CLOCK_TOLERANCE_S = 60;
/** Its bound: more than a few minutes is no longer tolerance of drift but acceptance of expired tokens. */
const MAX_CLOCK_TOLERANCE_S = 300;

export function jwtVerifier(o: JwtVerifierOptions): TokenVerifier {
  const tolerance = o.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_S;
  if (!(tolerance >= 0 && tolerance <= MAX_CLOCK_TOLERANCE_S)) {
    throw new RangeError(
      `jwtVerifier: clockToleranceSeconds must be between 0 and ${MAX_CLOCK_TOLERANCE_S} (got ${tolerance})`,
    );
  }
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
    async verify(token: string, req: HttpRequestHead): Promise<AuthInfo> {
      const meta = await server();
      // A DPoP-bound token (`cnf.jkt`) is checked with its proof, so the request is rebuilt as the
      // client addressed it: its method, the resource's origin, its scheme and DPoP header.
      const dpop = req.headers.dpop;
      const authorization = req.headers.authorization;
      const scheme = typeof authorization === "string" && /^DPoP /i.test(authorization) ? "DPoP" : "Bearer";
      const headers: Record<string, string> = { authorization: `${scheme} ${token}` };
      if (typeof dpop === "string") headers.dpop = dpop;
      const base = URL.canParse(o.audience) ? o.audience : "http://resource.invalid";
      const request = new Request(new URL(req.url ?? "/", base), { method: req.method ?? "GET", headers });
      let claims: oauth.JWTAccessTokenClaims;
      try {
        claims = await oauth.validateJwtAccessToken(meta, request, o.audience, {
          [oauth.customFetch]: fetchFn,
          [oauth.allowInsecureRequests]: insecure(meta.jwks_uri),
          [oauth.jwksCache]: cache,
          [oauth.clockTolerance]: tolerance,
          ...(o.algorithms ? { signingAlgorithms: o.algorithms } : {}),
        });
      } catch (e) {
        throw new InvalidTokenError(describe(e), { cause: e });
      }
      // RFC 9068 §2.2 makes `iat` required (oauth4webapi checks it is a number); one ahead of our
      // clock is a token from a skewed or compromised issuer, valid for longer than it says.
      if (claims.iat > Math.floor(Date.now() / 1000) + tolerance)
        throw new InvalidTokenError("token issued in the future");
      const info: AuthInfo = {
        scopes: typeof claims.scope === "string" ? claims.scope.split(" ").filter((s) => s !== "") : [],
        claims,
      };
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
  if (/"nbf"/.test(msg)) return "token is not valid yet";
  if (/"exp"|expired|timestamp/i.test(msg)) return "token expired";
  if (/"iss"/.test(msg)) return "token issuer is not accepted";
  if (/signature/i.test(msg)) return "token signature is invalid";
  return msg.replace(/[\r\n]/g, " ").slice(0, 200);
}
