/**
 * `OAuthClient`: an MCP client's side of authorization (MCP spec, "Authorization", 2025-03-26 …
 * 2026-07-28), plugged into the HTTP client transports as their `auth` option. It is passive
 * until the server refuses a request: on 401 it discovers the authorization server, obtains a
 * client identity and a token, and the transport repeats the request; on 403 insufficient_scope
 * it re-authorizes for the union of the granted and the challenged scopes. Besides the user's
 * authorization code and a machine's client credentials it performs the JWT-bearer grant (RFC
 * 7523) for workload identity and for enterprise-managed authorization (an ID-JAG obtained by
 * RFC 8693 token exchange at the enterprise IdP), and binds tokens to a DPoP key (RFC 9449) when
 * configured. The OAuth mechanics (PKCE, client authentication, token, token-exchange and
 * registration requests and responses, DPoP proofs and nonces, RFC 9207 `iss` checks) are
 * oauth4webapi's.
 */
import * as oauth from "oauth4webapi";
import { parseBearerChallenge, parseSchemeChallenge } from "./challenge.js";
import type { DPoPKey, DPoPOptions } from "./dpop-client.js";
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
  private_key?: string | oauth.CryptoKey;
  /** JWS algorithm of `private_key` (default ES256). */
  signing_algorithm?: string;
  /** Default: chosen from the key/secret and what the server supports. */
  token_endpoint_auth_method?: string;
  /** The issuer these credentials belong to. Default: the first authorization server met. */
  issuer?: string;
}

/**
 * Enterprise-managed authorization (the `io.modelcontextprotocol/enterprise-managed-authorization`
 * extension): the user signed in at the enterprise's identity provider; its ID token is exchanged
 * there for an Identity Assertion JWT Authorization Grant (ID-JAG, RFC 8693 token exchange), which
 * the MCP server's authorization server takes in the JWT-bearer grant (RFC 7523) with this
 * client's own credentials (`client`). No browser, no consent screen.
 */
export interface EnterpriseAuthorization {
  /** The identity provider's token endpoint. */
  tokenEndpoint: string;
  /** The identity provider's issuer identifier (default: the token endpoint's origin). */
  issuer?: string;
  /** This client's id at the identity provider. */
  clientId: string;
  /** Its secret there (client_secret_basic), if it has one. */
  clientSecret?: string;
  /** The user's current ID token from the identity provider (asked on every exchange: it may have been renewed). */
  idToken(): string | Promise<string>;
}

/**
 * Workload identity federation (the `io.modelcontextprotocol/auth/wif` extension): a JWT issued to
 * this workload by its platform (a Kubernetes service-account token, a cloud identity document),
 * presented in the JWT-bearer grant (RFC 7523) with audience the authorization server.
 */
export interface WorkloadIdentity {
  /** The workload's current JWT (asked on every grant: platforms rotate them), e.g. read from a file. */
  assertion(): string | Promise<string>;
}

