/**
 * Who a verified access token speaks for, as handlers see it (`ctx.auth`). The token itself is
 * deliberately absent: an MCP server must not pass it on to other services (token passthrough
 * is forbidden by the MCP authorization spec), and what is absent cannot leak into a log.
 */
export interface AuthInfo {
  /** `sub`: the user or machine the token was issued for. */
  subject?: string;
  /** `client_id`: the client that obtained it. */
  clientId?: string;
  /** Scopes the token grants. */
  scopes: string[];
  /** Expiry, seconds since the epoch. */
  expiresAt?: number;
  /** Every claim the verifier exposes (JWT claims for the JWT verifier). */
  claims?: Readonly<Record<string, unknown>>;
}

/**
 * The identity a server binds state to (sessions, listens, tasks, quotas): the token's client and
 * subject. Two tokens of the same client for the same subject are one principal; `undefined`
 * without a verified principal (stdio, an unguarded endpoint). The format is persisted by durable
 * task stores as a task's owner, so it must not change.
 */
export function principalKey(auth: Pick<AuthInfo, "clientId" | "subject"> | undefined): string | undefined {
  if (auth === undefined) return undefined;
  return `${auth.clientId ?? ""}\u0000${auth.subject ?? ""}`;
}
