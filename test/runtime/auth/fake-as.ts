/**
 * A scripted authorization server and a protected MCP server on 127.0.0.1 for the OAuth client
 * tests: real HTTP, real PKCE and token checks, with switches for each misbehaviour under test.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Transport } from "@mcpgen/runtime";
import { createServerSession, type ServerOptions } from "@mcpgen/runtime/internal";
import { createStreamableHttpServer, type StreamableHttpServer } from "@mcpgen/runtime/http";
import {
  createResourceServer,
  InvalidTokenError,
  type AuthInfo,
  type ResourceServerOptions,
} from "@mcpgen/runtime/auth";
import { binding } from "@mcpgen/runtime/protocol/2025-11-25";

export interface AsBehaviour {
  /** `iss` on the redirect: "correct" (default), "wrong", "omit". */
  iss?: "correct" | "wrong" | "omit";
  /** Metadata `issuer` override. */
  metadataIssuer?: string;
  /** Pad the metadata document to this many bytes. */
  metadataBytes?: number;
  /** Scopes never granted even when requested. */
  withhold?: string[];
  /** expires_in of issued access tokens (default 3600). */
  expiresIn?: number;
  refreshTokens?: boolean;
  scopesSupported?: string[];
  /** The user takes this long at the login page before the authorization endpoint redirects back (ms). */
  authorizeDelayMs?: number;
  /** `grant_types_supported` (default: not published). */
  grants?: string[];
  /** `token_endpoint_auth_methods_supported` (default ["none"]). */
  authMethods?: string[];
  /**
   * The JWT-bearer grant (RFC 7523): the client id a request's `assertion` (with its Authorization
   * header) is accepted for, or undefined to refuse it with invalid_grant.
   */
  jwtBearer?: (assertion: string, authorization: string | undefined) => string | undefined;
}

export interface FakeAs {
  url: string;
  behaviour: AsBehaviour;
  /** Every request the AS saw: method, path, and (for /authorize and /token) the parameters. */
  log: { path: string; params: Record<string, string>; authorization?: string }[];
  registrations: string[];
  close(): Promise<void>;
}

const b64url = (b: Buffer): string => b.toString("base64url");

/** Access tokens every fake AS issued, for the shared verifier. */
export const issued = new Map<
  string,
  { scopes: string[]; resource: string | undefined; exp: number; issuer: string; client: string }
>();

