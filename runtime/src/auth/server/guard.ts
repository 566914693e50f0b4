/**
 * The resource-server half of MCP authorization: serves this server's protected-resource
 * metadata (RFC 9728), and admits a request to any other path of the server (the MCP endpoint,
 * the legacy HTTP+SSE paths, anything else it answers) only with a bearer token the
 * verifier accepts (`401` with `WWW-Authenticate: Bearer resource_metadata=…, scope=…`
 * otherwise) that holds the scopes the request needs (`403 insufficient_scope`). Every request
 * is checked on its own, so the same guard serves the stateful 2025 eras and stateless 2026-07-28.
 * With `dpop` it also admits DPoP-bound tokens (`Authorization: DPoP …` with a proof, RFC 9449
 * §7) and refuses them presented as bearer tokens (§7.2).
 */
import type { HttpReply, HttpRequestHead } from "../../http-exchange.js";
import type { AuthInfo } from "../principal.js";
import { dpopSettings, type DPoPGuardOptions } from "./dpop-settings.js";
import type { DPoPChecker } from "./dpop.js";

export type { DPoPGuardOptions } from "./dpop-settings.js";

/** A verifier's refusal; the message is sent to the client as `error_description`. */
export class InvalidTokenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidTokenError";
  }
}

export interface TokenVerifier {
  /** The token's principal; throws InvalidTokenError when the token is not acceptable here. */
  verify(token: string, request: HttpRequestHead): Promise<AuthInfo>;
}

export interface ResourceServerOptions {
  /** This server's resource identifier, e.g. "https://mcp.example.com/mcp" (tokens must name it as audience). */
  resource: string;
  /** Issuer URLs of the authorization servers whose tokens are accepted. */
  authorizationServers: string[];
  verifier: TokenVerifier;
  /** Scopes every request needs. */
  requiredScopes?: string[];
  /** Extra scopes per tool (`tools/call` of that tool needs them), e.g. from the manifest. */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** Published as `scopes_supported` (default: every scope named above). */
  scopesSupported?: string[];
  /** Human-readable name published as `resource_name`. */
  resourceName?: string;
  /** Where the metadata is served (default: RFC 9728 path insertion of the resource's path). */
  metadataPath?: string;
  /** Absolute URL of the metadata (default: resource origin + metadataPath). */
  metadataUrl?: string;
  /** Accept DPoP-bound tokens (RFC 9449): `true` for the defaults; bearer tokens stay accepted unless `required`. */
  dpop?: boolean | DPoPGuardOptions;
}

export interface ResourceServerGuard {
  readonly metadataPath: string;
  readonly metadataUrl: string;
  /** Answers a GET of the metadata path; false for any other request. */
  serveMetadata(req: HttpRequestHead, res: HttpReply, path: string): boolean;
  /**
   * Authenticates a request and checks the scopes its messages need (none for a request that
   * carries no message: the required scopes only). Resolves to the principal, or to undefined
   * after answering 400/401/403 itself.
   */
  admit(req: HttpRequestHead, res: HttpReply, messages: readonly unknown[]): Promise<AuthInfo | undefined>;
}

const MAX_TOKEN_CHARS = 8 * 1024;

