/**
 * The sessions an endpoint consults: the legacy era's table (sessions.ts, from legacy-http.ts), or,
 * for a server without the legacy era, StatelessTransports: no session ever opens, and each POST
 * gets a transport of its own (post-transport.ts: 2026-07-28, or a legacy request answered
 * statelessly).
 */
import type { StreamableHttpServerTransport } from "./session-transport.js";
import { PostTransport } from "./post-transport.js";

/** What the endpoint itself asks of its sessions (the legacy shape asks HttpSessions more: legacy-endpoint.ts). */
export interface SessionTable {
  readonly byId: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** A transport of no session (a stateless POST; `modern`: a 2026-07-28 POST). */
  transport(sessionId: undefined, modern?: boolean): StreamableHttpServerTransport | PostTransport;
  close(): Promise<void>;
}

/** The table of an endpoint with no legacy sessions: it is stateless, so only `transport` is called on a POST. */
export class StatelessTransports implements SessionTable {
  readonly byId = new Map<string, StreamableHttpServerTransport>();

  constructor(private readonly keepAliveMs: number) {}

  transport(_sessionId: undefined, modern = false): PostTransport {
    return new PostTransport(modern, this.keepAliveMs);
  }

  async close(): Promise<void> {}
}
