// Compile-time contract of the auth surface (this file must type-check; the @ts-expect-error
// lines must stay errors), plus the runtime facts they describe.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { HandlerContext } from "@mcpgen/runtime";
import { StreamableHttpClientTransport, type StreamableHttpServerOptions } from "@mcpgen/runtime/http";
import {
  createResourceServer,
  OAuthClient,
  type AuthInfo,
  type HttpAuthorizer,
  type TokenVerifier,
} from "@mcpgen/runtime/auth";

const verifier: TokenVerifier = { verify: async () => ({ scopes: ["a"] }) };

export function handler(ctx: HandlerContext): string[] | undefined {
  const who: AuthInfo | undefined = ctx.auth;
  // @ts-expect-error handlers never see the token itself
  void who?.token;
  return who?.scopes;
}

export function wiring(): void {
  const oauth: HttpAuthorizer = new OAuthClient({ server: "https://mcp.example/mcp" });
  void new StreamableHttpClientTransport({ url: "https://mcp.example/mcp", auth: oauth });
  const guard = createResourceServer({
    resource: "https://mcp.example/mcp",
    authorizationServers: ["https://as.example"],
    verifier,
    toolScopes: { write: ["w"] },
  });
  const options: Pick<StreamableHttpServerOptions, "auth"> = { auth: guard };
  void options;
  createResourceServer({
    resource: "https://mcp.example/mcp",
    authorizationServers: [],
    verifier,
    // @ts-expect-error scopes are strings
    toolScopes: { write: [1] },
  });
  createResourceServer({
    resource: "https://mcp.example/mcp",
    authorizationServers: [],
    // @ts-expect-error a verifier resolves to an AuthInfo, which has scopes
    verifier: { verify: async () => ({ subject: "x" }) },
  });
}

test("the guard derives its metadata location from the resource (RFC 9728 path insertion)", () => {
  const g = createResourceServer({
    resource: "https://mcp.example/tenant/mcp",
    authorizationServers: ["https://as.example"],
    verifier,
  });
  assert.is(g.metadataPath, "/.well-known/oauth-protected-resource/tenant/mcp");
  assert.is(g.metadataUrl, "https://mcp.example/.well-known/oauth-protected-resource/tenant/mcp");
  const root = createResourceServer({
    resource: "https://mcp.example/",
    authorizationServers: ["https://as.example"],
    verifier,
  });
  assert.is(root.metadataPath, "/.well-known/oauth-protected-resource");
});

test.run();
