import type { HttpAuthorizer } from "../auth/hook.js";

/** A non-2xx HTTP answer; the probe and the session read `status`. */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, what: string) {
    super(`${what}: HTTP ${status}${body ? ` ${body.slice(0, 300)}` : ""}`);
    this.name = "HttpStatusError";
    this.status = status;
    this.body = body;
  }
}

/**
 * How the HTTP client transports reach the network. Two implementations: node:http with a
 * keep-alive agent (request.ts, the default on Node, where it is faster) and `fetch`
 * (fetch-driver.ts, the default on workerd, Bun, Deno and in browsers). The answer and the request
 * in flight are the implementation's own objects, read through the driver's methods rather than
 * wrapped: a wrapper per message would be an allocation more on every call.
 */
export interface HttpDriver<Answer = any, Sent = any> {
  readonly url: URL;
  /** `onrequest` sees every request actually sent (one per authorization round); `cancel` ends it. */
  request(
    method: string,
    headers: Record<string, string>,
    body?: string,
    url?: URL,
    onrequest?: (sent: Sent) => void,
  ): Promise<Answer>;
  status(answer: Answer): number;
  /** A header by its lower-case name (repeated ones joined with ", "). */
  header(answer: Answer, name: string): string | undefined;
  /** The whole body as text; rejects past `limit` bytes. */
  text(answer: Answer, limit: number): Promise<string>;
  /** The body chunk by chunk; `onend` is called once, when it ends, fails or is cancelled. */
  stream(answer: Answer, ondata: (chunk: Uint8Array) => void, onend: () => void): void;
  /** Reads and drops the body (so a keep-alive connection can be reused). */
  discard(answer: Answer): void;
  /** Stops reading a body early. */
  end(answer: Answer): void;
  /** Ends one request in flight (its answer too). */
  cancel(sent: Sent): void;
  /** Ends every request in flight. */
  abortAll(): void;
  /** abortAll, and frees what the driver holds (its agent). */
  destroy(): void;
}

/**
 * A node:http or node:https `Agent`: the keep-alive pool the Node driver sends through (other hosts
 * ignore it). Named by members every Agent has rather than as `http.Agent`, so that the
 * transports' declarations need no @types/node: a Worker, Bun or Deno project compiles them without
 * it, and a Node program passes its `new http.Agent(...)` as before.
 */
export interface NodeHttpAgent {
  maxSockets: number;
  maxFreeSockets: number;
  destroy(): void;
}

/** What the transports hand a driver factory. */
export interface HttpDriverOptions {
  url: URL;
  auth?: HttpAuthorizer;
  /** node:http keep-alive agent (Node only). */
  agent?: NodeHttpAgent;
  /** Send over this fetch instead of the host's default (e.g. a Workers service binding's `fetch`). */
  fetch?: typeof fetch;
}
