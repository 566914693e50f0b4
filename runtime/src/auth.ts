/**
 * `@mcpgen/runtime/auth`: OAuth 2.1 authorization for MCP over HTTP.
 * Client: `OAuthClient` (pass it as the `auth` option of an HTTP client transport), its token
 * store, and a loopback redirect listener for command-line tools.
 * Server: `createResourceServer` (pass it as the `auth` option of the Streamable HTTP server)
 * with a pluggable token verifier; `jwtVerifier` checks RFC 9068 JWTs against the issuer's JWKS,
 * `introspectionVerifier` asks the issuer about opaque tokens (RFC 7662).
 * Both sides speak DPoP (RFC 9449) when configured; the client also performs the JWT-bearer grant
 * for workload identity and enterprise-managed authorization.
 */
export {
  OAuthClient,
  type OAuthClientOptions,
  type AuthorizationUserAgent,
  type PreRegisteredClient,
  type EnterpriseAuthorization,
  type WorkloadIdentity,
  type DPoPOptions,
} from "./auth/client.js";
export { OAuthFlowError, type OAuthErrorCode } from "./auth/errors.js";
export { InMemoryOAuthStore, type OAuthStore, type TokenSet, type ClientRegistration } from "./auth/store.js";
export { listenForRedirect, type LoopbackRedirect, type LoopbackRedirectOptions } from "./auth/loopback.js";
export { parseBearerChallenge, type BearerChallenge } from "./auth/challenge.js";
export { MAX_AUTH_ROUNDS, type HttpAuthorizer, type AuthChallengeAnswer } from "./auth/hook.js";
export type { AuthHttpLimits } from "./auth/fetch.js";
export type { AuthInfo } from "./auth/principal.js";
export {
  createResourceServer,
  InvalidTokenError,
  type ResourceServerGuard,
  type ResourceServerOptions,
  type TokenVerifier,
  type DPoPGuardOptions,
} from "./auth/server/guard.js";
export { jwtVerifier, type JwtVerifierOptions } from "./auth/server/jwt.js";
export { introspectionVerifier, type IntrospectionVerifierOptions } from "./auth/server/introspection.js";
