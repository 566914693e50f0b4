/**
 * Streamable HTTP client transport, 2026-07-28 shape
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http): one
 * POST per message, no session, no GET stream; each POST carries the request-metadata headers
 * mirrored from its body (MCP-Protocol-Version, Mcp-Method, Mcp-Name, and Mcp-Param-* for tool
 * arguments annotated `x-mcp-header`). Replies come as one JSON object or an SSE stream (comments
 * ignored). Closing a request's HTTP exchange is that request's cancellation, so
 * `notifications/cancelled` from the session is carried out as exactly that and never POSTed.
 */
import { isObject } from "../jsonrpc.js";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { SseDecoder } from "../framing/sse.js";
import {
  argumentAt,
  encodeHeaderValue,
  headerIntegerOk,
  MetaKey,
  nameField,
  type HeaderParam,
} from "../lifecycle/modern/wire.js";
import { HttpStatusError, type HttpDriver, type NodeHttpAgent } from "./driver.js";
import { defaultHttpDriver } from "#http-driver";
import type { HttpAuthorizer } from "../auth/hook.js";

export interface ModernHttpClientOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** Extra headers on every POST (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Keep-alive agent to use; default one per transport (destroyed on close). */
  agent?: NodeHttpAgent;
  /** Send over this `fetch` instead of the host's default (node:http on Node, fetch elsewhere); e.g. a Workers service binding's. */
  fetch?: typeof fetch;
  /** Largest SSE event accepted, in characters (default 4 Mi). */
  maxMessageChars?: number;
  /** Largest JSON reply body, in bytes (default 16 MiB). */
  maxBodyBytes?: number;
  /** Authorization (e.g. `OAuthClient` from `@mcpgen/runtime/auth`): the header of every POST, and what to do on 401/403. */
  auth?: HttpAuthorizer;
}

type Msg = Record<string, unknown>;

/** The value a mirrored header carries, or undefined when the argument cannot be mirrored as declared. */
function mirrored(value: unknown, type: HeaderParam["type"]): string | undefined {
  if (type === "string") return typeof value === "string" ? encodeHeaderValue(value) : undefined;
  if (type === "boolean") return typeof value === "boolean" ? encodeHeaderValue(value) : undefined;
  return typeof value === "number" && Number.isInteger(value) && headerIntegerOk(value)
    ? encodeHeaderValue(value)
    : undefined;
}

/**
 * The request-metadata headers of one message
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata).
 * `tools` gives the header annotations of each tool by name; `version` is used when the body
 * carries no protocol version.
 */
export function requestHeaders(
  message: Msg,
  tools: ReadonlyMap<string, readonly HeaderParam[]>,
  version: string | undefined,
): Record<string, string> {
  const h: Record<string, string> = {};
  const method = message.method;
  const params = isObject(message.params) ? message.params : undefined;
  const meta = isObject(params?._meta) ? params._meta : undefined;
  const v = meta?.[MetaKey.protocolVersion] ?? version;
  if (typeof v === "string") h["MCP-Protocol-Version"] = v;
  if (typeof method !== "string") return h;
  h["Mcp-Method"] = method;
  const field = nameField(method);
  const name = field === undefined ? undefined : params?.[field];
  if (typeof name === "string" || (typeof name === "number" && Number.isInteger(name)))
    h["Mcp-Name"] = encodeHeaderValue(name);
  if (method === "tools/call" && typeof name === "string") {
    for (const p of tools.get(name) ?? []) {
      const value = mirrored(argumentAt(params?.arguments, p.path), p.type);
      if (value !== undefined) h[`Mcp-Param-${p.header}`] = value;
    }
  }
  return h;
}

/** One POST whose reply is still owed: aborting it is cancelling the request. */
interface Exchange {
  req: unknown;
  cancelled: boolean;
  answered: boolean;
}

