import type { HttpReply, HttpRequestHead } from "../http-exchange.js";
import type { SessionRecords } from "./session-record.js";

/**
 * Where the legacy Streamable HTTP sessions of several instances of one server are found
 * (`@mcpgen/runtime/redis`'s RedisSessionDirectory): a session lives in the instance that answered
 * its `initialize`; a request for it that reaches another instance is forwarded there, so a load
 * balancer needs no stickiness; with `save` and `takeOver`, a session outlives its instance.
 * Without a directory an unknown session id is a 404.
 */
export interface SessionDirectory {
  /** A session was opened here; its `initialize` is answered once this resolves. */
  opened(sessionId: string): Promise<void>;
  /** A session of this instance closed (DELETE, idle timeout, shutdown). */
  closed(sessionId: string): void;
  /**
   * A request for `sessionId`, which this instance does not hold: answer it by forwarding it to the
   * instance that does and resolve true, or resolve false (unknown, or that instance is gone): the
   * session is then taken over (`takeOver`) or the request gets 404. `body` is the POST's JSON text.
   */
  forward(sessionId: string, req: HttpRequestHead, res: HttpReply, body: string | undefined): Promise<boolean>;
  /**
   * Keep the record of a session of this instance (session-record.ts: JSON text within
   * SESSION_RECORD_MAX_CHARS), bound to `owner` (principalKey; undefined without a guard), so
   * another instance can take the session over if this one dies; undefined `record`: the session
   * cannot be taken over (its record passed its bounds).
   */
  save?(sessionId: string, owner: string | undefined, record: string | undefined): void;
  /**
   * The record functions (session-record.ts `sessionRecords`), given by a directory that has
   * `save`/`takeOver`: only servers that share sessions load them.
   */
  readonly records?: SessionRecords;
  /**
   * `forward` found the instance holding `sessionId` gone: claim the session for this instance,
   * only for the principal `owner` it is bound to, one claimant winning. Resolves the stored
   * record's text (this instance holds the session now), "elsewhere" (another instance holds it:
   * forward again), or undefined (no such session for this principal: 404).
   */
  takeOver?(sessionId: string, owner: string | undefined): Promise<string | "elsewhere" | undefined>;
}
