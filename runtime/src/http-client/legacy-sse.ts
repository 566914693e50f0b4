import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { SseDecoder } from "../framing/sse.js";
import { FrameError } from "../framing/frame-error.js";
import { outlineOf, textExceedsDepth } from "../framing/scan.js";
import { CLIENT_MAX_MESSAGE_BYTES, MAX_NESTING_DEPTH } from "../limits.js";
import { HttpStatusError, type HttpDriver, type NodeHttpAgent } from "./driver.js";
import { defaultHttpDriver } from "#http-driver";
import type { HttpAuthorizer } from "../auth/hook.js";

export interface LegacySseClientOptions {
  /** The SSE endpoint (GET). */
  url: string | URL;
  headers?: Record<string, string>;
  agent?: NodeHttpAgent;
  /** Send over this `fetch` instead of the host's default (node:http on Node, fetch elsewhere); e.g. a Workers service binding's. */
  fetch?: typeof fetch;
  /** Authorization header source and 401/403 handler (see `StreamableHttpClientOptions.auth`). */
  auth?: HttpAuthorizer;
  /** Bound on waiting for the `endpoint` event (default 10000 ms). */
  connectTimeoutMs?: number;
  maxMessageChars?: number;
}

/**
 * Client side of the 2024-11-05 HTTP+SSE transport: GET the SSE stream, wait for its `endpoint`
 * event, POST every message there; server messages arrive as `message` events. The stream
 * ending closes the transport.
 */
export class LegacySseClientTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;

  private readonly o: LegacySseClientOptions;
  private readonly http: HttpDriver;
  private endpoint: URL | undefined;
  private protocolVersion: string | undefined;
  private closed = false;
  private stream: unknown;

  constructor(options: LegacySseClientOptions) {
    this.o = options;
    this.http = defaultHttpDriver({
      url: new URL(options.url),
      agent: options.agent,
      auth: options.auth,
      fetch: options.fetch,
    });
  }

  /** The URI the server told us to POST to. */
  get endpointUrl(): URL | undefined {
    return this.endpoint;
  }

  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {
    const res = await this.http.request("GET", { ...this.o.headers, accept: "text/event-stream" });
    const status = this.http.status(res);
    if (status !== 200 || !(this.http.header(res, "content-type") ?? "").includes("text/event-stream")) {
      const text = await this.http.text(res, 64 * 1024).catch(() => "");
      this.http.destroy();
      throw new HttpStatusError(status, text, "SSE GET failed");
    }
    this.stream = res;
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(
        () => fail(new Error("no endpoint event from the SSE server")),
        this.o.connectTimeoutMs ?? 10_000,
      );
      const fail = (e: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.http.end(res);
        reject(e);
      };
      const decoder = new SseDecoder(
        {
          onevent: (e) => {
            if (e.event === "endpoint") {
              if (settled) return;
              let ep: URL;
              try {
                ep = new URL(e.data.trim(), this.http.url);
              } catch {
                fail(new Error(`invalid endpoint event: ${e.data}`));
                return;
              }
              // A server may not redirect our messages to another origin.
              if (ep.origin !== this.http.url.origin) {
                fail(new Error(`endpoint origin ${ep.origin} differs from ${this.http.url.origin}`));
                return;
              }
              this.endpoint = ep;
              settled = true;
              clearTimeout(timer);
              resolve();
              return;
            }
            if (e.event !== undefined && e.event !== "message") return;
            if (e.data === "") return;
            let m: JSONRPCMessage | JSONRPCMessage[];
            try {
              m = JSON.parse(e.data) as JSONRPCMessage;
            } catch {
              this.onerror?.(new Error("SSE event data is not JSON"));
              return;
            }
            if (textExceedsDepth(e.data, MAX_NESTING_DEPTH)) {
              const outline = outlineOf(m);
              const error = new FrameError(
                `SSE event nests deeper than ${MAX_NESTING_DEPTH} levels`,
                {
                  jsonrpc: "2.0",
                  id: null,
                  error: { code: -32600, message: "Invalid Request: message nests too deep" },
                },
                outline,
              );
              if (this.onframeerror) this.onframeerror(error);
              else this.onerror?.(error);
              return;
            }
            try {
              this.onmessage?.(m);
            } catch (err) {
              this.onerror?.(err as Error);
            }
          },
          onerror: (err) => this.onerror?.(err),
        },
        { maxBufferChars: this.o.maxMessageChars ?? CLIENT_MAX_MESSAGE_BYTES },
      );
      this.http.stream(
        res,
        (c) => decoder.push(c),
        () => {
          decoder.end();
          fail(new Error("SSE stream ended before the endpoint event"));
          void this.close();
        },
      );
    });
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: SendOptions): Promise<void> {
    if (this.closed || !this.endpoint) throw new Error(this.closed ? "transport is closed" : "transport not started");
    const h: Record<string, string> = { ...this.o.headers, "content-type": "application/json" };
    if (this.protocolVersion !== undefined) h["mcp-protocol-version"] = this.protocolVersion;
    const res = await this.http.request("POST", h, JSON.stringify(message), this.endpoint);
    const status = this.http.status(res);
    if (status < 200 || status >= 300) {
      const text = await this.http.text(res, 64 * 1024).catch(() => "");
      throw new HttpStatusError(status, text, "POST failed");
    }
    this.http.discard(res);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.stream !== undefined) this.http.end(this.stream);
    this.http.destroy();
    this.onclose?.();
  }
}
