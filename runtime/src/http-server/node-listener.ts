/**
 * A fetch handler as a node:http request listener, the shape Express, Fastify (with `reply.hijack()`)
 * and a bare node:http server call: `(req, res) => void`.
 *
 * A handler made by createFetchHandler is served without any Request or Response: its endpoint
 * reads node's request and writes node's response directly (http-exchange.ts), as the node:http handler
 * does, with node's socket telling which address the request arrived on. Any other fetch handler
 * (another library's) gets a Request with a streamed body and an AbortSignal that fires when the
 * client goes away, and its Response is written back streamed, waiting on `drain` so a slow client
 * holds back the stream rather than node's memory.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpRequestIn } from "../http-exchange.js";
import { failed, type StreamableHttpEndpoint } from "./endpoint.js";
import { NODE_ROUTE } from "./fetch.js";
import { wholeBody } from "./http-util.js";

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** What a framework left of a body it parsed before the listener (Express's `express.json()` sets `req.body`). */
interface ParsedBodyRequest extends IncomingMessage {
  body?: unknown;
  /** Express keeps the target as sent here when a router strips its mount path from `url`. */
  originalUrl?: string;
}

/**
 * A request whose body a framework read already: its parsed value, serialised again, is the body
 * the endpoint reads (within the same limits).
 */
function replayedBody(req: ParsedBodyRequest): HttpRequestIn {
  const text = typeof req.body === "string" ? req.body : JSON.stringify(req.body);
  const bytes = new TextEncoder().encode(text);
  let ondata: ((chunk: Uint8Array) => void) | undefined;
  let onend: (() => void) | undefined;
  const headers = { ...req.headers, "content-length": String(bytes.length) };
  return {
    method: req.method,
    url: req.originalUrl ?? req.url,
    headers,
    socket: req.socket,
    on(event: string, listener: (...args: never[]) => void) {
      // The body is in memory: nothing can cut it short (node's request closed once it was read).
      if (event === "data") ondata = listener as (chunk: Uint8Array) => void;
      else if (event === "end") onend = listener as () => void;
      if (ondata !== undefined && onend !== undefined) {
        const [d, e] = [ondata, onend];
        ondata = onend = undefined;
        queueMicrotask(() => {
          d(bytes);
          e();
        });
      }
      return this;
    },
    off() {
      return this;
    },
  } as HttpRequestIn;
}

function serveDirect(endpoint: StreamableHttpEndpoint, req: ParsedBodyRequest, res: ServerResponse): void {
  // Express's body parsers read the stream before the route runs; what they parsed is replayed.
  const consumed = req.body !== undefined && (req.readableEnded || req.complete);
  const incoming: HttpRequestIn = consumed ? replayedBody(req) : req;
  let r: Promise<void> | void;
  try {
    r = endpoint.route(incoming, res, req.originalUrl);
  } catch (e) {
    r = Promise.reject(e);
  }
  if (r) r.catch((e: unknown) => failed(endpoint, res, e));
}

/** node's request as a Request: headers as sent, the body streamed, aborted when the client goes. */
function toRequest(req: ParsedBodyRequest, res: ServerResponse): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const host = req.headers.host ?? "localhost";
  const url = `http://${host}${req.originalUrl ?? req.url ?? "/"}`;
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers, signal: controller.signal });
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      req.on("data", (chunk: Uint8Array) => {
        c.enqueue(chunk);
        if ((c.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => c.close());
      req.on("error", (e) => c.error(e));
    },
    pull() {
      req.resume();
    },
    cancel() {
      req.resume();
    },
  });
  return new Request(url, { method, headers, body, signal: controller.signal, duplex: "half" } as RequestInit);
}

/** A Response written to node's response, streamed with backpressure; cancelled when the client goes. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.();
  if (cookies !== undefined && cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  const reader = body.getReader();
  const gone = (): void => void reader.cancel().catch(() => {});
  res.on("close", gone);
  // Headers first: an SSE stream may say nothing for a while.
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off("close", gone);
  }
}

/**
 * `handler` as a node:http listener. Express: `app.all("/mcp", toNodeListener(handler))`; Fastify:
 * `app.all("/mcp", (request, reply) => { reply.hijack(); listener(request.raw, reply.raw) })`
 * (see docs/deploy-node.md); a bare server: `createServer(toNodeListener(handler))`.
 */
export function toNodeListener(handler: (request: Request) => Promise<Response>): NodeListener {
  const endpoint = (handler as { [NODE_ROUTE]?: StreamableHttpEndpoint })[NODE_ROUTE];
  if (endpoint !== undefined) {
    // node's requests reach the endpoint itself: a body that came with its headers is taken at once.
    endpoint.bufferedBody = wholeBody;
    return (req, res) => serveDirect(endpoint, req, res);
  }
  return (req: ParsedBodyRequest, res, next) => {
    let response: Promise<Response>;
    try {
      response = handler(toRequest(req, res));
    } catch (e) {
      response = Promise.reject(e);
    }
    response.then(
      (r) => writeResponse(r, res),
      (e: unknown) => {
        if (next !== undefined) return next(e);
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      },
    );
  };
}

/** What fastifyPlugin uses of a Fastify instance (no dependency on Fastify's types). */
export interface FastifyLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    parser: (request: unknown, payload: unknown, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  route(options: {
    method: string[];
    url: string;
    handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => void;
  }): unknown;
}

/**
 * `handler` as a Fastify plugin serving `path` (default "/mcp"): `app.register(fastifyPlugin(handler))`.
 * Inside the plugin's own context no body parser runs, so the endpoint reads each body itself
 * within its limits (Fastify's parsers elsewhere in the app are untouched), and the reply is
 * hijacked: the endpoint writes node's response, streams included.
 */
export function fastifyPlugin(
  handler: (request: Request) => Promise<Response>,
  options: { path?: string } = {},
): (instance: FastifyLike) => Promise<void> {
  const listener = toNodeListener(handler);
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser("*", (_request, _payload, done) => done(null));
    instance.route({
      method: ["GET", "POST", "DELETE"],
      url: options.path ?? "/mcp",
      handler: (request, reply) => {
        reply.hijack();
        listener(request.raw, reply.raw);
      },
    });
  };
}
