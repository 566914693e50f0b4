import type * as http from "node:http";
import type * as https from "node:https";
import { nodeHttp, nodeHttps } from "../node-http.js";
import { sendAuthorized, type HttpAuthorizer } from "../auth/hook.js";
import type { HttpDriver } from "./driver.js";

/**
 * Thin keep-alive HTTP requests on node:http: the transports' driver on Node. Every request gets
 * its own ClientRequest (never a shared AbortSignal); `abortAll` tears down whatever is still in
 * flight.
 */
export class NodeHttpDriver implements HttpDriver<http.IncomingMessage, http.ClientRequest> {
  readonly url: URL;
  private readonly agent: http.Agent;
  private readonly ownAgent: boolean;
  private readonly inflight = new InflightList();
  private readonly mod: typeof http | typeof https;
  /** Consulted for the Authorization header and on 401/403 (see auth/hook.ts). */
  private readonly auth: HttpAuthorizer | undefined;

  /** The endpoint as request options, worked out once (node would re-read the URL on every request); refilled per request. */
  private readonly target: http.RequestOptions;

  constructor(url: URL, agent?: http.Agent, auth?: HttpAuthorizer) {
    this.url = url;
    this.target = targetOf(url);
    this.auth = auth;
    this.mod = url.protocol === "https:" ? nodeHttps() : nodeHttp();
    this.ownAgent = agent === undefined;
    this.agent = agent ?? new this.mod.Agent({ keepAlive: true, maxSockets: 256 });
  }

  /** `onrequest` sees every ClientRequest actually sent (one per authorization round). */
  request(
    method: string,
    headers: Record<string, string>,
    body?: string,
    url: URL = this.url,
    onrequest?: (req: http.ClientRequest) => void,
  ): Promise<http.IncomingMessage> {
    if (this.auth === undefined) return this.send(method, headers, body, url, onrequest);
    return sendAuthorized(this.auth, url, method, headers, (h) => this.send(method, h, body, url, onrequest), this);
  }

  private send(
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    url: URL,
    onrequest: ((req: http.ClientRequest) => void) | undefined,
  ): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      // node copies the options into the ClientRequest before `request` returns, so the options
      // of our own endpoint are one object refilled per request, not a fresh copy.
      const options = url === this.url ? this.target : targetOf(url);
      options.method = method;
      options.headers = headers;
      options.agent = this.agent;
      const req = this.mod.request(options);
      options.headers = undefined;
      const link = this.inflight.add(req);
      onrequest?.(req);
      // `on`, not `once`: each of these fires at most once per request, and `once` adds a wrapper
      // closure per listener on a path taken for every message.
      let answered = false;
      const forget = (): void => this.inflight.remove(link);
      req.on("response", (res) => {
        answered = true;
        // The request stays tracked until its response is fully read or torn down.
        res.on("close", forget);
        resolve(res);
      });
      req.on("error", (e) => {
        forget();
        reject(e);
      });
      req.on("close", () => {
        if (!answered) forget();
      });
      if (body !== undefined) req.end(body);
      else req.end();
    });
  }

  status(res: http.IncomingMessage): number {
    return res.statusCode ?? 0;
  }

  header(res: http.IncomingMessage, name: string): string | undefined {
    const v = res.headers[name];
    return Array.isArray(v) ? v.join(", ") : v;
  }

  text(res: http.IncomingMessage, limit: number): Promise<string> {
    return readText(res, limit);
  }

  stream(res: http.IncomingMessage, ondata: (chunk: Uint8Array) => void, onend: () => void): void {
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      onend();
    };
    res.on("data", ondata);
    res.once("end", end);
    res.once("close", end);
    res.once("error", end);
  }

  discard(res: http.IncomingMessage): void {
    res.resume();
  }

  end(res: http.IncomingMessage): void {
    res.destroy();
  }

  cancel(req: http.ClientRequest): void {
    req.destroy();
  }

  abortAll(): void {
    this.inflight.destroyAll();
  }

  destroy(): void {
    this.abortAll();
    if (this.ownAgent) this.agent.destroy();
  }
}

/** A request in flight: a node of InflightList, `req` cleared once it is removed. */
interface Link {
  req: http.ClientRequest | undefined;
  prev: Link | undefined;
  next: Link | undefined;
}

/**
 * The requests in flight, as a doubly linked list of small nodes rather than a Set. A long-lived
 * Set (or Map) with one add and one delete per request keeps reallocating its hash table, and
 * once the collection is in the old generation those tables are allocated there too: every
 * discarded table still points at the requests it held, the scavenger treats those pointers as
 * roots until the next mark-compact, so nearly every ClientRequest (with its headers, parser
 * state and response) was promoted. Measured at 16 in flight: 127 MB promoted and 6 mark-compacts
 * per 30 000 calls (raw node:http: 0.25 MB, none), scavenges 8–9x as long, the client's CPU per
 * call 1.6x raw's. Nodes of this list live and die young; unlinking only rewrites the neighbours.
 */
class InflightList {
  private readonly head: Link = { req: undefined, prev: undefined, next: undefined };

  constructor() {
    this.head.prev = this.head.next = this.head;
  }

  add(req: http.ClientRequest): Link {
    const last = this.head.prev!;
    const link: Link = { req, prev: last, next: this.head };
    last.next = link;
    this.head.prev = link;
    return link;
  }

  /** Idempotent: a request can report its end more than once (error, then close). */
  remove(link: Link): void {
    if (link.req === undefined) return;
    link.req = undefined;
    link.prev!.next = link.next;
    link.next!.prev = link.prev;
    link.prev = link.next = undefined;
  }

  /** Destroys every request still tracked; the list is emptied first, so their events find nothing to remove. */
  destroyAll(): void {
    let link = this.head.next!;
    this.head.prev = this.head.next = this.head;
    while (link !== this.head) {
      const next = link.next!;
      const req = link.req!;
      link.req = link.prev = link.next = undefined;
      req.destroy();
      link = next;
    }
  }
}

/** What node's `urlToHttpOptions` takes from a URL (the IPv6 brackets off the host name, credentials as `auth`). */
function targetOf(url: URL): http.RequestOptions {
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const options: http.RequestOptions = { protocol: url.protocol, hostname, path: `${url.pathname}${url.search}` };
  if (url.port !== "") options.port = Number(url.port);
  if (url.username !== "" || url.password !== "")
    options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return options;
}

/** Reads a whole response body (bounded). */
function readText(res: http.IncomingMessage, limit = 16 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        res.destroy();
        reject(new Error(`response body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    // Settling twice is a no-op, so plain `on` listeners do (see send above).
    res.on("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
    );
    res.on("error", reject);
    res.on("aborted", () => reject(new Error("response aborted")));
  });
}
