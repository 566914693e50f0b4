/** Dynamic client registration (RFC 7591) through oauth4webapi, with MCP's client metadata. */
import * as oauth from "oauth4webapi";
import { OAuthFlowError } from "./errors.js";
import { jsonObject } from "./fetch.js";
import type { ClientRegistration } from "./store.js";

/** The first of `preferred` the server supports (RFC 8414 default: client_secret_basic). */
export function pickAuthMethod(as: oauth.AuthorizationServer, preferred: string[]): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const m = preferred.find((p) => supported.includes(p));
  if (m === undefined) {
    throw new OAuthFlowError(
      "unsupported",
      `authorization server ${as.issuer} supports token endpoint auth methods ${JSON.stringify(supported)}; this client can use ${JSON.stringify(preferred)}`,
    );
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
  const method = pickAuthMethod(
    as,
    native
      ? ["none", "client_secret_basic", "client_secret_post"]
      : ["client_secret_basic", "client_secret_post", "none"],
  );
  const body = {
    client_name: "mcpgen client",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    application_type: native ? "native" : "web",
    ...metadata,
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: method,
  };
  // The answer is read here rather than by oauth4webapi, which insists on RFC 7591's
  // client_secret_expires_at whenever a secret is issued; deployed servers (and the conformance
  // suite's) often omit it, and its absence only means "does not expire".
  let res: Response;
  try {
    res = await oauth.dynamicClientRegistrationRequest(as, body as Partial<oauth.Client>, options);
  } catch (e) {
    if (e instanceof OAuthFlowError) throw e;
    throw new OAuthFlowError(
      "registration",
      `dynamic client registration at ${as.registration_endpoint} failed: ${(e as Error).message}`,
    );
  }
  if (res.status !== 201 && res.status !== 200) {
    const err = (await res.json().catch(() => undefined)) as
      { error?: unknown; error_description?: unknown } | undefined;
    const code = typeof err?.error === "string" ? ` ${err.error.slice(0, 100)}` : "";
    const why = typeof err?.error_description === "string" ? ` (${err.error_description.slice(0, 200)})` : "";
    throw new OAuthFlowError(
      "registration",
      `dynamic client registration at ${as.registration_endpoint} failed: HTTP ${res.status}${code}${why}`,
    );
  }
  const client = await jsonObject(res, `dynamic client registration at ${as.registration_endpoint}`, "registration");
  if (typeof client.client_id !== "string" || client.client_id === "") {
    throw new OAuthFlowError(
      "registration",
      `dynamic client registration at ${as.registration_endpoint}: answer has no "client_id" string`,
    );
  }
  const reg: ClientRegistration = {
    client_id: client.client_id as string,
    token_endpoint_auth_method:
      typeof client.token_endpoint_auth_method === "string" ? client.token_endpoint_auth_method : method,
  };
  if (typeof client.client_secret === "string") reg.client_secret = client.client_secret;
  if (typeof client.client_secret_expires_at === "number")
    reg.client_secret_expires_at = client.client_secret_expires_at;
  return reg;
}
