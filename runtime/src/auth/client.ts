/**
 * `OAuthClient`: an MCP client's side of authorization (MCP spec, "Authorization", 2025-03-26 …
 * 2026-07-28), plugged into the HTTP client transports as their `auth` option. It is passive
 * until the server refuses a request: on 401 it discovers the authorization server, obtains a
 * client identity and a token, and the transport repeats the request; on 403 insufficient_scope
 * it re-authorizes for the union of the granted and the challenged scopes. The OAuth mechanics
 * (PKCE, client authentication, token and registration requests and responses, RFC 9207 `iss`
 * checks) are oauth4webapi's.
 */
import type { webcrypto } from "node:crypto";
import * as oauth from "oauth4webapi";
import { parseBearerChallenge } from "./challenge.js";
import { discoverResource, discoverServer, fallbackServer, type Fetch, type ResourceMetadata } from "./discovery.js";
import { OAuthFlowError } from "./errors.js";
import { boundedFetch, type AuthHttpLimits } from "./fetch.js";
import type { AuthChallengeAnswer, HttpAuthorizer } from "./hook.js";
import { importPrivateKeyPem } from "./keys.js";
import { InMemoryOAuthStore, storeKeys, type ClientRegistration, type OAuthStore, type TokenSet } from "./store.js";
import { registerClient, pickAuthMethod } from "./registration.js";

/** Where the user's browser goes, and how the redirect comes back (see `listenForRedirect`). */
export interface AuthorizationUserAgent {
  /** The redirect URI of this client (registered with the authorization server). */
  readonly redirectUri: string;
  /** Sends the user to `url`; resolves with the full URL the authorization server redirected back to. */
  authorize(url: URL, signal: AbortSignal): Promise<URL>;
}

/** Credentials issued out of band (pre-registration, or a machine client's identity). */
export interface PreRegisteredClient {
  client_id: string;
  client_secret?: string;
  /** For `private_key_jwt`: a PKCS#8 PEM or a signing CryptoKey. */
  private_key?: string | webcrypto.CryptoKey;
  /** JWS algorithm of `private_key` (default ES256). */
  signing_algorithm?: string;
  /** Default: chosen from the key/secret and what the server supports. */
  token_endpoint_auth_method?: string;
  /** The issuer these credentials belong to. Default: the first authorization server met. */
  issuer?: string;
}

export interface OAuthClientOptions extends AuthHttpLimits {
  /** The MCP endpoint the tokens are for. */
  server: string | URL;
  /** Runs the authorization-code flow (a person authorizes in a browser). */
  userAgent?: AuthorizationUserAgent;
  /** Pre-registered credentials; with a secret or key they also enable the client-credentials grant. */
  client?: PreRegisteredClient;
  /** This client's metadata document URL (CIMD), used as `client_id` where the server supports it. */
  clientMetadataUrl?: string;
  /** Metadata sent with dynamic client registration (`client_name`, `client_uri`, …). */
  clientMetadata?: Record<string, unknown>;
  /** Scopes requested on every authorization besides the ones the server asks for. */
  scopes?: string[];
  /** Ask for `offline_access` (refresh tokens) when the authorization server lists it (default true). */
  offlineAccess?: boolean;
  /** Registrations and tokens (default: in memory). */
  store?: OAuthStore;
  /** Plain-http authorization parties: "loopback" (default) allows only 127.0.0.0/8, ::1 and localhost. */
  allowHttp?: boolean | "loopback";
  /** Bound on the user's authorization in the browser (default 300000 ms). */
  authorizationTimeoutMs?: number;
  /** Progress messages (never tokens, secrets or codes). */
  log?: (message: string) => void;
}

const EXPIRY_SKEW_MS = 30_000;

export class OAuthClient implements HttpAuthorizer {
  readonly server: URL;
  private readonly o: OAuthClientOptions;
  private readonly store: OAuthStore;
  private readonly fetch: Fetch;
  private resourceMeta: ResourceMetadata | undefined;
  private as: oauth.AuthorizationServer | undefined;
  private flow: Promise<void> | undefined;
  private boundIssuer: string | undefined;
  private lastRequested: string[] = [];

  constructor(options: OAuthClientOptions) {
    this.o = options;
    this.server = new URL(options.server);
    this.store = options.store ?? new InMemoryOAuthStore();
    this.fetch = boundedFetch(options);
    this.boundIssuer = options.client?.issuer;
  }

