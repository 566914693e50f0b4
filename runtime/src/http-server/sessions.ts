/**
 * The Streamable HTTP sessions of one handler: one per `initialize` (stateful), a transport of no
 * session per stateless or 2026-07-28 POST; each found by its Mcp-Session-Id for the principal
 * that opened it alone, and closed after `sessionIdleTimeoutMs` without activity.
 */
import { unrefTimer, type HttpReply, type HttpRequestHead } from "../http-exchange.js";
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { SessionRecord } from "./session-record.js";
import type { EventStore } from "./event-store.js";
import type { SessionDirectory } from "./session-directory.js";
import { headerValue, sendJsonError } from "./http-util.js";
import { StreamableHttpServerTransport } from "./session-transport.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";

export interface HttpSessionSettings {
  readonly stateless: boolean;
  /** Resumability of stateful sessions; undefined: none. */
  readonly store: EventStore | undefined;
  /** `store` is the endpoint's own InMemoryEventStore, and there is no directory (SessionTransportConfig.ownStore). */
  readonly ownStore: boolean;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  /** sessionIdleTimeoutMs (0: never). */
  readonly idleMs: number;
  readonly maxSessions: number;
  readonly genId: () => string;
  readonly report: (e: Error) => void;
  readonly directory: SessionDirectory | undefined;
}

export class HttpSessions {
  /** Live sessions by id (stateful mode). */
  readonly byId = new Map<string, StreamableHttpServerTransport>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  /** Records of this instance's sessions, kept when the directory shares them (SessionDirectory.save). */
  private readonly records: Map<string, SessionRecord> | undefined;
  /** Sessions being taken over here (adopt), by id. */
  private readonly adopting = new Map<string, Promise<void>>();
  /** Whether records are kept (see observe): a field, read once per message. */
  readonly sharing: boolean;

  constructor(private readonly s: HttpSessionSettings) {
    this.sharing = s.directory?.save !== undefined && s.directory.records !== undefined && !s.stateless;
    if (this.sharing) this.records = new Map();
  }

  /** A transport of session `sessionId`, or of none (a stateless POST; `modern`: a 2026-07-28 POST). */
  transport(
    sessionId: string | undefined,
    modern = false,
    owner?: string,
    adopt?: SessionRecord,
  ): StreamableHttpServerTransport {
    const s = this.s;
    const records = this.records;
    return new StreamableHttpServerTransport({
      adopt: adopt && { streams: adopt.streams, standalone: adopt.standalone },
      onstandalone:
        records === undefined || sessionId === undefined || modern
          ? undefined
          : (id) => {
              const r = records.get(sessionId);
              if (r !== undefined && r.standalone !== id) {
                r.standalone = id;
                this.save(sessionId, owner, r);
              }
            },
      sessionId,
      owner,
      eventStore: modern ? undefined : s.store,
      ownStore: s.ownStore,
      retryMs: s.retryMs,
      keepAliveMs: s.keepAliveMs,
      modern,
      closeWhenIdle: s.stateless || modern,
      onclosed: (t) => {
        if (t.sessionId !== undefined && this.byId.get(t.sessionId) === t) {
          this.byId.delete(t.sessionId);
          this.records?.delete(t.sessionId);
          s.directory?.closed(t.sessionId);
        }
      },
    });
  }

  /**
   * The live session `sid` names, if `auth`'s principal owns it. Another principal's session is
   * no session to this request: it is neither joined nor confirmed to exist (404 like an unknown
   * id). A session id is not a credential:
   * https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#session-hijacking
   */
  owned(sid: string | undefined, auth: AuthInfo | undefined): StreamableHttpServerTransport | undefined {
    const t = sid === undefined ? undefined : this.byId.get(sid);
    return t !== undefined && t.owner === principalKey(auth) ? t : undefined;
  }

  /** Session lookup shared by POST (non-initialize), GET and DELETE; answers the error itself. */
  lookup(
    req: HttpRequestHead,
    res: HttpReply,
    auth: AuthInfo | undefined,
    sid = headerValue(req, "mcp-session-id"),
  ): StreamableHttpServerTransport | undefined {
    if (sid === undefined) {
      sendJsonError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return undefined;
    }
    const t = this.owned(sid, auth);
    if (!t) {
      sendJsonError(res, 404, -32001, "Session not found");
      return undefined;
    }
    return t;
  }

