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
}

export interface AuthChallengeAnswer {
  url: URL;
  status: 401 | 403;
  /** The raw `WWW-Authenticate` header(s), joined with ", " when repeated. */
  wwwAuthenticate: string | undefined;
  /** How many challenges of this same request were already answered with new credentials (0 on the first). */
  attempt: number;
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
 * Sends a request with the authorizer's header; on 401/403 lets the authorizer react and sends it
 * again, at most MAX_AUTH_ROUNDS times. The refused answer's body is discarded before a retry.
 */
export async function sendAuthorized<R>(
  auth: HttpAuthorizer,
  url: URL,
  headers: Record<string, string>,
  send: (headers: Record<string, string>) => Promise<R>,
  read: AnswerReader<R>,
): Promise<R> {
  for (let round = 0; ; round++) {
    const h = { ...headers };
    const value = await auth.authorization(url);
    if (value !== undefined) h.authorization = value;
    const res = await send(h);
    const status = read.status(res);
    if ((status !== 401 && status !== 403) || round >= MAX_AUTH_ROUNDS) return res;
    const retry = await auth.challenged({ url, status, wwwAuthenticate: read.header(res, "www-authenticate"), attempt: round });
    if (!retry) return res;
    read.discard(res);
  }
}
