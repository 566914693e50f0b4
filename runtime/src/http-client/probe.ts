import type { JSONRPCMessage } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "./streamable-client.js";
import { HttpStatusError, type NodeHttpAgent } from "./driver.js";
import type { FrameError } from "../framing/frame-error.js";
import { LegacySseClientTransport } from "./legacy-sse.js";
import { ModernHttpClientTransport } from "./modern-client.js";
import { MetaKey, type HeaderParam } from "../lifecycle/modern/wire.js";
import { WatchedAuthorizer } from "../auth/hook.js";

export interface HttpProbeOptions extends Omit<StreamableHttpClientOptions, "url" | "sessionId"> {
  /** Where to GET the legacy SSE stream on fallback (default: the same URL). */
  legacySseUrl?: string | URL;
  agent?: NodeHttpAgent;
}

/**
 * A client transport for a URL of unknown kind. Messages of the 2026-07-28 shape (a request whose
 * `_meta` names its protocol version, and cancellations of such requests) go over the stateless
 * modern Streamable HTTP transport, so the dual-era client's `server/discover` probe and all its
 * later 2026 traffic travel there. Legacy traffic keeps the backwards-compatible path (2025-03-26
 * §Transports): the first legacy message (`initialize`) is POSTed as Streamable HTTP; if that
 * POST is refused with 400, 404 or 405 the transport falls back to the 2024-11-05 HTTP+SSE
 * transport (GET, wait for the `endpoint` event) and sends the message there. Later legacy sends
 * wait for the decision.
 */
export class HttpProbeClientTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;

  private readonly address: URL;
  private readonly o: HttpProbeOptions;
  private active: Transport;
  private decided: Promise<void> | undefined;
  private kind: "unknown" | "streamable-http" | "sse" = "unknown";
  private protocolVersion: string | undefined;
  private closed = false;
  private modern: ModernHttpClientTransport | undefined;
  private usedModern = false;
  private readonly watched: WatchedAuthorizer | undefined;
  private readonly authListeners = new Set<(authorizing: boolean, failed: boolean) => void>();

  constructor(url: string | URL, options: HttpProbeOptions = {}) {
    this.address = new URL(url);
    // Every half shares one watched authorizer, so the probe sees an authorization wherever it runs.
    if (options.auth !== undefined) {
      const watched = new WatchedAuthorizer(options.auth);
      watched.onchange = (active, failed) => {
        if (active <= 1 || failed) for (const l of this.authListeners) l(active > 0, failed);
      };
      this.watched = watched;
      options = { ...options, auth: watched };
    }
    this.o = options;
    this.active = this.wire(new StreamableHttpClientTransport({ ...options, url: this.address }));
  }

  /** Which transport the server turned out to speak (`modern`: only 2026-07-28 traffic so far). */
  get mode(): "unknown" | "modern" | "streamable-http" | "sse" {
    return this.kind === "unknown" && this.usedModern ? "modern" : this.kind;
  }

  /** The endpoint (the era cache keys HTTP servers by it). */
  get url(): URL {
    return this.address;
  }

  /** What it knows beyond moving messages is in its own members (see TransportHints). */
  get hints(): TransportHints {
    return this;
  }

  setToolHeaders(tool: string, params: readonly HeaderParam[] | undefined): void {
    this.modernTransport().setToolHeaders(tool, params);
  }

  watchAuthorization(listener: (authorizing: boolean, failed: boolean) => void): () => void {
    this.authListeners.add(listener);
    if (this.watched !== undefined && this.watched.active > 0) listener(true, false);
    return () => void this.authListeners.delete(listener);
  }

  private modernTransport(): ModernHttpClientTransport {
    if (this.modern !== undefined) return this.modern;
    const t = new ModernHttpClientTransport({
      url: this.address,
      headers: this.o.headers,
      agent: this.o.agent,
      fetch: this.o.fetch,
      maxMessageChars: this.o.maxMessageChars,
      auth: this.o.auth,
    });
    t.onmessage = (m, c) => this.onmessage?.(m, c);
    t.onerror = (e) => this.onerror?.(e);
    void t.start();
    this.modern = t;
    return t;
  }

  private isModern(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
    if (Array.isArray(message) || !("method" in message)) return false;
    const params = message.params as Record<string, unknown> | undefined;
    if (message.method === "notifications/cancelled") {
      const id = params?.requestId;
      return this.modern !== undefined && (typeof id === "string" || typeof id === "number") && this.modern.owns(id);
    }
    const meta = params?._meta as Record<string, unknown> | undefined;
    return "id" in message && typeof meta?.[MetaKey.protocolVersion] === "string";
  }

  get sessionId(): string | undefined {
    return this.active.hints?.sessionId;
  }

  async start(): Promise<void> {
    await this.active.start();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.active.hints?.setProtocolVersion?.(version);
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.kind === "unknown" && this.isModern(message)) {
      this.usedModern = true;
      return this.modernTransport().send(message, options);
    }
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
        new LegacySseClientTransport({
          url: this.o.legacySseUrl ?? this.address,
          headers: this.o.headers,
          agent: this.o.agent,
          fetch: this.o.fetch,
          auth: this.o.auth,
        }),
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
    if (this.modern !== undefined) {
      // Closing the modern half alone must not end the connection for the session; the legacy half reports the close.
      const t = this.modern;
      this.modern = undefined;
      await t.close();
      if (this.kind === "unknown") {
        this.active.onclose = undefined;
        await this.active.close();
        this.onclose?.();
        return;
      }
    }
    await this.active.close();
  }

  private wire<T extends Transport>(t: T): T {
    t.onmessage = (m, c) => {
      if (this.active === t) this.onmessage?.(m, c);
    };
    t.onframeerror = (e) => {
      if (this.active !== t) return;
      if (this.onframeerror) this.onframeerror(e);
      else this.onerror?.(e);
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