  /** The tokens currently held for this server, if any. */
  async tokens(): Promise<TokenSet | undefined> {
    return (await this.store.get(storeKeys.tokens(this.server.href))) as TokenSet | undefined;
  }

  async authorization(url: URL): Promise<string | undefined> {
    // A token is only ever sent to the server it was obtained for.
    if (url.origin !== this.server.origin) return undefined;
    if (this.flow) await this.flow.catch(() => {});
    let t = await this.tokens();
    if (t === undefined) return undefined;
    if (t.expires_at !== undefined && t.expires_at - EXPIRY_SKEW_MS <= Date.now()) {
      // Without the server's metadata at hand (a token from an earlier run) the request goes out
      // bare; the 401 then discovers the server and refreshes with the kept refresh token.
      const refreshed = t.refresh_token !== undefined && this.as?.issuer === t.issuer ? await this.refresh(t).catch(() => undefined) : undefined;
      if (refreshed === undefined && t.refresh_token === undefined) await this.store.delete(storeKeys.tokens(this.server.href));
      t = refreshed;
    }
    return t === undefined ? undefined : `Bearer ${t.access_token}`;
  }

  async challenged(answer: AuthChallengeAnswer): Promise<boolean> {
    if (this.flow) {
      await this.flow;
      return true;
    }
    const challenge = parseBearerChallenge(answer.wwwAuthenticate);
    if (answer.status === 403 && challenge?.error !== "insufficient_scope") return false;
    const run = this.react(answer.status, challenge?.scope, challenge?.resourceMetadata, answer.attempt, challenge?.errorDescription);
    this.flow = run.finally(() => {
      this.flow = undefined;
    });
    await this.flow;
    return true;
  }

  private async react(status: 401 | 403, challengeScope: string | undefined, resourceMetadata: string | undefined, attempt: number, why: string | undefined): Promise<void> {
    const held = await this.tokens();
    const prm = await this.discover(resourceMetadata);
    const as = await this.serverMetadata(prm);
    if (status === 401 && attempt > 0 && held !== undefined && held.issuer === as.issuer) {
      // The token this request just obtained was refused too: another authorization (another
      // browser prompt for the user) would end the same way.
      throw new OAuthFlowError("token", `${this.server.origin}${this.server.pathname} refused the access token just issued by ${as.issuer}${why ? `: ${why.slice(0, 200)}` : ""}`);
    }
    if (held !== undefined && held.issuer !== as.issuer) {
      this.log(`authorization server changed from ${held.issuer} to ${as.issuer}: tokens dropped`);
      await this.store.delete(storeKeys.tokens(this.server.href));
    } else if (status === 401 && held?.refresh_token !== undefined) {
      if ((await this.refresh(held).catch((e: Error) => this.log(`refresh failed: ${e.message}`))) !== undefined) return;
    }
    const challenged = challengeScope?.split(" ").filter((s) => s !== "");
    let scopes: string[];
    if (status === 403) {
      // Step-up keeps what was granted or asked for (SEP-2350) and adds what the server wants.
      scopes = union(held?.scopes ?? [], this.lastRequested, challenged ?? []);
    } else {
      const base = challenged ?? prm?.scopesSupported ?? [];
      scopes = union(held?.issuer === as.issuer ? held.scopes : [], base);
    }
    scopes = union(scopes, this.o.scopes ?? []);
    await this.obtain(as, prm, scopes);
  }

  private async discover(fromChallenge: string | undefined): Promise<ResourceMetadata | undefined> {
    this.checkUrl(this.server, "MCP server");
    const prm = await discoverResource(this.fetch, this.server, fromChallenge);
    if (prm === undefined) this.log("no protected-resource metadata: 2025-03-26 discovery");
    else if (prm.resource !== this.resourceMeta?.resource || prm.authorizationServers[0] !== this.resourceMeta?.authorizationServers[0]) {
      this.log(`resource ${prm.resource}, authorization server ${prm.authorizationServers[0]}`);
    }
    this.resourceMeta = prm;
    return prm;
  }

