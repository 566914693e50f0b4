/**
 * The Streamable HTTP endpoint (endpoint.ts) with the legacy era's shape
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http): its
 * sessions (legacy-endpoint.ts), a POST into one of them, GET streams and DELETE, and the answers
 * to this server's requests in a body too large or too deep to deliver. Made by the legacy era's
 * HTTP side (legacy-http.ts), so a server of 2026-07-28 alone carries none of it.
 */
import type { MessageOutline } from "../framing/scan.js";
import type { AuthInfo } from "../auth/principal.js";
import type { HttpReply, HttpRequestIn } from "../http-exchange.js";
import type { StreamableHttpServerTransport } from "./session-transport.js";
import { StreamableHttpEndpoint, answersAny, type HttpEndpointOptions } from "./endpoint.js";
import { BodyTooLargeError, headerValue, readBodyWith } from "./http-util.js";
import { LegacyEndpoint } from "./legacy-endpoint.js";
import { serveModernPost } from "./modern.js";
import { refuseBody, type ReadPost } from "./post-intake.js";
import type { SessionTable } from "./session-table.js";

export class EndpointWithLegacy<Req extends HttpRequestIn = HttpRequestIn> extends StreamableHttpEndpoint<Req> {
  /** The legacy shape's requests; set by openSessions, which the endpoint's constructor calls (a field initializer would run after it). */
  declare private legacy: LegacyEndpoint<Req>;
  /** `options.legacy`: false answers GET and DELETE with 405. */
  private readonly serveLegacy: boolean;

  constructor(options: HttpEndpointOptions<Req>) {
    super(options, options.stateless ?? false);
    this.serveLegacy = options.legacy ?? true;
  }

  protected override openSessions(): SessionTable {
    this.legacy = new LegacyEndpoint(this);
    return this.legacy.sessions;
  }

  /** A body node has buffered already, taken at once (no promise); else read as it comes. */
  override body(req: Req, res: HttpReply): Uint8Array | Promise<Uint8Array | undefined> {
    return this.bufferedBody?.(req, this.maxBody, this.buffered) ?? this.arrivingBody(req, res);
  }

  private async arrivingBody(req: Req, res: HttpReply): Promise<Uint8Array | undefined> {
    // Only a live session has requests of this server awaiting answers: only there is an
    // oversized body read on, for the id of a response in it.
    const sid = headerValue(req, "mcp-session-id");
    const scan = sid !== undefined && this.legacy.sessions.byId.has(sid) ? this.legacy.scan : undefined;
    try {
      return await readBodyWith(req, this.maxBody, this.bodyTimeoutMs, scan, this.buffered);
    } catch (e) {
      if (
        !(e instanceof BodyTooLargeError) ||
        e.outline === undefined ||
        (await this.unreadable(req, res, [e.outline], -32000, `exceeds ${this.maxBody} bytes (maxBodyBytes)`))
      )
        refuseBody(res, this, e);
      return undefined;
    }
  }

  /** As the endpoint's; then the requests the responses answer fail now, when `auth`'s principal owns the session. */
  override async unreadable(
    req: Req,
    res: HttpReply,
    outlines: readonly MessageOutline[],
    code: number,
    why: string,
  ): Promise<boolean> {
    if (!answersAny(outlines)) return true;
    const auth = await this.admit(req, res, []);
    if (auth === false) return false;
    this.legacy.unreadable(headerValue(req, "mcp-session-id"), auth, outlines, code, why);
    return true;
  }

  /** Whether the session header names a session depends on who asks: `auth` was admitted first. */
  protected override serve(req: Req, res: HttpReply, post: ReadPost, auth: AuthInfo | undefined): Promise<void> {
    const live = headerValue(req, "mcp-session-id");
    const session = this.legacy.sessions.owned(live, auth);
    if (session === undefined && this.isModern(req, post))
      return serveModernPost(req, res, post, auth, this.sessions, this.options);
    return this.legacy.post(req, res, post, auth, live, session);
  }

  /** A POST's messages into session `transport` (its id on the 202, its record kept when shared); else as any transport's. */
  override deliver(
    req: Req,
    res: HttpReply,
    post: ReadPost,
    auth: AuthInfo | undefined,
    transport: StreamableHttpServerTransport,
  ): void {
    const sessionId = transport.sessionId;
    if (sessionId === undefined) return super.deliver(req, res, post, auth, transport);
    const context = { sessionId, headers: req.headers, auth, bytes: post.bytes, waitUntil: req.waitUntil };
    const message = post.batch ? post.list : post.list[0]!;
    const sessions = this.legacy.sessions;
    if (sessions.sharing) sessions.observe(transport, message);
    if (post.requestIds.length === 0) {
      res.writeHead(202, { "mcp-session-id": sessionId, "content-length": 0 }).end();
      transport.receive(message, context);
      return;
    }
    transport.openPostStream(res, post.requestIds, post);
    transport.receive(message, context);
  }

  protected override answer(req: Req, res: HttpReply, p: string, auth: AuthInfo | undefined): Promise<void> | void {
    if (p === this.path && !this.stateless && this.serveLegacy) {
      const method = req.method;
      if (method === "GET") return this.legacy.get(req, res, auth);
      if (method === "DELETE") return this.legacy.del(req, res, auth);
      res.writeHead(405, { allow: "GET, POST, DELETE" }).end();
      return;
    }
    // A stateless endpoint (or one told to serve no legacy shape) serves POSTs alone.
    return super.answer(req, res, p, auth);
  }
}
