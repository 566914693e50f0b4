/**
 * `@mcpgen/runtime/auth/client`: the OAuth 2.1 client alone (`OAuthClient`, its token store),
 * without the loopback redirect listener (node:http) or the resource-server side: what an agent
 * on Cloudflare Workers, Bun, Deno or in a browser passes as the `auth` of an HTTP client
 * transport from `@mcpgen/runtime/http-client`. `@mcpgen/runtime/auth` exports the same classes.
 */
export {
  OAuthClient,
  type OAuthClientOptions,
  type AuthorizationUserAgent,
  type PreRegisteredClient,
} from "./auth/client.js";
export { OAuthFlowError, type OAuthErrorCode } from "./auth/errors.js";
export { InMemoryOAuthStore, type OAuthStore, type TokenSet, type ClientRegistration } from "./auth/store.js";
export { parseBearerChallenge, type BearerChallenge } from "./auth/challenge.js";
export { MAX_AUTH_ROUNDS, type HttpAuthorizer, type AuthChallengeAnswer } from "./auth/hook.js";
export type { AuthHttpLimits } from "./auth/fetch.js";
