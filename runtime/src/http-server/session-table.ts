/**
 * The sessions an endpoint consults: the legacy era's table (sessions.ts, from legacy-http.ts), or,
 * for a server without the legacy era, StatelessTransports: no session ever opens, and each POST
 * gets a transport of its own (2026-07-28, or a legacy request answered statelessly).
 */
import type { HttpSessions, HttpSessionSettings } from "./sessions.js";
import { StreamableHttpServerTransport } from "./session-transport.js";

export type SessionTable = Pick<
  HttpSessions,
  "byId" | "sharing" | "transport" | "owned" | "lookup" | "open" | "observe" | "adopt" | "adoption" | "close"
>;

/** The table of an endpoint with no legacy sessions: it is stateless, so only `transport` is called on a POST. */
export class StatelessTransports implements SessionTable {
  readonly byId = new Map<string, StreamableHttpServerTransport>();
  readonly sharing = false;

  constructor(private readonly s: Pick<HttpSessionSettings, "retryMs" | "keepAliveMs">) {}

  transport(_sessionId: string | undefined, modern = false): StreamableHttpServerTransport {
    return new StreamableHttpServerTransport({
      sessionId: undefined,
      eventStore: undefined,
      retryMs: this.s.retryMs,
      keepAliveMs: this.s.keepAliveMs,
      modern,
      closeWhenIdle: true,
      onclosed: () => {},
    });
  }

  owned(): undefined {
    return undefined;
  }

  lookup(): never {
    throw new Error("no legacy sessions: the endpoint is stateless");
  }

  open(): never {
    throw new Error("no legacy sessions: the endpoint is stateless");
  }

  observe(): void {}

  adopt(): Promise<void> {
    return Promise.reject(new Error("no legacy sessions to take over: the endpoint is stateless"));
  }

  adoption(): undefined {
    return undefined;
  }

  async close(): Promise<void> {}
}
