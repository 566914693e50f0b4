/**
 * The sessions an endpoint consults: the legacy era's table (sessions.ts, from legacy-http.ts), or,
 * for a server without the legacy era, StatelessTransports: no session ever opens, and each POST
 * gets a transport of its own (post-transport.ts: 2026-07-28, or a legacy request answered
 * statelessly).
 */
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { AuthInfo } from "../auth/principal.js";
import type { StreamableHttpServerTransport } from "./session-transport.js";
import { PostTransport } from "./post-transport.js";

/** What the endpoint itself asks of its sessions (the legacy shape, legacy-endpoint.ts, asks more). */
export interface SessionTable {
  readonly byId: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** Whether session records are kept (then `observe` is called for each message into a session). */
  readonly sharing: boolean;
  /** A transport of no session (a stateless POST; `modern`: a 2026-07-28 POST). */
  transport(sessionId: undefined, modern?: boolean): StreamableHttpServerTransport | PostTransport;
  /** The live session `sid` names, if `auth`'s principal owns it. */
  owned(sid: string | undefined, auth: AuthInfo | undefined): StreamableHttpServerTransport | undefined;
  observe(t: StreamableHttpServerTransport, message: JSONRPCMessage | JSONRPCMessage[]): void;
  close(): Promise<void>;
}

/** The table of an endpoint with no legacy sessions: it is stateless, so only `transport` is called on a POST. */
export class StatelessTransports implements SessionTable {
  readonly byId = new Map<string, StreamableHttpServerTransport>();
  readonly sharing = false;

  constructor(private readonly keepAliveMs: number) {}

  transport(_sessionId: undefined, modern = false): PostTransport {
    return new PostTransport(modern, this.keepAliveMs);
  }

  owned(): undefined {
    return undefined;
  }

  observe(): void {}

  async close(): Promise<void> {}
}
