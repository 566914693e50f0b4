/**
 * `@mcpgen/runtime/auth/server`: the resource-server half of `@mcpgen/runtime/auth` alone
 * (`createResourceServer`, `jwtVerifier`), for the `auth` option of the node:http and fetch
 * handlers. Unlike the whole auth entry (whose OAuth client brings node:http's loopback redirect
 * listener and node:crypto's key import) it loads no Node module: the guard runs on Workers too.
 */
export {
  createResourceServer,
  InvalidTokenError,
  type ResourceServerGuard,
  type ResourceServerOptions,
  type TokenVerifier,
} from "./server/guard.js";
export { jwtVerifier, type JwtVerifierOptions } from "./server/jwt.js";
export type { AuthInfo } from "./principal.js";
export type { AuthHttpLimits } from "./fetch.js";
