/** What an OAuth client keeps between requests and, with a persistent store, between runs. */

/** A client identity at one authorization server (from registration, CIMD or configuration). */
export interface ClientRegistration {
  client_id: string;
  client_secret?: string;
  /** How this client authenticates at the token endpoint. */
  token_endpoint_auth_method: string;
  /** When the registration's secret expires (seconds since the epoch; 0 or absent: never). */
  client_secret_expires_at?: number;
}

export interface TokenSet {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  /** Milliseconds since the epoch; absent when the server did not say. */
  expires_at?: number;
  /** The scopes granted (the server's `scope`, else the ones requested). */
  scopes: string[];
  /** The authorization server that issued the tokens. */
  issuer: string;
}

/**
 * Where a client keeps registrations (keyed by issuer) and tokens (keyed by resource). Keys are
 * opaque strings; values are plain JSON, so a store can persist them (a keychain, a file with
 * restrictive permissions). Implementations must not log values: they hold secrets.
 */
export interface OAuthStore {
  get(key: string): Promise<unknown> | unknown;
  set(key: string, value: unknown): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** The default store: process memory, gone when the process ends. */
export class InMemoryOAuthStore implements OAuthStore {
  private readonly map = new Map<string, unknown>();
  get(key: string): unknown {
    const v = this.map.get(key);
    return v === undefined ? undefined : structuredClone(v);
  }
  set(key: string, value: unknown): void {
    this.map.set(key, structuredClone(value));
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

export const storeKeys = {
  client: (issuer: string): string => `client:${issuer}`,
  tokens: (resource: string): string => `tokens:${resource}`,
};
