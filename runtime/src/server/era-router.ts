/**
 * One connection (a stdio pipe, an in-memory pair) served in both eras at once (lifecycle.md
 * §13.2): each inbound message goes to the legacy session or the 2026-07-28 session by how it
 * opens. A request whose `_meta` names a protocol version is modern; `initialize`, and anything
 * after it that carries no such `_meta`, is legacy; a bare request before any `initialize` is
 * modern (and refused there for its missing `_meta`), except `ping`, which legacy allows early.
 * Responses only ever answer the legacy session's requests (modern servers send none).
 */
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport } from "../transport.js";
import { declaresModern } from "../lifecycle/modern/meta.js";

type Era = "legacy" | "modern";

/** The view of the shared transport one era's session gets. */
class EraTransport implements Transport {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly router: EraRouter) {}

  start(): Promise<void> {
    return this.router.start();
  }
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    return this.router.base.send(message, options);
  }
  close(): Promise<void> {
    return this.router.base.close();
  }
  setProtocolVersion(version: string): void {
    this.router.base.setProtocolVersion?.(version);
  }
  get sessionId(): string | undefined {
    return this.router.base.sessionId;
  }
  get peerIdentity(): string | undefined {
    return this.router.base.peerIdentity;
  }
  closeStream(requestId: RequestId): boolean {
    return this.router.base.closeStream?.(requestId) ?? false;
  }
}

export class EraRouter {
  readonly legacy: EraTransport;
  readonly modern: EraTransport;
  private started: Promise<void> | undefined;
  private legacyOpened = false;
  /** Creates the modern session on first use (most stdio clients speak one era only). */
  onmodern?: () => void;

  constructor(readonly base: Transport) {
    this.legacy = new EraTransport(this);
    this.modern = new EraTransport(this);
    base.onmessage = (message, context) => this.route(message, context);
    base.onclose = () => {
      this.legacy.onclose?.();
      this.modern.onclose?.();
    };
    base.onerror = (e) => (this.legacy.onerror ?? this.modern.onerror)?.(e);
  }

  start(): Promise<void> {
    return (this.started ??= this.base.start());
  }

  /** Which era's session takes `message`. */
  eraOf(message: unknown): Era | "both" {
    if (typeof message !== "object" || message === null || Array.isArray(message)) return "legacy";
    const m = message as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof m.method !== "string") return "legacy";
    if (m.id === undefined) return m.method === "notifications/cancelled" ? "both" : "legacy";
    if (declaresModern(m.params)) return "modern";
    if (m.method === "initialize") {
      this.legacyOpened = true;
      return "legacy";
    }
    return this.legacyOpened || m.method === "ping" ? "legacy" : "modern";
  }

  private route(message: JSONRPCMessage | JSONRPCMessage[], context: MessageContext | undefined): void {
    const era = this.eraOf(message);
    if (era === "modern" && this.modern.onmessage === undefined) this.onmodern?.();
    if (era === "modern" || era === "both") this.modern.onmessage?.(message, context);
    if (era === "legacy" || era === "both") this.legacy.onmessage?.(message, context);
  }
}
