/**
 * What the Streamable HTTP endpoint and the fetch handler know of the 2024-11-05 HTTP+SSE handler
 * (legacy-sse.ts): its limits, and how a request reaches it. Kept apart from legacy-sse.ts, whose
 * `onsession` names node:http's request, so that the declarations of `@mcpgen/runtime/fetch`
 * reach no Node type: a Worker, Bun or Deno project compiles them without @types/node.
 */
import type { ResourceServerGuard } from "../auth/server/guard.js";
import type { HttpReply, HttpRequestIn } from "../http-exchange.js";

export interface LegacySseLimits {
  /** Path of the GET SSE endpoint (default "/sse"). */
  ssePath?: string;
  /** Path clients POST to; the endpoint event adds `?sessionId=…` (default "/messages"). */
  messagesPath?: string;
  maxBodyBytes?: number;
  /**
   * Bytes of POST bodies this handler buffers while reading them, all requests together (default
   * 256 MiB, this handler's own also when mounted with `legacySse`); a body that would pass it
   * gets 503 with Retry-After at once.
   */
  maxBufferedBodyBytes?: number;
  /** Keep-alive comment interval (default 25000 ms; 0 disables). */
  keepAliveMs?: number;
  /** Open SSE connections at once (default 10 000); more get 503. */
  maxSessions?: number;
}

export interface LegacySseMount {
  /** Whether `path` is one of this handler's (its SSE and messages paths, and its guard's metadata path). */
  handles(path: string): boolean;
  /**
   * Handle one request. `guard`: the guard of the handler this one is mounted under (the
   * Streamable HTTP handler passes its `auth`); it admits every request, and so does this
   * handler's own `auth` when that is another guard.
   */
  handle(req: HttpRequestIn, res: HttpReply, guard?: ResourceServerGuard): Promise<void>;
  close(): Promise<void>;
}
