/** Dynamic client registration (RFC 7591) through oauth4webapi, with MCP's client metadata. */
import * as oauth from "oauth4webapi";
import { OAuthFlowError } from "./errors.js";
import type { ClientRegistration } from "./store.js";

/** The first of `preferred` the server supports (RFC 8414 default: client_secret_basic). */
export function pickAuthMethod(as: oauth.AuthorizationServer, preferred: string[]): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const m = preferred.find((p) => supported.includes(p));
  if (m === undefined) {
    throw new OAuthFlowError("unsupported", `authorization server ${as.issuer} supports token endpoint auth methods ${JSON.stringify(supported)}; this client can use ${JSON.stringify(preferred)}`);
  }
  return m;
}

export async function registerClient(
  as: oauth.AuthorizationServer,
  redirectUri: string,
  metadata: Record<string, unknown>,
  options: oauth.DynamicClientRegistrationRequestOptions,
): Promise<ClientRegistration> {
  // A client with a loopback redirect runs on the user's machine and cannot keep a secret (RFC 8252).
  const native = /^http:\/\/(127\.|\[::1\]|localhost[:/])/.test(redirectUri) || !/^https?:/.test(redirectUri);
  const method = pickAuthMethod(as, native ? ["none", "client_secret_basic", "client_secret_post"] : ["client_secret_basic", "client_secret_post", "none"]);
  const body = {
    client_name: "mcpgen client",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    application_type: native ? "native" : "web",
    ...metadata,
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: method,
  };
  let client: Awaited<ReturnType<typeof oauth.processDynamicClientRegistrationResponse>>;
  try {
    const res = await oauth.dynamicClientRegistrationRequest(as, body as Partial<oauth.Client>, options);
    client = await oauth.processDynamicClientRegistrationResponse(res);
  } catch (e) {
    if (e instanceof OAuthFlowError) throw e;
    const detail = e instanceof oauth.ResponseBodyError ? `HTTP ${e.status} ${e.error}` : (e as Error).message;
    throw new OAuthFlowError("registration", `dynamic client registration at ${as.registration_endpoint} failed: ${detail}`);
  }
  const reg: ClientRegistration = {
    client_id: client.client_id,
    token_endpoint_auth_method: typeof client.token_endpoint_auth_method === "string" ? client.token_endpoint_auth_method : method,
  };
  if (typeof client.client_secret === "string") reg.client_secret = client.client_secret;
  if (typeof client.client_secret_expires_at === "number") reg.client_secret_expires_at = client.client_secret_expires_at;
  return reg;
}