export function createResourceServer(o: ResourceServerOptions): ResourceServerGuard {
  const resource = new URL(o.resource);
  const rpath = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  const metadataPath = o.metadataPath ?? `/.well-known/oauth-protected-resource${rpath}`;
  const metadataUrl = o.metadataUrl ?? new URL(metadataPath, resource.origin).href;
  const required = o.requiredScopes ?? [];
  const toolScopes = o.toolScopes ?? {};
  const supported = o.scopesSupported ?? [...new Set([...required, ...Object.values(toolScopes).flat()])];
  const dpop = o.dpop === undefined || o.dpop === false ? undefined : dpopSettings(o.dpop === true ? {} : o.dpop);
  const dpopRequired = dpop?.required === true;
  // The proof checks load with the first DPoP request.
  let checker: Promise<DPoPChecker> | undefined;
  const dpopChecker = (): Promise<DPoPChecker> =>
    (checker ??= import("./dpop.js").then((m) => new m.DPoPChecker(dpop!)));
  const metadata = JSON.stringify({
    resource: o.resource,
    authorization_servers: o.authorizationServers,
    bearer_methods_supported: ["header"],
    ...(supported.length > 0 ? { scopes_supported: supported } : {}),
    ...(o.resourceName !== undefined ? { resource_name: o.resourceName } : {}),
    ...(dpop !== undefined
      ? { dpop_signing_alg_values_supported: dpop.algorithms, dpop_bound_access_tokens_required: dpopRequired }
      : {}),
  });

  const params = (p: Record<string, string>): string =>
    Object.entries({ ...p, resource_metadata: metadataUrl })
      .map(([k, v]) => `${k}="${v.replace(/[\\"]/g, "\\$&").replace(/[\r\n]/g, " ")}"`)
      .join(", ");
  const dpopAlgs = dpop === undefined ? "" : dpop.algorithms.join(" ");
  /**
   * The challenge of a refusal: Bearer, and DPoP where DPoP tokens are accepted (RFC 9449 §7.1);
   * an error about a DPoP request is the DPoP challenge's, one about a bearer request the Bearer one's.
   */
  const challenge = (p: Record<string, string>, scheme?: "bearer" | "dpop"): string => {
    if (dpop === undefined) return `Bearer ${params(p)}`;
    const plain = p.error === undefined ? p : Object.fromEntries(Object.entries(p).filter(([k]) => k === "scope"));
    const bearer = `Bearer ${params(scheme === "dpop" ? plain : p)}`;
    const dp = `DPoP ${params({ ...(scheme === "bearer" ? plain : p), algs: dpopAlgs })}`;
    return dpopRequired ? dp : `${bearer}, ${dp}`;
  };

  const refuse = (
    res: HttpReply,
    status: 400 | 401 | 403,
    p: Record<string, string>,
    scheme?: "bearer" | "dpop",
    extra?: Record<string, string>,
  ): undefined => {
    const body = JSON.stringify({
      error: p.error ?? "invalid_token",
      ...(p.error_description ? { error_description: p.error_description } : {}),
    });
    res
      .writeHead(status, {
        "content-type": "application/json",
        "www-authenticate": challenge(p, scheme),
        "cache-control": "no-store",
        ...extra,
      })
      .end(body);
    return undefined;
  };

  const needed = (messages: readonly unknown[]): string[] => {
    const need = new Set(required);
    for (const m of messages) {
      const msg = m as { method?: unknown; params?: { name?: unknown } } | null;
      if (
        msg?.method === "tools/call" &&
        typeof msg.params?.name === "string" &&
        Object.hasOwn(toolScopes, msg.params.name)
      ) {
        for (const s of toolScopes[msg.params.name]!) need.add(s);
      }
    }
    return [...need];
  };

  return {
    metadataPath,
    metadataUrl,
    serveMetadata(req, res, path) {
      if (path !== metadataPath) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET" }).end();
        return true;
      }
      res
        .writeHead(200, {
          "content-type": "application/json",
          "cache-control": "max-age=300",
          "access-control-allow-origin": "*",
        })
        .end(req.method === "HEAD" ? undefined : metadata);
      return true;
    },
    async admit(req, res, messages) {
      const need = needed(messages);
      const scopeParam: Record<string, string> = need.length > 0 ? { scope: need.join(" ") } : {};
      const header = req.headers.authorization;
      const m = typeof header === "string" ? /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header) : null;
      if (header === undefined) return refuse(res, 401, scopeParam);
      const dpopScheme = dpop !== undefined && /^DPoP\b/i.test(String(header));
      if (m === null || header.length > MAX_TOKEN_CHARS) {
        if (/^Bearer\b/i.test(String(header)))
          return refuse(res, 400, { error: "invalid_request", error_description: "malformed bearer token" }, "bearer");
        if (dpopScheme)
          return refuse(res, 400, { error: "invalid_request", error_description: "malformed DPoP token" }, "dpop");
        return refuse(res, 401, scopeParam);
      }
      const scheme = m[1]!.toLowerCase() === "dpop" ? "dpop" : "bearer";
      if (scheme === "dpop" && dpop === undefined) return refuse(res, 401, scopeParam);
      if (scheme === "bearer" && dpopRequired)
        return refuse(
          res,
          401,
          { error: "invalid_token", error_description: "this resource accepts DPoP-bound tokens only", ...scopeParam },
          "dpop",
        );
      const token = m[2]!;
      let auth: AuthInfo;
      try {
        auth = await o.verifier.verify(token, req);
      } catch (e) {
        const why = e instanceof InvalidTokenError ? e.message : "the token could not be verified";
        return refuse(res, 401, { error: "invalid_token", error_description: why, ...scopeParam }, scheme);
      }
      const jkt = boundKey(auth);
      if (scheme === "bearer" && jkt !== undefined) {
        return refuse(
          res,
          401,
          {
            error: "invalid_token",
            error_description: "a DPoP-bound token must be presented with the DPoP scheme",
            ...scopeParam,
          },
          "dpop",
        );
      }
      if (scheme === "dpop") {
        if (jkt === undefined)
          return refuse(
            res,
            401,
            { error: "invalid_token", error_description: "the token is not DPoP-bound", ...scopeParam },
            "dpop",
          );
        const c = await dpopChecker();
        const url = URL.canParse(req.url ?? "/", resource.origin)
          ? new URL(req.url ?? "/", resource.origin)
          : new URL("about:blank");
        const refusal = await c.check(req.headers.dpop, { method: req.method ?? "GET", url, token, jkt });
        if (refusal !== undefined) {
          const nonce = refusal.error === "use_dpop_nonce" ? { "dpop-nonce": await c.issueNonce() } : undefined;
          return refuse(res, 401, { error: refusal.error, error_description: refusal.message }, "dpop", nonce);
        }
        if (dpop!.nonces) res.setHeader("dpop-nonce", await c.issueNonce());
      }
      const missing = need.filter((s) => !auth.scopes.includes(s));
      if (missing.length > 0) {
        return refuse(
          res,
          403,
          {
            error: "insufficient_scope",
            scope: need.join(" "),
            error_description: `this request needs scope ${missing.join(" ")}`,
          },
          scheme,
        );
      }
      return auth;
    },
  };
}

/** The key a verified token is bound to: `cnf.jkt` of its claims (a JWT's, or an introspection response's). */
function boundKey(auth: AuthInfo): string | undefined {
  const cnf = auth.claims?.cnf;
  if (cnf === null || typeof cnf !== "object") return undefined;
  const jkt = (cnf as { jkt?: unknown }).jkt;
  return typeof jkt === "string" && jkt !== "" ? jkt : undefined;
}