export type { DPoPOptions } from "./dpop-client.js";

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
  /** Enterprise-managed authorization: the JWT-bearer grant with an ID-JAG from the enterprise IdP. */
  enterprise?: EnterpriseAuthorization;
  /** Workload identity: the JWT-bearer grant with the workload's JWT (`client` names the client id). */
  workloadIdentity?: WorkloadIdentity;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449): `true` or options binds every token to this
   * client's key; `"auto"` does so where the authorization server lists
   * `dpop_signing_alg_values_supported` and the MCP server takes DPoP (it challenged with the
   * DPoP scheme, or its metadata lists DPoP algorithms). Default: bearer tokens.
   */
  dpop?: boolean | "auto" | DPoPOptions;
  /** Progress messages (never tokens, secrets or codes). */
  log?: (message: string) => void;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

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
  /** The DPoP key, made on the first token request that needs it and kept for this client's life. */
  private dpopKey: Promise<DPoPKey> | undefined;
  /** The MCP server has shown it takes DPoP (a DPoP challenge, or DPoP algorithms in its metadata). */
  private resourceTakesDPoP = false;

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
    const t = await this.current(url);
    return t === undefined ? undefined : `${t.token_type} ${t.access_token}`;
  }

  async headers(url: URL, method: string): Promise<Record<string, string> | undefined> {
    const t = await this.current(url);
    if (t === undefined) return undefined;
    if (t.token_type !== "DPoP") return { authorization: `Bearer ${t.access_token}` };
    // A token kept from an earlier run: its key is the configured key pair, if any.
    if (this.dpopKey === undefined && typeof this.o.dpop === "object" && this.o.dpop.keyPair !== undefined)
      this.makeKey(this.o.dpop, undefined);
    const key = await this.dpopKey?.catch(() => undefined);
    if (key === undefined) {
      // A DPoP-bound token whose key is gone: useless, so the 401 re-authorizes.
      await this.store.delete(storeKeys.tokens(this.server.href));
      return undefined;
    }
    return key.resourceHeaders(t.access_token, method, url);
  }

  nonce(url: URL, nonce: string): void {
    if (url.origin === this.server.origin)
      void this.dpopKey?.then(
        (k) => k.resourceNonce(url, nonce),
        () => {},
      );
  }

  /** The token to send to `url` (refreshed when about to expire), if any. */
  private async current(url: URL): Promise<TokenSet | undefined> {
    // A token is only ever sent to the server it was obtained for.
    if (url.origin !== this.server.origin) return undefined;
    if (this.flow) await this.flow.catch(() => {});
    let t = await this.tokens();
    if (t === undefined) return undefined;
    if (t.expires_at !== undefined && t.expires_at - EXPIRY_SKEW_MS <= Date.now()) {
      // Without the server's metadata at hand (a token from an earlier run) the request goes out
      // bare; the 401 then discovers the server and refreshes with the kept refresh token.
      const refreshed =
        t.refresh_token !== undefined && this.as?.issuer === t.issuer
          ? await this.refresh(t).catch(() => undefined)
          : undefined;
      if (refreshed === undefined && t.refresh_token === undefined)
        await this.store.delete(storeKeys.tokens(this.server.href));
      t = refreshed;
    }
    return t;
  }

  async challenged(answer: AuthChallengeAnswer): Promise<boolean> {
    // RFC 9449 §9: the resource server wants a proof with its nonce; the same token will do.
    if (answer.status === 401 && answer.dpopNonce !== undefined && this.dpopKey !== undefined) {
      const dpop = parseSchemeChallenge(answer.wwwAuthenticate, "dpop");
      if (dpop?.error === "use_dpop_nonce") {
        const key = await this.dpopKey.catch(() => undefined);
        if (key !== undefined) {
          key.resourceNonce(answer.url, answer.dpopNonce);
          return true;
        }
      }
    }
    if (this.flow) {
      await this.flow;
      return true;
    }
    const dpopChallenge = parseSchemeChallenge(answer.wwwAuthenticate, "dpop");
    if (dpopChallenge !== undefined) this.resourceTakesDPoP = true;
    const challenge = parseBearerChallenge(answer.wwwAuthenticate) ?? dpopChallenge;
    if (answer.status === 403 && challenge?.error !== "insufficient_scope") return false;
    const run = this.react(
      answer.status,
      challenge?.scope,
      challenge?.resourceMetadata,
      answer.attempt,
      challenge?.errorDescription,
    );
    this.flow = run.finally(() => {
      this.flow = undefined;
    });
    await this.flow;
    return true;
  }

  private async react(
    status: 401 | 403,
    challengeScope: string | undefined,
    resourceMetadata: string | undefined,
    attempt: number,
    why: string | undefined,
  ): Promise<void> {
    const held = await this.tokens();
    const prm = await this.discover(resourceMetadata);
    const as = await this.serverMetadata(prm);
    if (status === 401 && attempt > 0 && held !== undefined && held.issuer === as.issuer) {
      // The token this request just obtained was refused too: another authorization (another
      // browser prompt for the user) would end the same way.
      throw new OAuthFlowError(
        "token",
        `${this.server.origin}${this.server.pathname} refused the access token just issued by ${as.issuer}${why ? `: ${why.slice(0, 200)}` : ""}`,
      );
    }
    if (held !== undefined && held.issuer !== as.issuer) {
      this.log(`authorization server changed from ${held.issuer} to ${as.issuer}: tokens dropped`);
      await this.store.delete(storeKeys.tokens(this.server.href));
    } else if (status === 401 && held?.refresh_token !== undefined) {
      if ((await this.refresh(held).catch((e: Error) => this.log(`refresh failed: ${e.message}`))) !== undefined)
        return;
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
    else if (
      prm.resource !== this.resourceMeta?.resource ||
      prm.authorizationServers[0] !== this.resourceMeta?.authorizationServers[0]
    ) {
      this.log(`resource ${prm.resource}, authorization server ${prm.authorizationServers[0]}`);
    }
    this.resourceMeta = prm;
    if (prm?.dpopSigningAlgs !== undefined) this.resourceTakesDPoP = true;
    return prm;
  }

  private async serverMetadata(prm: ResourceMetadata | undefined): Promise<oauth.AuthorizationServer> {
    let as: oauth.AuthorizationServer | undefined;
    if (prm !== undefined) {
      const issuer = prm.authorizationServers[0]!;
      this.checkUrl(new URL(issuer), "authorization server");
      as = await discoverServer(this.fetch, issuer);
      if (as === undefined)
        throw new OAuthFlowError(
          "server_metadata",
          `authorization server ${issuer} publishes no metadata (tried RFC 8414 and OpenID Connect discovery)`,
        );
    } else {
      const sameOrigin = (iss: unknown): boolean =>
        typeof iss === "string" && URL.canParse(iss) && new URL(iss).origin === this.server.origin;
      as = (await discoverServer(this.fetch, this.server.origin, sameOrigin)) ?? fallbackServer(this.server);
    }
    for (const k of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
      if (typeof as[k] === "string") this.checkUrl(new URL(as[k]), k);
    }
    this.as = as;
    return as;
  }

  /** Gets tokens from `as` for `scopes` with the grant this client can perform. */
  private async obtain(
    as: oauth.AuthorizationServer,
    prm: ResourceMetadata | undefined,
    scopes: string[],
  ): Promise<void> {
    const grants = as.grant_types_supported;
    const machine =
      this.o.client !== undefined &&
      (this.o.client.client_secret !== undefined || this.o.client.private_key !== undefined);
    // Configured identities that need no person come first where the server takes them.
    if (grants?.includes(JWT_BEARER)) {
      if (this.o.enterprise !== undefined) return this.enterpriseGrant(as, prm, scopes, this.o.enterprise);
      if (this.o.workloadIdentity !== undefined)
        return this.jwtBearer(as, prm, scopes, await this.o.workloadIdentity.assertion(), "workload identity");
    }
    if (this.o.userAgent !== undefined && (grants === undefined || grants.includes("authorization_code"))) {
      return this.authorizationCode(as, prm, scopes, this.o.userAgent);
    }
    if (machine && grants?.includes("client_credentials")) return this.clientCredentials(as, prm, scopes);
    throw new OAuthFlowError(
      "unsupported",
      `no usable grant at ${as.issuer}: it offers ${JSON.stringify(grants ?? ["authorization_code"])}; this client has ${this.o.userAgent ? "a user agent" : "no user agent"}, ${machine ? "client credentials" : "no client credentials"}${this.o.enterprise ? ", an enterprise IdP" : ""}${this.o.workloadIdentity ? ", a workload identity" : ""}`,
    );
  }

  private async authorizationCode(
    as: oauth.AuthorizationServer,
    prm: ResourceMetadata | undefined,
    requested: string[],
    ua: AuthorizationUserAgent,
  ): Promise<void> {
    if (as.code_challenge_methods_supported !== undefined || prm !== undefined) {
      if (!as.code_challenge_methods_supported?.includes("S256")) {
        throw new OAuthFlowError(
          "unsupported",
          `authorization server ${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported), refusing to proceed`,
        );
      }
    }
    const scopes = this.wantsOffline(as) ? union(requested, ["offline_access"]) : requested;
    const reg = await this.identity(as, ua.redirectUri);
    const client: oauth.Client = {
      client_id: reg.client_id,
      token_endpoint_auth_method: reg.token_endpoint_auth_method,
    };
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
        throw new OAuthFlowError(
          "authorization_response",
          `authorization refused by ${as.issuer}: ${e.error}${e.error_description ? ` (${e.error_description})` : ""}`,
        );
      }
      const msg = (e as Error).message;
      const code = /"iss"/.test(msg) ? "issuer_mismatch" : "authorization_response";
      const iss = callback.searchParams.get("iss");
      throw new OAuthFlowError(
        code,
        `authorization response rejected: ${msg} (expected issuer ${JSON.stringify(as.issuer)}, got ${iss === null ? "none" : JSON.stringify(iss.slice(0, 200))})`,
      );
    }
    const extra: Record<string, string> = prm !== undefined ? { resource: prm.resource } : {};
    const http = await this.tokenOptions(as);
    const t = await this.grant(
      "authorization code",
      () =>
        oauth.authorizationCodeGrantRequest(as, client, this.clientAuth(reg), params, ua.redirectUri, verifier, {
          ...http,
          additionalParameters: extra,
        }),
      (res) => oauth.processAuthorizationCodeResponse(as, client, res),
    );
    await this.keep(as, t, scopes);
  }

  private async clientCredentials(
    as: oauth.AuthorizationServer,
    prm: ResourceMetadata | undefined,
    scopes: string[],
  ): Promise<void> {
    const c = this.o.client!;
    const reg = await this.preRegistered(as, c);
    const client: oauth.Client = {
      client_id: reg.client_id,
      token_endpoint_auth_method: reg.token_endpoint_auth_method,
    };
    const params: Record<string, string> = {};
    if (scopes.length > 0) params.scope = scopes.join(" ");
    if (prm !== undefined) params.resource = prm.resource;
    this.lastRequested = scopes;
    this.log(`client credentials at ${as.issuer} (${reg.token_endpoint_auth_method})`);
    const auth = await this.clientAuthFor(reg, c);
    const http = await this.tokenOptions(as);
    const t = await this.grant(
      "client credentials",
      () => oauth.clientCredentialsGrantRequest(as, client, auth, params, http),
      (res) => oauth.processClientCredentialsResponse(as, client, res),
    );
    await this.keep(as, t, scopes);
  }

  /**
   * RFC 7523 §2.1: `assertion` (a workload's JWT, or an ID-JAG) for tokens, with this client's
   * configured credentials. A refusal ends the authorization: another grant would not change the
   * identity the assertion speaks for.
   */
  private async jwtBearer(
    as: oauth.AuthorizationServer,
    prm: ResourceMetadata | undefined,
    scopes: string[],
    assertion: string,
    what: string,
  ): Promise<void> {
    const c = this.o.client;
    if (c === undefined)
      throw new OAuthFlowError(
        "unsupported",
        `${what} needs the client's identity at ${as.issuer} (the \`client\` option)`,
      );
    const reg = await this.preRegistered(as, c);
    const client: oauth.Client = {
      client_id: reg.client_id,
      token_endpoint_auth_method: reg.token_endpoint_auth_method,
    };
    const params: Record<string, string> = { assertion };
    if (scopes.length > 0) params.scope = scopes.join(" ");
    if (prm !== undefined) params.resource = prm.resource;
    this.lastRequested = scopes;
    this.log(`JWT-bearer grant (${what}) at ${as.issuer} (${reg.token_endpoint_auth_method})`);
    const auth = await this.clientAuthFor(reg, c);
    const http = await this.tokenOptions(as);
    const t = await this.grant(
      `JWT-bearer (${what})`,
      () => oauth.genericTokenEndpointRequest(as, client, auth, JWT_BEARER, params, http),
      (res) => oauth.processGenericTokenEndpointResponse(as, client, res),
    );
    await this.keep(as, t, scopes);
  }

  /** The user's ID token exchanged at the enterprise IdP for an ID-JAG naming `as` and this resource, then the JWT-bearer grant. */
  private async enterpriseGrant(
    as: oauth.AuthorizationServer,
    prm: ResourceMetadata | undefined,
    scopes: string[],
    e: EnterpriseAuthorization,
  ): Promise<void> {
    const endpoint = new URL(e.tokenEndpoint);
    this.checkUrl(endpoint, "identity provider token endpoint");
    const idp: oauth.AuthorizationServer = { issuer: e.issuer ?? endpoint.origin, token_endpoint: endpoint.href };
    const idpClient: oauth.Client = { client_id: e.clientId };
    const params: Record<string, string> = {
      subject_token: await e.idToken(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: as.issuer,
      resource: prm?.resource ?? this.server.href,
    };
    if (scopes.length > 0) params.scope = scopes.join(" ");
    this.log(`token exchange at ${idp.issuer} for an ID-JAG for ${as.issuer}`);
    const idpAuth = e.clientSecret !== undefined ? secretBasic(e.clientSecret) : oauth.None();
    const http = { [oauth.customFetch]: this.fetch, [oauth.allowInsecureRequests]: this.httpAllowed(endpoint) };
    const exchanged = await this.tokenCall("token exchange", async () => {
      const res = await oauth.genericTokenEndpointRequest(idp, idpClient, idpAuth, TOKEN_EXCHANGE, params, http);
      // The ID-JAG is no access token: RFC 8693 §2.2.1 has the IdP say so with token_type N_A.
      return oauth.processGenericTokenEndpointResponse(idp, idpClient, res, {
        recognizedTokenTypes: { n_a: () => {} },
      });
    });
    if (exchanged.issued_token_type !== "urn:ietf:params:oauth:token-type:id-jag") {
      throw new OAuthFlowError(
        "token",
        `token exchange at ${idp.issuer} issued ${JSON.stringify(String(exchanged.issued_token_type).slice(0, 100))}, not an ID-JAG`,
      );
    }
    await this.jwtBearer(as, prm, scopes, exchanged.access_token, "enterprise ID-JAG");
  }

  private async refresh(held: TokenSet): Promise<TokenSet> {
    const as = this.as;
    if (as === undefined || as.issuer !== held.issuer || held.refresh_token === undefined)
      throw new OAuthFlowError("token", "no refresh possible");
    const reg = (await this.store.get(storeKeys.client(as.issuer))) as ClientRegistration | undefined;
    if (reg === undefined) throw new OAuthFlowError("token", `no client registration for ${as.issuer}`);
    const client: oauth.Client = {
      client_id: reg.client_id,
      token_endpoint_auth_method: reg.token_endpoint_auth_method,
    };
    const extra: Record<string, string> =
      this.resourceMeta !== undefined ? { resource: this.resourceMeta.resource } : {};
    this.log(`refreshing the access token at ${as.issuer}`);
    const auth = await this.clientAuthFor(reg, this.o.client);
    const http = await this.tokenOptions(as);
    const t = await this.grant(
      "refresh",
      () =>
        oauth.refreshTokenGrantRequest(as, client, auth, held.refresh_token!, { ...http, additionalParameters: extra }),
      (res) => oauth.processRefreshTokenResponse(as, client, res),
    );
    return this.keep(as, t, held.scopes, held.refresh_token);
  }

  private async keep(
    as: oauth.AuthorizationServer,
    t: oauth.TokenEndpointResponse,
    requested: string[],
    oldRefresh?: string,
  ): Promise<TokenSet> {
    const type = t.token_type.toLowerCase();
    if (type !== "bearer" && !(type === "dpop" && this.dpopKey !== undefined)) {
      throw new OAuthFlowError(
        "token",
        `token endpoint of ${as.issuer} issued a ${JSON.stringify(t.token_type)} token; only Bearer${this.dpopKey ? " and DPoP are" : " is"} supported`,
      );
    }
    const set: TokenSet = {
      access_token: t.access_token,
      token_type: type === "dpop" ? "DPoP" : "Bearer",
      scopes: typeof t.scope === "string" ? t.scope.split(" ").filter((s) => s !== "") : requested,
      issuer: as.issuer,
    };
    const refresh = t.refresh_token ?? oldRefresh;
    if (refresh !== undefined) set.refresh_token = refresh;
    if (typeof t.expires_in === "number") set.expires_at = Date.now() + t.expires_in * 1000;
    await this.store.set(storeKeys.tokens(this.server.href), set);
    this.log(
      `token from ${as.issuer}${set.scopes.length ? ` with scope "${set.scopes.join(" ")}"` : ""}${set.refresh_token ? " (refreshable)" : ""}`,
    );
    return set;
  }

  /** This client's identity at `as`: configured, remembered, CIMD, or freshly registered (in that order). */
  private async identity(as: oauth.AuthorizationServer, redirectUri: string): Promise<ClientRegistration> {
    const c = this.o.client;
    if (c !== undefined && (this.boundIssuer === undefined || this.boundIssuer === as.issuer))
      return this.preRegistered(as, c);
    const key = storeKeys.client(as.issuer);
    const known = (await this.store.get(key)) as ClientRegistration | undefined;
    const expired =
      known?.client_secret_expires_at !== undefined &&
      known.client_secret_expires_at > 0 &&
      known.client_secret_expires_at * 1000 <= Date.now();
    if (known !== undefined && !expired) return known;
    if (this.o.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
      this.log(`client id metadata document ${this.o.clientMetadataUrl}`);
      return { client_id: this.o.clientMetadataUrl, token_endpoint_auth_method: "none" };
    }
    if (typeof as.registration_endpoint !== "string") {
      throw new OAuthFlowError(
        "registration",
        `authorization server ${as.issuer} offers no dynamic client registration and no client is configured for it`,
      );
    }
    const reg = await registerClient(as, redirectUri, this.o.clientMetadata ?? {}, this.httpOptions(as));
    this.log(`registered at ${as.issuer} (${reg.token_endpoint_auth_method})`);
    await this.store.set(key, reg);
    return reg;
  }

  private async preRegistered(as: oauth.AuthorizationServer, c: PreRegisteredClient): Promise<ClientRegistration> {
    if (this.boundIssuer !== undefined && this.boundIssuer !== as.issuer) {
      throw new OAuthFlowError(
        "registration",
        `the configured client belongs to ${this.boundIssuer}, not to ${as.issuer}`,
      );
    }
    this.boundIssuer = as.issuer;
    const method =
      c.token_endpoint_auth_method ??
      (c.private_key !== undefined
        ? "private_key_jwt"
        : c.client_secret !== undefined
          ? pickAuthMethod(as, ["client_secret_basic", "client_secret_post"])
          : "none");
    const reg: ClientRegistration = { client_id: c.client_id, token_endpoint_auth_method: method };
    if (c.client_secret !== undefined) reg.client_secret = c.client_secret;
    await this.store.set(storeKeys.client(as.issuer), reg);
    return reg;
  }

  private clientAuth(reg: ClientRegistration): oauth.ClientAuth {
    const secret = (): string => {
      if (reg.client_secret === undefined)
        throw new OAuthFlowError(
          "token",
          `${reg.token_endpoint_auth_method} needs a client secret and the client has none`,
        );
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
        throw new OAuthFlowError(
          "unsupported",
          `token endpoint auth method ${JSON.stringify(reg.token_endpoint_auth_method)} is not supported`,
        );
    }
  }

  private async clientAuthFor(reg: ClientRegistration, c: PreRegisteredClient | undefined): Promise<oauth.ClientAuth> {
    if (reg.token_endpoint_auth_method !== "private_key_jwt") return this.clientAuth(reg);
    if (c?.private_key === undefined)
      throw new OAuthFlowError("token", "private_key_jwt needs a private key and the client has none");
    const key =
      typeof c.private_key === "string"
        ? await importPrivateKeyPem(c.private_key, c.signing_algorithm ?? "ES256")
        : c.private_key;
    return oauth.PrivateKeyJwt(key);
  }

  private wantsOffline(as: oauth.AuthorizationServer): boolean {
    return this.o.offlineAccess !== false && (as.scopes_supported?.includes("offline_access") ?? false);
  }

  private httpOptions(as: oauth.AuthorizationServer): {
    [oauth.customFetch]: Fetch;
    [oauth.allowInsecureRequests]: boolean;
  } {
    const endpoints = [as.token_endpoint, as.registration_endpoint].filter((x): x is string => typeof x === "string");
    return {
      [oauth.customFetch]: this.fetch,
      [oauth.allowInsecureRequests]: endpoints.every((e) => this.httpAllowed(new URL(e))),
    };
  }

  /** The token endpoint's HTTP options, with this client's DPoP key when tokens are to be bound. */
  private async tokenOptions(
    as: oauth.AuthorizationServer,
  ): Promise<{ [oauth.customFetch]: Fetch; [oauth.allowInsecureRequests]: boolean; DPoP?: oauth.DPoPHandle }> {
    const http = this.httpOptions(as);
    const mode = this.o.dpop;
    if (mode === undefined || mode === false) return http;
    const offered = as.dpop_signing_alg_values_supported;
    // "auto": both servers must take DPoP, or the bound token would be refused where it is sent.
    if (mode === "auto" && (!Array.isArray(offered) || !this.resourceTakesDPoP)) return http;
    if (this.dpopKey === undefined) {
      this.makeKey(typeof mode === "object" ? mode : {}, Array.isArray(offered) ? offered : undefined);
      this.log("DPoP: tokens bound to this client's key");
    }
    return { ...http, DPoP: (await this.dpopKey!).handle };
  }

  /** This client's DPoP key, for its whole life (the DPoP code loads here, for clients that use it). */
  private makeKey(o: DPoPOptions, offered: readonly string[] | undefined): void {
    const key = import("./dpop-client.js").then((m) => m.DPoPKey.create(o, offered));
    this.dpopKey = key;
    key.catch(() => {
      if (this.dpopKey === key) this.dpopKey = undefined;
    });
  }

  /**
   * One token request and its processing; retried once when the authorization server answers
   * `use_dpop_nonce` (RFC 9449 §8: the handle has kept the nonce it sent).
   */
  private grant(
    what: string,
    request: () => Promise<Response>,
    process: (res: Response) => Promise<oauth.TokenEndpointResponse>,
  ): Promise<oauth.TokenEndpointResponse> {
    return this.tokenCall(what, async () => {
      try {
        return await process(await request());
      } catch (e) {
        if (this.dpopKey === undefined || !oauth.isDPoPNonceError(e)) throw e;
        this.log(`${what}: the authorization server asks for a DPoP nonce`);
        return process(await request());
      }
    });
  }

  /** Token-endpoint exchanges: library errors become typed errors that name the server's error code only. */
  private async tokenCall<T>(what: string, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof OAuthFlowError) throw e;
      if (e instanceof oauth.ResponseBodyError) {
        throw new OAuthFlowError(
          "token",
          `${what} grant refused: HTTP ${e.status} ${e.error}${e.error_description ? ` (${String(e.error_description).slice(0, 200)})` : ""}`,
        );
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
    if (!this.httpAllowed(url))
      throw new OAuthFlowError(
        "http",
        `${what} ${url.origin} is not https (plain http is allowed for loopback hosts only)`,
      );
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
