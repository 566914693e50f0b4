import type * as http from "node:http";
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport } from "../transport.js";
import { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "./streamable-client.js";
import { HttpStatusError } from "./request.js";
import { LegacySseClientTransport } from "../sse-legacy/client.js";

export interface HttpProbeOptions extends Omit<StreamableHttpClientOptions, "url" | "sessionId"> {
  /** Where to GET the legacy SSE stream on fallback (default: the same URL). */
  legacySseUrl?: string | URL;
  agent?: http.Agent;
}

/**
 * A client transport for a URL of unknown kind (backwards compatibility, 2025-03-26 §Transports):
 * the first message (the session sends `initialize`) is POSTed as Streamable HTTP; if that POST
 * is refused with 400, 404 or 405 the transport falls back to the 2024-11-05 HTTP+SSE transport
 * (GET, wait for the `endpoint` event) and sends the message there. Later sends wait for the
 * decision.
 */
export class HttpProbeClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly url: URL;
  private readonly o: HttpProbeOptions;
  private active: Transport;
  private decided: Promise<void> | undefined;
  private kind: "unknown" | "streamable-http" | "sse" = "unknown";
  private protocolVersion: string | undefined;
  private closed = false;

  constructor(url: string | URL, options: HttpProbeOptions = {}) {
    this.url = new URL(url);
    this.o = options;
    this.active = this.wire(new StreamableHttpClientTransport({ ...options, url: this.url }));
  }

  /** Which transport the server turned out to speak. */
  get mode(): "unknown" | "streamable-http" | "sse" {
    return this.kind;
  }

  get sessionId(): string | undefined {
    return this.active.sessionId;
  }

  async start(): Promise<void> {
    await this.active.start();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.active.setProtocolVersion?.(version);
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.kind !== "unknown") return this.active.send(message, options);
    if (this.decided) return this.decided.then(() => this.active.send(message, options));
    const first = this.probe(message, options);
    this.decided = first.then(
      () => {},
      () => {},
    );
    return first;
  }

  private async probe(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    try {
      await this.active.send(message, options);
      this.kind = "streamable-http";
    } catch (e) {
      const status = e instanceof HttpStatusError ? e.status : 0;
      if (status !== 400 && status !== 404 && status !== 405) throw e;
      const old = this.active;
      const legacy = this.wire(
        new LegacySseClientTransport({ url: this.o.legacySseUrl ?? this.url, headers: this.o.headers, agent: this.o.agent, auth: this.o.auth }),
      );
      this.active = legacy;
      // Quietly drop the Streamable HTTP attempt (it holds no session).
      old.onclose = undefined;
      void old.close();
      await legacy.start();
      if (this.protocolVersion !== undefined) legacy.setProtocolVersion(this.protocolVersion);
      this.kind = "sse";
      await legacy.send(message, options);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.active.close();
  }

  private wire<T extends Transport>(t: T): T {
    t.onmessage = (m, c) => {
      if (this.active === t) this.onmessage?.(m, c);
    };
    t.onerror = (e) => {
      if (this.active === t) this.onerror?.(e);
    };
    t.onclose = () => {
      if (this.active === t) {
        this.closed = true;
        this.onclose?.();
      }
    };
    return t;
  }
}

/** A client transport that speaks Streamable HTTP or falls back to HTTP+SSE, decided on the first POST. */
export function connectHttp(url: string | URL, options: HttpProbeOptions = {}): HttpProbeClientTransport {
  return new HttpProbeClientTransport(url, options);
}
