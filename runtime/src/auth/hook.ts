/**
 * The one seam between the HTTP client transports and authorization: a transport built with an
 * `auth` object asks it for the Authorization header of every request and hands it every 401/403
 * answer. The transports know nothing else about OAuth; `OAuthClient` (./client.ts) is the
 * implementation mcpgen ships, and anything with these two methods works (a static API key, a
 * host's own token cache).
 */
export interface HttpAuthorizer {
  /** The `Authorization` header value for a request to `url`, or undefined to send none. */
  authorization(url: URL): Promise<string | undefined>;
  /**
   * The server answered 401 or 403. Resolve true when new credentials were obtained and the
   * request should be sent again; false to let the answer stand (the transport then fails the
   * request with an HttpStatusError). Never called more than `MAX_AUTH_ROUNDS` times per request.
   */
  challenged(answer: AuthChallengeAnswer): Promise<boolean>;
  /**
   * Optional: every header this request needs from the authorizer, in place of `authorization`
   * (a sender-constrained token's `Authorization: DPoP …` comes with a `DPoP` proof signed for
   * this method and URL, RFC 9449 §7). Undefined sends none.
   */
  headers?(url: URL, method: string): Promise<Record<string, string> | undefined>;
  /** Optional: a `DPoP-Nonce` the server sent with any answer (RFC 9449 §9), for the next proof. */
  nonce?(url: URL, nonce: string): void;
}

export interface AuthChallengeAnswer {
  url: URL;
  status: 401 | 403;
  /** The raw `WWW-Authenticate` header(s), joined with ", " when repeated. */
  wwwAuthenticate: string | undefined;
  /** How many challenges of this same request were already answered with new credentials (0 on the first). */
  attempt: number;
  /** The answer's `DPoP-Nonce` header, when it has one (RFC 9449 §9). */
  dpopNonce?: string | undefined;
}

/** Challenge rounds per request: a server that keeps refusing fresh credentials is not asked again. */
export const MAX_AUTH_ROUNDS = 3;

/** How sendAuthorized reads an answer it does not own (an HttpDriver is one). */
interface AnswerReader<R> {
  status(answer: R): number;
  header(answer: R, name: string): string | undefined;
  discard(answer: R): void;
}

/**
 * Sends a request with the authorizer's headers; on 401/403 lets the authorizer react and sends it
 * again, at most MAX_AUTH_ROUNDS times. The refused answer's body is discarded before a retry.
 */
export async function sendAuthorized<R>(
  auth: HttpAuthorizer,
  url: URL,
  method: string,
  headers: Record<string, string>,
  send: (headers: Record<string, string>) => Promise<R>,
  read: AnswerReader<R>,
): Promise<R> {
  for (let round = 0; ; round++) {
    const h = { ...headers };
    if (auth.headers !== undefined) Object.assign(h, await auth.headers(url, method));
    else {
      const value = await auth.authorization(url);
      if (value !== undefined) h.authorization = value;
    }
    const res = await send(h);
    const status = read.status(res);
    const nonce = auth.nonce !== undefined ? read.header(res, "dpop-nonce") : undefined;
    if ((status !== 401 && status !== 403) || round >= MAX_AUTH_ROUNDS) {
      if (nonce !== undefined) auth.nonce!(url, nonce);
      return res;
    }
    const retry = await auth.challenged({
      url,
      status,
      wwwAuthenticate: read.header(res, "www-authenticate"),
      attempt: round,
      dpopNonce: nonce,
    });
    if (!retry) return res;
    read.discard(res);
  }
}

/**
 * An authorizer whose challenge handling (an authorization in progress: a person at a login page,
 * a slow authorization server) is observable: `active` counts the challenges being answered and
 * `onchange` hears every start and end. The dual-era client's probe stops its clock meanwhile.
 */
export class WatchedAuthorizer implements HttpAuthorizer {
  active = 0;
  /** Hears every start and end; `failed` when the challenge that just ended threw (the authorization failed). */
  onchange: ((active: number, failed: boolean) => void) | undefined = undefined;
  readonly headers: HttpAuthorizer["headers"];
  readonly nonce: HttpAuthorizer["nonce"];

  constructor(private readonly inner: HttpAuthorizer) {
    this.headers = inner.headers?.bind(inner);
    this.nonce = inner.nonce?.bind(inner);
  }

  authorization(url: URL): Promise<string | undefined> {
    return this.inner.authorization(url);
  }

  async challenged(answer: AuthChallengeAnswer): Promise<boolean> {
    this.active++;
    this.onchange?.(this.active, false);
    let failed = true;
    try {
      const retry = await this.inner.challenged(answer);
      failed = false;
      return retry;
    } finally {
      this.active--;
      this.onchange?.(this.active, failed);
    }
  }
}