export async function startAs(behaviour: AsBehaviour = {}): Promise<FakeAs> {
  const codes = new Map<string, { challenge: string; scopes: string[]; resource?: string; client: string }>();
  const refresh = new Map<string, { scopes: string[]; resource?: string; client: string }>();
  const log: FakeAs["log"] = [];
  const registrations: string[] = [];
  let url = "";
  const token = (scopes: string[], resource: string | undefined, client: string): Record<string, unknown> => {
    const at = `at-${b64url(randomBytes(12))}`;
    const expiresIn = behaviour.expiresIn ?? 3600;
    issued.set(at, { scopes, resource, exp: Date.now() + expiresIn * 1000, issuer: url, client });
    const out: Record<string, unknown> = {
      access_token: at,
      token_type: "Bearer",
      expires_in: expiresIn,
      scope: scopes.join(" "),
    };
    if (behaviour.refreshTokens) {
      const rt = `rt-${b64url(randomBytes(12))}`;
      refresh.set(rt, { scopes, resource, client });
      out.refresh_token = rt;
    }
    return out;
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? "/", url);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const json = (status: number, v: unknown): void =>
      void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(v));
    const params = Object.fromEntries(req.method === "GET" ? u.searchParams : new URLSearchParams(body));
    log.push({ path: u.pathname, params, authorization: req.headers.authorization });
    if (u.pathname === "/.well-known/oauth-authorization-server") {
      const doc: Record<string, unknown> = {
        issuer: behaviour.metadataIssuer ?? url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        registration_endpoint: `${url}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: behaviour.authMethods ?? ["none"],
        ...(behaviour.grants ? { grant_types_supported: behaviour.grants } : {}),
        authorization_response_iss_parameter_supported: true,
        ...(behaviour.scopesSupported ? { scopes_supported: behaviour.scopesSupported } : {}),
      };
      if (behaviour.metadataBytes) doc.padding = "x".repeat(behaviour.metadataBytes);
      return json(200, doc);
    }
    if (u.pathname === "/register") {
      const reg = JSON.parse(body) as Record<string, unknown>;
      const id = `client-${registrations.length + 1}-${url.slice(-5)}`;
      registrations.push(id);
      return json(201, { ...reg, client_id: id });
    }
    if (u.pathname === "/authorize") {
      if (behaviour.authorizeDelayMs) await new Promise((r) => setTimeout(r, behaviour.authorizeDelayMs));
      const scopes = (params.scope ?? "").split(" ").filter((s) => s !== "" && !(behaviour.withhold ?? []).includes(s));
      const code = `code-${b64url(randomBytes(8))}`;
      codes.set(code, {
        challenge: params.code_challenge!,
        scopes,
        resource: params.resource,
        client: params.client_id!,
      });
      const to = new URL(params.redirect_uri!);
      to.searchParams.set("code", code);
      to.searchParams.set("state", params.state!);
      if (behaviour.iss !== "omit")
        to.searchParams.set("iss", behaviour.iss === "wrong" ? "https://evil.example" : url);
      res.writeHead(302, { location: to.href }).end();
      return;
    }
    if (u.pathname === "/token") {
      if (params.grant_type === "authorization_code") {
        const c = codes.get(params.code ?? "");
        codes.delete(params.code ?? "");
        if (
          !c ||
          b64url(
            createHash("sha256")
              .update(params.code_verifier ?? "")
              .digest(),
          ) !== c.challenge ||
          c.resource !== params.resource
        ) {
          return json(400, { error: "invalid_grant" });
        }
        return json(200, token(c.scopes, c.resource, c.client));
      }
      if (params.grant_type === "refresh_token") {
        const r = refresh.get(params.refresh_token ?? "");
        if (!r) return json(400, { error: "invalid_grant" });
        return json(200, token(r.scopes, r.resource, r.client));
      }
      if (params.grant_type === "urn:ietf:params:oauth:grant-type:jwt-bearer" && behaviour.jwtBearer) {
        const client = behaviour.jwtBearer(params.assertion ?? "", req.headers.authorization);
        if (client === undefined) return json(400, { error: "invalid_grant", error_description: "assertion refused" });
        return json(
          200,
          token(
            (params.scope ?? "").split(" ").filter((x) => x !== ""),
            params.resource,
            client,
          ),
        );
      }
      return json(400, { error: "unsupported_grant_type" });
    }
    res.writeHead(404).end();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    behaviour,
    log,
    registrations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Accepts tokens some fake AS issued for `resource` and that have not expired. */
export function fakeVerifier(resource: string, issuers: () => string[]) {
  return {
    async verify(token: string): Promise<AuthInfo> {
      const t = issued.get(token);
      if (!t || !issuers().includes(t.issuer)) throw new InvalidTokenError("unknown token");
      if (t.resource !== resource) throw new InvalidTokenError("token audience is not this resource");
      if (t.exp <= Date.now()) throw new InvalidTokenError("token expired");
      return { scopes: t.scopes, clientId: t.client, subject: "alice" };
    },
  };
}

export interface ProtectedServer {
  server: StreamableHttpServer;
  url: URL;
  /** `ctx.transportContext.auth` of each tools/call. */
  seen: (AuthInfo | undefined)[];
  /** The authorization server(s) currently named in the PRM. */
  authorizationServers: string[];
}

/** A stateful Streamable HTTP MCP server with tools `read` and `write` behind a resource-server guard. */
export async function startProtected(
  as: () => string,
  guard: Partial<ResourceServerOptions> = {},
  stateless = false,
): Promise<ProtectedServer> {
  const seen: (AuthInfo | undefined)[] = [];
  const state: { resource: string } = { resource: "" };
  const issuers = (): string[] => [as()];
  const protectedServer: ProtectedServer = {
    server: undefined as never,
    url: undefined as never,
    seen,
    authorizationServers: [],
  };
  // The PRM names whatever `as()` returns now (an authorization-server migration flips it).
  let current: ReturnType<typeof createResourceServer> | undefined;
  // A PRM naming another resource is still served where this server's PRM belongs.
  const at = (): Partial<ResourceServerOptions> =>
    guard.resource === undefined
      ? {}
      : {
          metadataPath: "/.well-known/oauth-protected-resource/mcp",
          metadataUrl: new URL("/.well-known/oauth-protected-resource/mcp", state.resource).href,
        };
  const make = (): ReturnType<typeof createResourceServer> =>
    createResourceServer({
      resource: state.resource,
      authorizationServers: issuers(),
      verifier: fakeVerifier(state.resource, issuers),
      toolScopes: { write: ["mcp:write"] },
      ...guard,
      ...at(),
    });
  const proxy = {
    get metadataPath() {
      return current!.metadataPath;
    },
    get metadataUrl() {
      return current!.metadataUrl;
    },
    serveMetadata: (req: IncomingMessage, res: ServerResponse, p: string) =>
      (current = make()).serveMetadata(req, res, p),
    admit: (req: IncomingMessage, res: ServerResponse, m: readonly unknown[]) => (current = make()).admit(req, res, m),
  };
  const server = createStreamableHttpServer({
    keepAliveMs: 0,
    stateless,
    auth: proxy,
    onsession: (transport: Transport, req: IncomingMessage) => {
      const o: ServerOptions = {
        transport,
        ...(stateless
          ? { stateless: { protocolVersion: req.headers["mcp-protocol-version"] as string | undefined } }
          : {}),
        bindings: [binding],
        serverInfo: { name: "protected", version: "1.0.0" },
        capabilities: { tools: {} },
        handlers: {
          "tools/list": () => ({
            tools: [
              { name: "read", inputSchema: { type: "object" } },
              { name: "write", inputSchema: { type: "object" } },
            ],
          }),
          "tools/call": (params: { name: string }, ctx) => {
            seen.push(ctx.transportContext?.auth);
            return { content: [{ type: "text", text: `${params.name} ok` }] };
          },
        },
      };
      createServerSession(o);
    },
  });
  const url = await server.listen();
  state.resource = url.href;
  current = make();
  protectedServer.server = server;
  protectedServer.url = url;
  return protectedServer;
}