  private async serverMetadata(prm: ResourceMetadata | undefined): Promise<oauth.AuthorizationServer> {
    let as: oauth.AuthorizationServer | undefined;
    if (prm !== undefined) {
      const issuer = prm.authorizationServers[0]!;
      this.checkUrl(new URL(issuer), "authorization server");
      as = await discoverServer(this.fetch, issuer);
      if (as === undefined) throw new OAuthFlowError("server_metadata", `authorization server ${issuer} publishes no metadata (tried RFC 8414 and OpenID Connect discovery)`);
    } else {
      const sameOrigin = (iss: unknown): boolean => typeof iss === "string" && URL.canParse(iss) && new URL(iss).origin === this.server.origin;
      as = (await discoverServer(this.fetch, this.server.origin, sameOrigin)) ?? fallbackServer(this.server);
    }
    for (const k of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
      if (typeof as[k] === "string") this.checkUrl(new URL(as[k]), k);
    }
    this.as = as;
    return as;
  }

  /** Gets tokens from `as` for `scopes` with the grant this client can perform. */
  private async obtain(as: oauth.AuthorizationServer, prm: ResourceMetadata | undefined, scopes: string[]): Promise<void> {
    const grants = as.grant_types_supported;
    const machine = this.o.client !== undefined && (this.o.client.client_secret !== undefined || this.o.client.private_key !== undefined);
    if (this.o.userAgent !== undefined && (grants === undefined || grants.includes("authorization_code"))) {
      return this.authorizationCode(as, prm, scopes, this.o.userAgent);
    }
    if (machine && grants?.includes("client_credentials")) return this.clientCredentials(as, prm, scopes);
    throw new OAuthFlowError(
      "unsupported",
      `no usable grant at ${as.issuer}: it offers ${JSON.stringify(grants ?? ["authorization_code"])}; this client has ${this.o.userAgent ? "a user agent" : "no user agent"} and ${machine ? "client credentials" : "no client credentials"}`,
    );
  }

