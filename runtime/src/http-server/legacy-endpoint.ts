/**
 * What the Streamable HTTP endpoint (endpoint.ts) does only for the legacy era
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http): a
 * POST opening a session (`initialize`) or sent into one, GET streams with their Last-Event-ID
 * resumption, DELETE, and a request for a session another instance holds (forwarded there, or
 * the session taken over). The endpoint reaches it through the legacy era's HTTP side alone
 * (legacy-http.ts), so a server of 2026-07-28 alone carries none of it.
 */
import { InMemoryEventStore, type EventStore } from "./event-store.js";
import type { SessionDirectory } from "./session-directory.js";
import { accepts, headerValue, sendJsonError } from "./http-util.js";
import { OutlineScanner, type MessageOutline } from "../framing/scan.js";
import { unreadableAnswers } from "../framing/frame-error.js";
import { MAX_HTTP_SESSIONS, SESSION_IDLE_TIMEOUT_MS } from "../limits.js";
import { describe } from "../describe.js";
import type { StreamableHttpServerTransport } from "./session-transport.js";
import { refuse, type ReadPost } from "./post-intake.js";
import { HttpSessions } from "./sessions.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";
import type { HttpReply, HttpRequestIn } from "../http-exchange.js";

/** What of the endpoint's options the legacy shape reads (HttpEndpointOptions). */
interface LegacyEndpointOptions<Req> {
  readonly sessionDirectory?: SessionDirectory | undefined;
  readonly maxSessions?: number | undefined;
  readonly eventStore?: EventStore | false | undefined;
  readonly retryMs?: number | undefined;
  readonly sessionIdleTimeoutMs?: number | undefined;
  readonly sessionIdGenerator?: (() => string) | undefined;
  onsession(transport: StreamableHttpServerTransport, request: Req): void | Promise<void>;
}

/** The endpoint as the legacy shape uses it (EndpointWithLegacy). */
export interface EndpointCore<Req extends HttpRequestIn> {
  readonly options: LegacyEndpointOptions<Req>;
  readonly stateless: boolean;
  readonly keepAliveMs: number;
  readonly report: (e: Error) => void;
  /** Whether the MCP-Protocol-Version header is one served (else answered 400). */
  versionOk(req: Req, res: HttpReply): boolean;
  /** Whether a batch was refused (answered 400) at protocol revision `version`. */
  refusesBatch(res: HttpReply, version: string): boolean;
  /** A stateless legacy POST's transport (see StreamableHttpEndpoint.statelessPost). */
  statelessPost(req: Req, res: HttpReply, post: ReadPost): Promise<StreamableHttpServerTransport | undefined>;
  deliver(
    req: Req,
    res: HttpReply,
    post: ReadPost,
    auth: AuthInfo | undefined,
    transport: StreamableHttpServerTransport,
  ): void;
}

/** The legacy requests of one endpoint, and its session table (sessions.ts). */
export class LegacyEndpoint<Req extends HttpRequestIn> {
  readonly sessions: HttpSessions;
  /** Resumability store (stateful mode); undefined: none. */
  private readonly store: EventStore | undefined;
  /** What reads an oversized body POSTed to a live session for its id (readBody's `scan`). */
  readonly scan = (): OutlineScanner => new OutlineScanner();

  constructor(private readonly core: EndpointCore<Req>) {
    const o = core.options;
    const store = core.stateless || o.eventStore === false ? undefined : (o.eventStore ?? new InMemoryEventStore());
    this.store = store;
    this.sessions = new HttpSessions({
      stateless: core.stateless,
      store,
      ownStore: o.eventStore === undefined && o.sessionDirectory === undefined,
      retryMs: o.retryMs ?? 1000,
      keepAliveMs: core.keepAliveMs,
      idleMs: o.sessionIdleTimeoutMs ?? SESSION_IDLE_TIMEOUT_MS,
      maxSessions: o.maxSessions ?? MAX_HTTP_SESSIONS,
      genId: o.sessionIdGenerator ?? randomId,
      report: core.report,
      directory: o.sessionDirectory,
    });
  }

  /**
   * Responses (to requests this server sent on session `sid`) in a POST too large or too deep to
   * deliver: the requests they answer fail now, when `auth`'s principal owns the session.
   */
  unreadable(
    sid: string | undefined,
    auth: AuthInfo | undefined,
    outlines: readonly MessageOutline[],
    code: number,
    why: string,
  ): void {
    this.sessions.owned(sid, auth)?.receiveUnreadable(unreadableAnswers(outlines, code, why));
  }

  /** A POST not on the modern path: stateless, an `initialize`, or to the live session `session` (`live` its header). */
  async post(
    req: Req,
    res: HttpReply,
    post: ReadPost,
    auth: AuthInfo | undefined,
    live: string | undefined,
    session: StreamableHttpServerTransport | undefined,
  ): Promise<void> {
    const away = session === undefined && !post.initialize && this.elsewhere(req, res, auth, post.parsed);
    if (away !== false && (await away)) return;
    const core = this.core;
    const transport = core.stateless
      ? await core.statelessPost(req, res, post)
      : post.initialize
        ? await this.initializePost(req, post, res, auth)
        : this.sessionPost(req, res, post, session ?? this.sessions.lookup(req, res, auth, live));
    if (transport !== undefined) core.deliver(req, res, post, auth, transport);
  }

  /**
   * A legacy request for a session another instance holds: forwarded there (true once answered);
   * false at once, without a promise, when there is no directory or the session is here.
   */
  private elsewhere(req: Req, res: HttpReply, auth: AuthInfo | undefined, body?: object): Promise<boolean> | false {
    const sid = headerValue(req, "mcp-session-id");
    const d = this.core.options.sessionDirectory;
    return (
      d !== undefined &&
      sid !== undefined &&
      !this.sessions.byId.has(sid) &&
      this.away(d, sid, req, res, auth, body && JSON.stringify(body))
    );
  }