export class ModernHttpClientTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly o: ModernHttpClientOptions;
  private readonly http: HttpDriver;
  private protocolVersion: string | undefined;
  private readonly tools = new Map<string, readonly HeaderParam[]>();
  private readonly exchanges = new Map<RequestId, Exchange>();
  private started = false;
  private closed = false;

  constructor(options: ModernHttpClientOptions) {
    this.o = options;
    this.http = defaultHttpDriver({
      url: new URL(options.url),
      agent: options.agent,
      auth: options.auth,
      fetch: options.fetch,
    });
  }

  get url(): URL {
    return this.http.url;
  }

  /** Requests whose HTTP exchange is open. */
  get openExchanges(): number {
    return this.exchanges.size;
  }

  /** Whether this transport carries the request with this id (the dual-era probe routes cancellations by it). */
  owns(id: RequestId): boolean {
    return this.exchanges.has(id);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("transport already started");
    this.started = true;
  }

  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  setToolHeaders(tool: string, params: readonly HeaderParam[] | undefined): void {
    if (params === undefined || params.length === 0) this.tools.delete(tool);
    else this.tools.set(tool, params);
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: SendOptions): Promise<void> {
    if (this.closed) throw new Error("transport is closed");
    if (Array.isArray(message)) throw new Error("2026-07-28 has no JSON-RPC batches");
    const m = message as unknown as Msg;
    if (!("method" in m)) {
      // A 2026-07-28 client answers nothing: the server sends no requests.
      this.onerror?.(
        new Error(`response to ${JSON.stringify(m.id)} not sent: a 2026-07-28 client sends no JSON-RPC responses`),
      );
      return;
    }
    if (m.method === "notifications/cancelled") return this.cancel((m.params as Msg | undefined)?.requestId);
    const id = "id" in m ? (m.id as RequestId) : undefined;
    const h = requestHeaders(m, this.tools, this.protocolVersion);
    Object.assign(h, this.o.headers);
    h.accept = "application/json, text/event-stream";
    h["content-type"] = "application/json";
    const ex: Exchange = { req: undefined, cancelled: false, answered: false };
    if (id !== undefined) this.exchanges.set(id, ex);
    try {
      await this.exchange(m, id, h, ex);
    } catch (e) {
      if (ex.cancelled || this.closed) return;
      throw e;
    } finally {
      if (id !== undefined && this.exchanges.get(id) === ex) this.exchanges.delete(id);
      // The map churns once per request, and a table V8 discards from a long-lived Map keeps its
      // entries reachable until the next mark-compact: a finished exchange must not hold its
      // ClientRequest (and through it the response), or each one is promoted (see InflightList).
      ex.req = undefined;
    }
  }

  /** The POST and its whole reply; rejects when a request's reply ends without its response. */
  private async exchange(m: Msg, id: RequestId | undefined, h: Record<string, string>, ex: Exchange): Promise<void> {
    // A cancellation that lands while authorization is obtaining a token also ends the retried POST.
    const res = await this.http.request("POST", h, JSON.stringify(m), undefined, (req) => {
      ex.req = req;
      if (ex.cancelled) this.http.cancel(req);
    });
    const status = this.http.status(res);
    const ctype = this.http.header(res, "content-type") ?? "";
    if (status === 202) {
      this.http.discard(res);
      if (id !== undefined) throw new HttpStatusError(status, "", "request accepted without a response");
      return;
    }
    if (status < 200 || status >= 300) {
      const text = await this.http.text(res, 64 * 1024).catch(() => "");
      // 2026 servers answer refusals (400, 404) with a JSON-RPC error body: that is the answer.
      const reply = id === undefined ? undefined : errorReply(text, id);
      if (reply === undefined) throw new HttpStatusError(status, text, "POST failed");
      ex.answered = true;
      this.deliver(reply);
      return;
    }
    if (ctype.includes("text/event-stream")) {
      await this.consume(res, id, ex);
    } else {
      const text = await this.http.text(res, this.o.maxBodyBytes ?? 16 * 1024 * 1024);
      if (text.trim() !== "") {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new Error(`POST reply is not JSON (content-type ${ctype || "none"})`);
        }
        if (isObject(parsed) && !("method" in parsed) && parsed.id === id) ex.answered = true;
        this.deliver(parsed as JSONRPCMessage);
      }
    }
    if (id !== undefined && !ex.answered && !ex.cancelled)
      throw new Error(`the reply to request ${JSON.stringify(id)} ended without a response`);
  }

  private consume(res: unknown, id: RequestId | undefined, ex: Exchange): Promise<void> {
    return new Promise((resolve) => {
      const decoder = new SseDecoder(
        {
          onevent: (e) => {
            if (e.data === "" || (e.event !== undefined && e.event !== "message")) return;
            let parsed: unknown;
            try {
              parsed = JSON.parse(e.data);
            } catch {
              this.onerror?.(new Error("SSE event data is not JSON"));
              return;
            }
            if (isObject(parsed) && !("method" in parsed) && parsed.id === id) ex.answered = true;
            this.deliver(parsed as JSONRPCMessage);
          },
          onerror: (e) => this.onerror?.(e),
        },
        { maxBufferChars: this.o.maxMessageChars ?? 4 * 1024 * 1024 },
      );
      this.http.stream(
        res,
        (chunk) => decoder.push(chunk),
        () => {
          decoder.end();
          resolve();
        },
      );
    });
  }

  /**
   * Cancel = close the request's exchange
   * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#cancellation);
   * unknown ids are already over.
   */
  private cancel(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const ex = this.exchanges.get(requestId);
    if (ex === undefined) return;
    this.exchanges.delete(requestId);
    ex.cancelled = true;
    if (ex.req !== undefined) this.http.cancel(ex.req);
  }

  private deliver(m: JSONRPCMessage): void {
    try {
      this.onmessage?.(m);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ex of this.exchanges.values()) ex.cancelled = true;
    this.exchanges.clear();
    this.http.destroy();
    this.onclose?.();
  }
}

/**
 * A JSON-RPC error response in a refusal's body, tied to the request it refuses: the POST carried
 * exactly that request, so an id the server could not or did not echo (null) is taken to be it.
 */
function errorReply(text: string, id: RequestId): JSONRPCMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || parsed.jsonrpc !== "2.0" || !isObject(parsed.error) || typeof parsed.error.code !== "number")
    return undefined;
  if (parsed.id !== undefined && parsed.id !== null && parsed.id !== id) return undefined;
  return { jsonrpc: "2.0", id, error: parsed.error as { code: number; message: string } };
}
