/**
 * Every bound the runtime puts on what a peer can make it hold, in one place with its default.
 * docs/limits.md has the table; each transport/session option that overrides one names it.
 * Defaults are sized for real traffic (a client reads multi-megabyte resources, a server accepts
 * requests), and a tripped limit is always answered (JSON-RPC error or HTTP status) and logged.
 */

/** Largest message a server accepts (NDJSON line, POST body). */
export const SERVER_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Largest message a client accepts (NDJSON line, POST reply, SSE event): resources can be big. */
export const CLIENT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Deepest array/object nesting accepted in one message, either side. */
export const MAX_NESTING_DEPTH = 128;
/** Requests this side may have awaiting a response on one session. */
export const MAX_PENDING_REQUESTS = 10_000;
/** Requests from the peer that may be running at once on one session; more get -32000 at once. */
export const MAX_RUNNING_REQUESTS = 1_000;
/**
 * Memory the requests running on one session may hold, in bytes: each is charged about what its
 * message takes once parsed (MessageContext.bytes) until it is answered or cancelled; more are
 * answered -32000 at once. A session is one connection (a Streamable HTTP session, a stateless POST).
 */
export const MAX_RUNNING_BYTES_PER_SESSION = 64 * 1024 * 1024;
/** The same, for the requests running on every session of one server together. */
export const MAX_RUNNING_BYTES = 512 * 1024 * 1024;
/**
 * One principal's share of that (`principalKey`: OAuth client + subject, across all its sessions;
 * without a principal the session is the owner): `runningBytes.perPrincipal` defaults to this
 * fraction of `runningBytes.max` (but at least `perSession`), so one client opening many sessions
 * leaves most of the pool to the others.
 */
export const RUNNING_BYTES_PRINCIPAL_SHARE = 0.25;
/** The per-principal share with the default pool: 128 MiB. */
export const MAX_RUNNING_BYTES_PER_PRINCIPAL = MAX_RUNNING_BYTES * RUNNING_BYTES_PRINCIPAL_SHARE;
/**
 * After a stdio peer ends its input (EOF), how long the requests it already sent may take to be
 * answered and flushed before the transport closes without them. Input ending is how a batch
 * (`server < requests.jsonl`) ends and how a client asks a server to exit
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#stdio): long enough
 * for ordinary tool calls, short enough that a server whose handler hangs still exits on its own.
 */
