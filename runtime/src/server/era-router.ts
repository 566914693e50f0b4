/**
 * One connection (a stdio pipe, an in-memory pair) served in both eras at once
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions):
 * each inbound message goes to the legacy session or the 2026-07-28 session by how it opens. A
 * request whose `_meta` names a protocol version is modern; `initialize`, and anything after it
 * that carries no such `_meta`, is legacy; a bare request before any `initialize` is modern (and
 * refused there for its missing `_meta`), except `ping`, which legacy allows early. Responses only
 * ever answer the legacy session's requests (modern servers send none).
 */
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageContext, SendOptions, Transport, TransportHints } from "../transport.js";
import type { FrameError } from "../framing/frame-error.js";
import { declaresModern } from "../lifecycle/modern/meta.js";
import { ErrorCode } from "../jsonrpc.js";
import { MAX_RUNNING_REQUESTS } from "../limits.js";
import { LoadGate } from "../session/load-gate.js";

type Era = "legacy" | "modern";

/** The view of the shared transport one era's session gets. */
class EraTransport implements Transport, TransportHints {
  onmessage?: (message: JSONRPCMessage | JSONRPCMessage[], context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onframeerror?: (error: FrameError) => void;
  oninputend?: () => Promise<void>;
  /**
   * The shared transport's, when it has one: a session tests for it to write its responses from
   * their results (servers send no request that sendText would serve).
   */
  readonly sendResult: TransportHints["sendResult"];

  constructor(private readonly router: EraRouter) {
    const hints = router.base.hints;
    this.sendResult = hints?.sendResult?.bind(hints);
  }

  start(): Promise<void> {
    return this.router.start();
  }
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    return this.router.base.send(message, options);
  }
  close(): Promise<void> {
    return this.router.base.close();
  }
  /** The shared transport's hints, as one era's session sees them. */
  get hints(): TransportHints {
    return this;
  }

  setProtocolVersion(version: string): void {
    this.router.base.hints?.setProtocolVersion?.(version);
  }
  get sessionId(): string | undefined {
    return this.router.base.hints?.sessionId;
  }
  get peerIdentity(): string | undefined {
    return this.router.base.hints?.peerIdentity;
  }
  get inputEnds(): boolean | undefined {
    return this.router.base.hints?.inputEnds;
  }
  closeStream(requestId: RequestId): boolean {
    return this.router.base.hints?.closeStream?.(requestId) ?? false;
  }
  onReplyStreamClosed(requestId: RequestId, ongone: (requestId: RequestId) => void): void {
    this.router.base.hints?.onReplyStreamClosed?.(requestId, ongone);
  }
  abandonReply(requestId: RequestId): void {
    this.router.base.hints?.abandonReply?.(requestId);
  }
}

export class EraRouter {
  readonly legacy: EraTransport;
  readonly modern: EraTransport;
  private started: Promise<void> | undefined;
  private legacyOpened = false;
  /** Creates the modern session on first use (most stdio clients speak one era only). */
  onmodern?: () => void;
  private readonly gate: LoadGate;

  constructor(
    readonly base: Transport,
    /**
     * What must load before the first modern message can be routed (the server's 2026-07-28
     * path); undefined once loaded. Messages wait for it in order, as for a revision's validators.
     */
    prepareModern?: () => Promise<void> | undefined,
    maxHeld: number = MAX_RUNNING_REQUESTS,
  ) {
    this.legacy = new EraTransport(this);
    this.modern = new EraTransport(this);
    const need = (m: unknown) =>
      prepareModern === undefined || this.modern.onmessage !== undefined || this.eraOf(m) !== "modern"
        ? undefined
        : prepareModern();
    this.gate = new LoadGate(
      need,
      (m, context) => this.route(m as JSONRPCMessage | JSONRPCMessage[], context),
      (m, _context, e) => this.refuse(m, e),
      maxHeld,
    );
    base.onmessage = (message, context) => {
      // LoadGate.receive, with the router's own functions called directly and the message's era
      // read once; once the modern path is there (or never needed) nothing has to load.
      if (!this.gate.open) return this.gate.receive(message, context);
      const era = this.eraOf(message);
      const loading = era === "modern" && this.modern.onmessage === undefined ? prepareModern?.() : undefined;
      if (loading === undefined) return this.routeAs(era, message, context);
      this.gate.hold(message, context, loading);
    };
    base.onclose = () => {
      this.gate.clear();
      this.legacy.onclose?.();
      this.modern.onclose?.();
    };
    base.onerror = (e) => (this.legacy.onerror ?? this.modern.onerror)?.(e);
    // A message too large or too deep to deliver goes to the legacy session (built with the
    // router): a response can only answer one of its requests, which then fails at once instead
    // of timing out, and a request's era cannot be read from its outline while both sessions
    // answer one alike (-32600 by its id).
    base.onframeerror = (e) => (this.legacy.onframeerror ?? this.legacy.onerror)?.(e);
    if (base.hints?.inputEnds === true) {
      base.oninputend = async () => {
        // What waits for the 2026-07-28 path is routed first (it may start the modern session).
        await this.gate.whenOpen();
        await Promise.all([this.legacy.oninputend?.(), this.modern.oninputend?.()]);
      };
    }
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
    return this.legacyOpened || m.method === "initialize" || m.method === "ping" ? "legacy" : "modern";
  }

  /** A message that needed the modern path, which failed to load (or too many waited for it). */
  private refuse(message: unknown, e: Error): void {
    (this.legacy.onerror ?? this.modern.onerror)?.(e);
    const m = (typeof message === "object" && message !== null && !Array.isArray(message) ? message : {}) as {
      method?: unknown;
      id?: unknown;
    };
    if (typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number")) {
      this.base
        .send({
          jsonrpc: "2.0",
          id: m.id,
          error: { code: ErrorCode.InternalError, message: `Internal error: ${e.message}` },
        })
        .catch(() => {});
    }
  }

  private route(message: JSONRPCMessage | JSONRPCMessage[], context: MessageContext | undefined): void {
    this.routeAs(this.eraOf(message), message, context);
  }

  private routeAs(
    era: Era | "both",
    message: JSONRPCMessage | JSONRPCMessage[],
    context: MessageContext | undefined,
  ): void {
    // A legacy initialize opens the legacy session: from then on its requests are legacy ones.
    if (era === "legacy" && !this.legacyOpened && isInitializeRequest(message)) this.legacyOpened = true;
    if (era === "modern" && this.modern.onmessage === undefined) this.onmodern?.();
    if (era === "modern" || era === "both") this.modern.onmessage?.(message, context);
    if (era === "legacy" || era === "both") this.legacy.onmessage?.(message, context);
  }
}

function isInitializeRequest(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  return (
    !Array.isArray(message) &&
    "method" in message &&
    message.method === "initialize" &&
    "id" in message &&
    message.id !== undefined
  );
}