  private async authorizationCode(as: oauth.AuthorizationServer, prm: ResourceMetadata | undefined, requested: string[], ua: AuthorizationUserAgent): Promise<void> {
    if (as.code_challenge_methods_supported !== undefined || prm !== undefined) {
      if (!as.code_challenge_methods_supported?.includes("S256")) {
        throw new OAuthFlowError("unsupported", `authorization server ${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported), refusing to proceed`);
      }
    }
    const scopes = this.wantsOffline(as) ? union(requested, ["offline_access"]) : requested;
    const reg = await this.identity(as, ua.redirectUri);
    const client: oauth.Client = { client_id: reg.client_id, token_endpoint_auth_method: reg.token_endpoint_auth_method };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", reg.client_id);
    url.searchParams.set("redirect_uri", ua.redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "));
    if (prm !== undefined) url.searchParams.set("resource", prm.resource);
    this.lastRequested = scopes;
    this.log(`authorizing at ${as.issuer}${scopes.length ? ` for scope "${scopes.join(" ")}"` : ""}`);
    const callback = await ua.authorize(url, AbortSignal.timeout(this.o.authorizationTimeoutMs ?? 300_000));
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, callback, state);
    } catch (e) {
      if (e instanceof oauth.AuthorizationResponseError) {
        throw new OAuthFlowError("authorization_response", `authorization refused by ${as.issuer}: ${e.error}${e.error_description ? ` (${e.error_description})` : ""}`);
      }
      const msg = (e as Error).message;
      const code = /"iss"/.test(msg) ? "issuer_mismatch" : "authorization_response";
      const iss = callback.searchParams.get("iss");
      throw new OAuthFlowError(code, `authorization response rejected: ${msg} (expected issuer ${JSON.stringify(as.issuer)}, got ${iss === null ? "none" : JSON.stringify(iss.slice(0, 200))})`);
    }
    const extra: Record<string, string> = prm !== undefined ? { resource: prm.resource } : {};
    const res = await this.tokenCall("authorization code", () =>
      oauth.authorizationCodeGrantRequest(as, client, this.clientAuth(reg), params, ua.redirectUri, verifier, { ...this.httpOptions(as), additionalParameters: extra }),
    );
    const t = await this.tokenCall("authorization code", () => oauth.processAuthorizationCodeResponse(as, client, res));
    await this.keep(as, t, scopes);
  }

  private async clientCredentials(as: oauth.AuthorizationServer, prm: ResourceMetadata | undefined, scopes: string[]): Promise<void> {
    const c = this.o.client!;
    const reg = await this.preRegistered(as, c);
    const client: oauth.Client = { client_id: reg.client_id, token_endpoint_auth_method: reg.token_endpoint_auth_method };
    const params: Record<string, string> = {};
    if (scopes.length > 0) params.scope = scopes.join(" ");
    if (prm !== undefined) params.resource = prm.resource;
    this.lastRequested = scopes;
    this.log(`client credentials at ${as.issuer} (${reg.token_endpoint_auth_method})`);
    const auth = await this.clientAuthFor(reg, c);
    const res = await this.tokenCall("client credentials", () => oauth.clientCredentialsGrantRequest(as, client, auth, params, this.httpOptions(as)));
    const t = await this.tokenCall("client credentials", () => oauth.processClientCredentialsResponse(as, client, res));
    await this.keep(as, t, scopes);
  }

  private async refresh(held: TokenSet): Promise<TokenSet> {
    const as = this.as;
    if (as === undefined || as.issuer !== held.issuer || held.refresh_token === undefined) throw new OAuthFlowError("token", "no refresh possible");
    const reg = (await this.store.get(storeKeys.client(as.issuer))) as ClientRegistration | undefined;
    if (reg === undefined) throw new OAuthFlowError("token", `no client registration for ${as.issuer}`);
    const client: oauth.Client = { client_id: reg.client_id, token_endpoint_auth_method: reg.token_endpoint_auth_method };
    const extra: Record<string, string> = this.resourceMeta !== undefined ? { resource: this.resourceMeta.resource } : {};
    this.log(`refreshing the access token at ${as.issuer}`);
    const auth = await this.clientAuthFor(reg, this.o.client);
    const res = await this.tokenCall("refresh", () => oauth.refreshTokenGrantRequest(as, client, auth, held.refresh_token!, { ...this.httpOptions(as), additionalParameters: extra }));
    const t = await this.tokenCall("refresh", () => oauth.processRefreshTokenResponse(as, client, res));
    return this.keep(as, t, held.scopes, held.refresh_token);
  }

  private async keep(as: oauth.AuthorizationServer, t: oauth.TokenEndpointResponse, requested: string[], oldRefresh?: string): Promise<TokenSet> {
    if (t.token_type.toLowerCase() !== "bearer") throw new OAuthFlowError("token", `token endpoint of ${as.issuer} issued a ${JSON.stringify(t.token_type)} token; only Bearer is supported`);
    const set: TokenSet = {
      access_token: t.access_token,
      token_type: "Bearer",
      scopes: typeof t.scope === "string" ? t.scope.split(" ").filter((s) => s !== "") : requested,
      issuer: as.issuer,
    };
    const refresh = t.refresh_token ?? oldRefresh;
    if (refresh !== undefined) set.refresh_token = refresh;
    if (typeof t.expires_in === "number") set.expires_at = Date.now() + t.expires_in * 1000;
    await this.store.set(storeKeys.tokens(this.server.href), set);
    this.log(`token from ${as.issuer}${set.scopes.length ? ` with scope "${set.scopes.join(" ")}"` : ""}${set.refresh_token ? " (refreshable)" : ""}`);
    return set;
  }

  /** This client's identity at `as`: configured, remembered, CIMD, or freshly registered (in that order). */
  private async identity(as: oauth.AuthorizationServer, redirectUri: string): Promise<ClientRegistration> {
    const c = this.o.client;
    if (c !== undefined && (this.boundIssuer === undefined || this.boundIssuer === as.issuer)) return this.preRegistered(as, c);
    const key = storeKeys.client(as.issuer);
    const known = (await this.store.get(key)) as ClientRegistration | undefined;
    const expired = known?.client_secret_expires_at !== undefined && known.client_secret_expires_at > 0 && known.client_secret_expires_at * 1000 <= Date.now();
    if (known !== undefined && !expired) return known;
    if (this.o.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
      this.log(`client id metadata document ${this.o.clientMetadataUrl}`);
      return { client_id: this.o.clientMetadataUrl, token_endpoint_auth_method: "none" };
    }
    if (typeof as.registration_endpoint !== "string") {
      throw new OAuthFlowError("registration", `authorization server ${as.issuer} offers no dynamic client registration and no client is configured for it`);
    }
    const reg = await registerClient(as, redirectUri, this.o.clientMetadata ?? {}, this.httpOptions(as));
    this.log(`registered at ${as.issuer} (${reg.token_endpoint_auth_method})`);
    await this.store.set(key, reg);
    return reg;
  }

  private async preRegistered(as: oauth.AuthorizationServer, c: PreRegisteredClient): Promise<ClientRegistration> {
    if (this.boundIssuer !== undefined && this.boundIssuer !== as.issuer) {
      throw new OAuthFlowError("registration", `the configured client belongs to ${this.boundIssuer}, not to ${as.issuer}`);
    }
    this.boundIssuer = as.issuer;
    const method =
      c.token_endpoint_auth_method ??
      (c.private_key !== undefined ? "private_key_jwt" : c.client_secret !== undefined ? pickAuthMethod(as, ["client_secret_basic", "client_secret_post"]) : "none");
    const reg: ClientRegistration = { client_id: c.client_id, token_endpoint_auth_method: method };
    if (c.client_secret !== undefined) reg.client_secret = c.client_secret;
    await this.store.set(storeKeys.client(as.issuer), reg);
    return reg;
  }

  private clientAuth(reg: ClientRegistration): oauth.ClientAuth {
    const secret = (): string => {
      if (reg.client_secret === undefined) throw new OAuthFlowError("token", `${reg.token_endpoint_auth_method} needs a client secret and the client has none`);
      return reg.client_secret;
    };
    switch (reg.token_endpoint_auth_method) {
      case "none":
        return oauth.None();
      case "client_secret_basic":
        return secretBasic(secret());
      case "client_secret_post":
        return oauth.ClientSecretPost(secret());
      default:
        throw new OAuthFlowError("unsupported", `token endpoint auth method ${JSON.stringify(reg.token_endpoint_auth_method)} is not supported`);
    }
  }

  private async clientAuthFor(reg: ClientRegistration, c: PreRegisteredClient | undefined): Promise<oauth.ClientAuth> {
    if (reg.token_endpoint_auth_method !== "private_key_jwt") return this.clientAuth(reg);
    if (c?.private_key === undefined) throw new OAuthFlowError("token", "private_key_jwt needs a private key and the client has none");
    const key = typeof c.private_key === "string" ? await importPrivateKeyPem(c.private_key, c.signing_algorithm ?? "ES256") : c.private_key;
    return oauth.PrivateKeyJwt(key);
  }

  private wantsOffline(as: oauth.AuthorizationServer): boolean {
    return this.o.offlineAccess !== false && (as.scopes_supported?.includes("offline_access") ?? false);
  }

  private httpOptions(as: oauth.AuthorizationServer): { [oauth.customFetch]: Fetch; [oauth.allowInsecureRequests]: boolean } {
    const endpoints = [as.token_endpoint, as.registration_endpoint].filter((x): x is string => typeof x === "string");
    return { [oauth.customFetch]: this.fetch, [oauth.allowInsecureRequests]: endpoints.every((e) => this.httpAllowed(new URL(e))) };
  }

  /** Token-endpoint exchanges: library errors become typed errors that name the server's error code only. */
  private async tokenCall<T>(what: string, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof OAuthFlowError) throw e;
      if (e instanceof oauth.ResponseBodyError) {
        throw new OAuthFlowError("token", `${what} grant refused: HTTP ${e.status} ${e.error}${e.error_description ? ` (${String(e.error_description).slice(0, 200)})` : ""}`);
      }
      throw new OAuthFlowError("token", `${what} grant failed: ${(e as Error).message}`);
    }
  }

  private httpAllowed(url: URL): boolean {
    if (url.protocol === "https:") return true;
    const allow = this.o.allowHttp ?? "loopback";
    return allow === true || (allow === "loopback" && url.protocol === "http:" && isLoopback(url.hostname));
  }

  private checkUrl(url: URL, what: string): void {
    if (!this.httpAllowed(url)) throw new OAuthFlowError("http", `${what} ${url.origin} is not https (plain http is allowed for loopback hosts only)`);
  }

  private log(m: string): void {
    this.o.log?.(m);
  }
}

/**
 * client_secret_basic with RFC 6749 §2.3.1's form-urlencoding as WHATWG URLSearchParams does it
 * (letters, digits and `*-._` stay as they are). oauth4webapi also escapes `-`, `.`, `_`, which
 * servers that do not decode (the conformance suite's among them) then reject. The encoded pair is
 * ASCII, so `btoa` (on every host, unlike Buffer) encodes it as is.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  const enc = (v: string): string => new URLSearchParams({ v }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${enc(client.client_id)}:${enc(secret)}`)}`);
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function union(...lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())];
}