  /**
   * A session for the `initialize` request `id` of `auth`'s principal; undefined once refused with
   * 503 (maxSessions). It exists only if initialize succeeds: an error answer closes it.
   */
  open(res: HttpReply, auth: AuthInfo | undefined, id: RequestId): StreamableHttpServerTransport | undefined {
    if (this.byId.size >= this.s.maxSessions) {
      this.s.report(new Error(`initialize refused (503): ${this.s.maxSessions} sessions are open (maxSessions)`));
      sendJsonError(res, 503, -32000, "Service Unavailable: too many open sessions", { "retry-after": "5" });
      return undefined;
    }
    const sid = this.s.genId();
    // The id travels in a header: visible ASCII only (2025-03-26 §Session Management).
    if (!/^[\x21-\x7e]+$/.test(sid))
      throw new Error("sessionIdGenerator returned an id with characters outside 0x21-0x7E");
    const transport = this.transport(sid, false, principalKey(auth));
    transport.expectInitialize(id);
    this.byId.set(sid, transport);
    this.armSweeper();
    return transport;
  }

  /**
   * A message the client sent to session `t` (an `initialize` opening it included): the session's
   * record follows what shapes it, and is saved when that changed. Called only when records are kept.
   */
  observe(t: StreamableHttpServerTransport, message: JSONRPCMessage | JSONRPCMessage[]): void {
    const sid = t.sessionId!;
    let r = this.records!.get(sid);
    if (r === undefined) {
      const m = message as { method?: unknown; params?: unknown };
      if (m.method !== "initialize" || typeof m.params !== "object" || m.params === null) return;
      r = { initialize: m.params as Record<string, unknown>, subscriptions: [], streams: t.key };
      this.records!.set(sid, r);
    } else if (!this.s.directory!.records!.recordMessage(r, message)) return;
    this.save(sid, t.owner, r);
  }

  /** Shares session `sid`'s record (only called when records are kept: `sharing`). */
  private save(sid: string, owner: string | undefined, r: SessionRecord): void {
    this.s.directory!.save!(sid, owner, this.s.directory!.records!.serializeRecord(r));
  }

  /**
   * Session `sid`, taken over from the instance that died holding it: a transport adopting its
   * streams, registered here, its state rebuilt once `connect` (onsession) attached the server.
   */
  async adopt(
    sid: string,
    owner: string | undefined,
    record: SessionRecord,
    auth: AuthInfo | undefined,
    connect: (t: StreamableHttpServerTransport) => void | Promise<void>,
  ): Promise<void> {
    const transport = this.transport(sid, false, owner, record);
    const adopting = (async () => {
      await connect(transport);
      transport.restore(this.s.directory!.records!.restoreMessages(record), auth);
      // Found by its id only once rebuilt: a request meanwhile waits for it (adoption).
      this.byId.set(sid, transport);
      this.records?.set(sid, record);
      this.armSweeper();
    })();
    this.adopting.set(sid, adopting);
    try {
      await adopting;
    } finally {
      this.adopting.delete(sid);
    }
  }

  /** A takeover of session `sid` under way here, if any. */
  adoption(sid: string): Promise<void> | undefined {
    return this.adopting.get(sid);
  }

  private armSweeper(): void {
    const idleMs = this.s.idleMs;
    if (idleMs > 0 && !this.sweeper) {
      this.sweeper = unrefTimer(setInterval(() => this.sweep(), Math.max(10, Math.min(idleMs / 2, 60_000))));
    }
  }

  private sweep(): void {
    const now = Date.now();
    const idleMs = this.s.idleMs;
    for (const t of this.byId.values()) {
      if (!t.busy && now - t.lastActivity > idleMs) {
        this.s.report(new Error(`session closed after ${idleMs} ms without activity (sessionIdleTimeoutMs)`));
        void t.close();
      }
    }
    if (this.byId.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Close every session. */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all([...this.byId.values()].map((t) => t.close()));
  }
}
