import { sendAuthorized, type HttpAuthorizer } from "../auth/hook.js";
import type { HttpDriver } from "./driver.js";

/**
 * The transports' driver over `fetch`: the default on workerd, Bun, Deno and in browsers, where
 * nothing of Node is loaded. Each request has an AbortController of its own (the "sent" handle),
 * so cancelling one request, or closing the transport, ends exactly what it should. Redirects are
 * not followed, as on node:http: a 3xx is an answer the transport reports.
 */
export class FetchHttpDriver implements HttpDriver<Response, AbortController> {
  readonly url: URL;
  private readonly auth: HttpAuthorizer | undefined;
  private readonly fetch: typeof fetch;
  private readonly inflight = new Set<AbortController>();
  /** The controller of each answer whose body is still open. */
  private readonly bodies = new WeakMap<Response, AbortController>();

  constructor(url: URL, auth?: HttpAuthorizer, fetchFn?: typeof fetch) {
    this.url = url;
    this.auth = auth;
    // Unbound, the global fetch throws "Illegal invocation" on workerd and in browsers.
    this.fetch = fetchFn ?? ((input, init) => fetch(input, init));
  }

  request(
    method: string,
    headers: Record<string, string>,
    body?: string,
    url: URL = this.url,
    onrequest?: (sent: AbortController) => void,
  ): Promise<Response> {
    if (this.auth === undefined) return this.send(method, headers, body, url, onrequest);
    return sendAuthorized(this.auth, url, method, headers, (h) => this.send(method, h, body, url, onrequest), this);
  }

  private async send(
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    url: URL,
    onrequest: ((sent: AbortController) => void) | undefined,
  ): Promise<Response> {
    const ac = new AbortController();
    this.inflight.add(ac);
    onrequest?.(ac);
    try {
      const res = await this.fetch(url, { method, headers, body, redirect: "manual", signal: ac.signal });
      // Tracked until its body is read, discarded or cancelled.
      if (res.body === null) this.inflight.delete(ac);
      else this.bodies.set(res, ac);
      return res;
    } catch (e) {
      this.inflight.delete(ac);
      throw e;
    }
  }

  status(res: Response): number {
    return res.status;
  }

  header(res: Response, name: string): string | undefined {
    return res.headers.get(name) ?? undefined;
  }

  async text(res: Response, limit: number): Promise<string> {
    const declared = Number(res.headers.get("content-length") ?? "NaN");
    if (declared > limit) {
      this.end(res);
      throw new Error(`response body exceeds ${limit} bytes`);
    }
    const decoder = new TextDecoder();
    let out = "";
    let size = 0;
    try {
      if (res.body === null) return "";
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => {});
          throw new Error(`response body exceeds ${limit} bytes`);
        }
        out += decoder.decode(value, { stream: true });
      }
      return out + decoder.decode();
    } finally {
      this.done(res);
    }
  }

  stream(res: Response, ondata: (chunk: Uint8Array) => void, onend: () => void): void {
    if (res.body === null) {
      onend();
      return;
    }
    const reader = res.body.getReader();
    const pump = async (): Promise<void> => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          ondata(value);
        }
      } catch {
        // Cancelled or the connection broke: either way the stream is over.
      } finally {
        this.done(res);
        onend();
      }
    };
    void pump();
  }

  discard(res: Response): void {
    // Cancelling the body rather than aborting the request lets the connection be reused once
    // what is left of the body (usually nothing: a 202) has arrived.
    this.done(res);
    res.body?.cancel().catch(() => {});
  }

  end(res: Response): void {
    const ac = this.bodies.get(res);
    if (ac !== undefined) {
      this.done(res);
      ac.abort();
    }
  }

  cancel(ac: AbortController): void {
    this.inflight.delete(ac);
    ac.abort();
  }

  abortAll(): void {
    const all = [...this.inflight];
    this.inflight.clear();
    for (const ac of all) ac.abort();
  }

  destroy(): void {
    this.abortAll();
  }

  private done(res: Response): void {
    const ac = this.bodies.get(res);
    if (ac === undefined) return;
    this.bodies.delete(res);
    this.inflight.delete(ac);
  }
}