  /**
   * Forward the request to the instance holding session `sid`; when that instance died, take the
   * session over (resolves false: the session is served here now, or is unknown: 404).
   */
  private async away(
    d: SessionDirectory,
    sid: string,
    req: Req,
    res: HttpReply,
    auth: AuthInfo | undefined,
    body: string | undefined,
  ): Promise<boolean> {
    if (await d.forward(sid, req, res, body)) return true;
    if (
      d.takeOver === undefined ||
      d.records === undefined ||
      this.sessions.byId.size >= (this.core.options.maxSessions ?? MAX_HTTP_SESSIONS)
    )
      return false;
    const owner = principalKey(auth);
    const claimed = await d.takeOver(sid, owner);
    // Another instance won the claim: it serves the session from now on.
    if (claimed === "elsewhere") return d.forward(sid, req, res, body);
    if (claimed === undefined) return false;
    // Being (or already) taken over by another request to this instance: served once rebuilt.
    const adoption = this.sessions.adoption(sid);
    if (adoption !== undefined) await adoption.catch(() => {});
    if (adoption !== undefined || this.sessions.byId.has(sid)) return false;
    const record = d.records.parseRecord(claimed);
    if (record === undefined) {
      this.core.report(new Error("a legacy session's shared record is unreadable; the session is treated as gone"));
      d.closed(sid);
      return false;
    }
    await this.sessions.adopt(sid, owner, record, auth, (t) => this.core.options.onsession(t, req));
    return false;
  }

  /** An `initialize`: a new session, handed to `onsession` (and forgotten if that throws). */
  private async initializePost(
    req: Req,
    post: ReadPost,
    res: HttpReply,
    auth: AuthInfo | undefined,
  ): Promise<StreamableHttpServerTransport | undefined> {
    const transport = this.sessions.open(res, auth, post.requestIds[0]!);
    if (transport === undefined) return undefined;
    try {
      await this.core.options.onsession(transport, req);
      // Known to the other instances before the client learns the session id.
      await this.core.options.sessionDirectory?.opened(transport.sessionId!);
    } catch (e) {
      this.sessions.byId.delete(transport.sessionId!);
      throw e;
    }
    return transport;
  }

  /** A POST to the live session `t` (undefined once the lookup answered 400/404). */
  private sessionPost(
    req: Req,
    res: HttpReply,
    post: ReadPost,
    t: StreamableHttpServerTransport | undefined,
  ): StreamableHttpServerTransport | undefined {
    if (!t || !this.core.versionOk(req, res)) return undefined;
    if (post.batch && t.protocolVersion !== undefined && this.core.refusesBatch(res, t.protocolVersion))
      return undefined;
    // A reply is routed by id: a second request with an id still in flight would steal the first one's.
    const busy = post.requestIds.find(t.awaitsReply, t);
    // Nothing allocated here unless the session was taken over.
    const stale = post.requestIds.length === 0 ? t.staleAnswers(post.list) : undefined;
    if (stale !== undefined) {
      refuse(
        this.core.report,
        res,
        409,
        null,
        -32000,
        `Conflict: the request${stale.length > 1 ? "s" : ""} ${stale.map((id) => describe(id)).join(", ")} this answers ended with the server instance that sent them (the session was taken over by another); ${stale.length > 1 ? "they are" : "it is"} void`,
      );
      return undefined;
    }
    if (busy !== undefined) {
      refuse(
        this.core.report,
        res,
        400,
        post.list.length === 1 ? busy : null,
        -32600,
        `Invalid Request: request id ${describe(busy)} is already in progress`,
      );
      return undefined;
    }
    return t;
  }

  /** A GET to a stateful endpoint: the session's standalone stream, or one resumed after Last-Event-ID. */
  async get(req: Req, res: HttpReply, auth: AuthInfo | undefined): Promise<void> {
    if (!accepts(headerValue(req, "accept"), "text/event-stream")) {
      sendJsonError(res, 406, -32000, "Not Acceptable: Accept must list text/event-stream");
      return;
    }
    const away = this.elsewhere(req, res, auth);
    if (away !== false && (await away)) return;
    const t = this.sessions.lookup(req, res, auth);
    if (!t || !this.core.versionOk(req, res)) return;
    // A client gone while its token was verified: a stream attached to its closed response would
    // never be detached, and every later GET of the session would be refused 409.
    if (res.destroyed) return;
    const lastEventId = headerValue(req, "last-event-id");
    if (lastEventId !== undefined && this.store) {
      const refused = await t.resumeStream(res, lastEventId);
      if (refused !== undefined) sendJsonError(res, refused, -32000, "Unknown Last-Event-ID for this session");
      return;
    }
    if (!t.openStandaloneStream(res)) {
      sendJsonError(res, 409, -32000, "Conflict: only one standalone SSE stream is allowed per session");
    }
  }

  /** A DELETE to a stateful endpoint: the session ends. */
  async del(req: Req, res: HttpReply, auth: AuthInfo | undefined): Promise<void> {
    const away = this.elsewhere(req, res, auth);
    if (away !== false && (await away)) return;
    const t = this.sessions.lookup(req, res, auth);
    if (!t || !this.core.versionOk(req, res)) return;
    await t.close();
    res.writeHead(200).end();
  }
}

/** A session id: a random UUID (WebCrypto, on every host). */
function randomId(): string {
  return globalThis.crypto.randomUUID();
}
