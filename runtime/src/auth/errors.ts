/** What went wrong during authorization; stable strings a host can switch on. */
export type OAuthErrorCode =
  /** Protected-resource metadata is missing, malformed, or names another resource. */
  | "resource_metadata"
  /** The PRM `resource` does not match the MCP server the client is talking to. */
  | "resource_mismatch"
  /** Authorization-server metadata is missing, malformed, or its `issuer` is not the expected one. */
  | "server_metadata"
  /** The authorization response's `iss` is wrong, or missing although the server promised it (RFC 9207). */
  | "issuer_mismatch"
  /** The authorization response is an error, or its `state` does not match. */
  | "authorization_response"
  /** Dynamic client registration failed or is unavailable and no other client identity is configured. */
  | "registration"
  /** The token endpoint refused or answered nonsense. */
  | "token"
  /** No grant this client can perform is offered (e.g. no user agent and no client credentials). */
  | "unsupported"
  /** An HTTP exchange with an authorization party failed: status, size or time limit. */
  | "http";

/**
 * An authorization failure. Messages name what was wrong and where (URLs, issuers, field names);
 * they never contain a token, a client secret, a code or a code verifier.
 */
export class OAuthFlowError extends Error {
  readonly code: OAuthErrorCode;
  constructor(code: OAuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OAuthFlowError";
    this.code = code;
  }
}
