import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { AuthInfo } from "../auth/principal.js";

/**
 * The manifest's `auth.scopes` of a tool, checked against the verified principal when there is one
 * (an HTTP endpoint with a resource-server guard; the guard itself answers 403 when it was given
 * the same table). Without a principal (stdio, unguarded HTTP) nothing is enforced here. Both eras'
 * `tools/call` handlers call it.
 */
export function checkScopes(tool: string, need: readonly string[] | undefined, auth: AuthInfo | undefined): void {
  if (need === undefined || auth === undefined) return;
  const missing = need.filter((s) => !auth.scopes.includes(s));
  if (missing.length > 0)
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Tool ${JSON.stringify(tool)} needs OAuth scope ${missing.join(" ")}, which the access token does not grant`,
    );
}
