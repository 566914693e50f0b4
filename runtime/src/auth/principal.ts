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