export const STDIO_DRAIN_TIMEOUT_MS = 10_000;
/** Live Streamable HTTP sessions per server; an `initialize` beyond gets 503. */
export const MAX_HTTP_SESSIONS = 10_000;
/** A Streamable HTTP session idle this long (no message, no open stream, nothing running) is closed. */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** Time a client has to send the request headers (node:http `headersTimeout`). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time a client has to send a whole request body (node:http `requestTimeout`, and readBody's own timer). */
export const BODY_TIMEOUT_MS = 30_000;
/**
 * Bytes of POST bodies one HTTP handler (Streamable HTTP, legacy SSE) holds while reading them,
 * every request together: each body may take 4 MiB and 30 s, so a crowd of slow senders could
 * otherwise make it buffer gigabytes. A body that would pass it gets 503 at once. Server-wide on
 * purpose, with no per-address share: behind a proxy every client has the proxy's address.
 */
export const MAX_BUFFERED_BODY_BYTES = 256 * 1024 * 1024;
/** Events kept by the default in-memory event store, in total across streams. */
export const EVENT_STORE_MAX_EVENTS = 10_000;
/** Bytes of serialised events kept by the default in-memory event store. */
export const EVENT_STORE_MAX_BYTES = 64 * 1024 * 1024;
/** Longest 2026-07-28 `requestState` a server accepts, in characters; it never mints a longer one. */
export const REQUEST_STATE_MAX_CHARS = 256 * 1024;

/**
 * Validation failures a report lists: invalid tool arguments (server) and an invalid structured
 * result (client); the rest are counted, not listed.
 */
export const MAX_REPORTED_ISSUES = 20;
/**
 * Failures the all-errors tool validators collect before they stop (the count is then a lower
 * bound). They run only after the fast validator refused a value; this bounds their time and
 * memory on a hostile one (4 MiB of wrong array items would be millions of error objects).
 */
export const MAX_COLLECTED_ISSUES = 1_000;
/** Characters of a failure's JSON pointer quoted in a report (pointers carry the peer's keys). */
export const MAX_ISSUE_POINTER_CHARS = 200;

/** Open 2026-07-28 `subscriptions/listen` requests per server (each holds a request, and on HTTP a stream). */
export const MAX_LISTENS = 10_000;
/** Open listens per session (a Streamable HTTP session, a stdio connection, a stateless POST). */
export const MAX_LISTENS_PER_SESSION = 100;
/**
 * Open listens per principal (`principalKey`: OAuth client + subject) across all its sessions, so
 * one client cannot take the whole server's share; without a principal the session is the owner.
 */
export const MAX_LISTENS_PER_PRINCIPAL = 1_000;
/** Resource URIs one listen may subscribe to (and, separately, task ids it may follow). */
export const MAX_LISTEN_SUBSCRIPTIONS = 1_024;
/** Characters of the resource URIs of one listen, together. */
export const MAX_LISTEN_URI_CHARS = 256 * 1024;

/** Tasks a built-in task store holds at once, any status, every owner together (`maxTasks`). */
export const MAX_TASKS = 1_000;
/** Task handlers running at once, per era (server option `tasks.maxRunning`). */
export const MAX_RUNNING_TASKS = 1_000;
/**
 * One owner's share of a task bound: `maxTasksPerOwner` and `maxRunningPerOwner` default to this
 * fraction of `maxTasks` and `maxRunning`, so a single caller's flood trips its own quota and
 * leaves the rest of the pool to everyone else.
 */
export const TASK_OWNER_SHARE = 0.1;
/** Retention of a task whose creator asked for none. */
export const TASK_DEFAULT_TTL_MS = 60 * 60 * 1000;
/** Longest retention a creator may ask for; longer (or unlimited) requests get this. */
export const TASK_MAX_TTL_MS = 24 * 60 * 60 * 1000;

/** JSON-RPC code of a tripped limit the peer caused (implementation-defined server error range). */
export const LIMIT_EXCEEDED_CODE = -32000;
/**
 * DPoP proofs (their `jti`) an auth guard remembers to refuse replays within the proof window
 * (RFC 9449 §11.1); at the bound the oldest are forgotten first.
 */
export const DPOP_JTI_CACHE_MAX = 100_000;

/** Events the Redis event store (`@mcpgen/runtime/redis`) keeps per SSE stream (oldest dropped first). */
export const REDIS_EVENT_STREAM_MAX_EVENTS = 1_000;
/** Bytes of serialised events the Redis event store keeps per SSE stream. */
export const REDIS_EVENT_STREAM_MAX_BYTES = 4 * 1024 * 1024;
/** How long a Redis event stream outlives its last event, ms. */
export const REDIS_EVENT_STREAM_TTL_MS = 60 * 60 * 1000;
/** A task whose instance stopped renewing its lease for this long is failed by the Redis task store, ms. */
export const REDIS_TASK_LEASE_MS = 15_000;
/** Largest change the Redis bus carries (characters of its JSON); larger ones are refused. */
export const REDIS_BUS_MAX_CHARS = 64 * 1024;

/**
 * The Skills extension's per-skill limits (files listed, bytes summed over them): a client refuses
 * a skill entry beyond them before reading anything (SkillVerificationError); the generator refuses
 * to serve one. Fixed by the extension, not tunable.
 */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Pages of `skills/list` or of one `resources/directory/read` a client follows before giving up. */
export const MAX_SKILL_PAGES = 1_000;
/** Largest legacy session record (session-record.ts) shared through a session directory, characters of its JSON; a session whose record would be larger cannot be taken over. */
export const SESSION_RECORD_MAX_CHARS = 64 * 1024;
/** Resource subscriptions a shared legacy session record keeps; a session with more cannot be taken over. */
export const SESSION_RECORD_MAX_SUBSCRIPTIONS = 1_000;
/**
 * Largest POST body the fetch handler reads in one piece (`Request.arrayBuffer()`) when its
 * Content-Length declares it; a larger or undeclared one is read chunk by chunk. Bounds what a fetch
 * host holds for a body before it is charged to `maxBufferedBodyBytes`.
 */
export const FETCH_WHOLE_BODY_BYTES = 64 * 1024;
