/**
 * The Streamable HTTP event store (resumability) in Redis, so a client resuming with
 * `Last-Event-ID` is served by whichever instance its GET reaches
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery).
 *
 * Per stream two keys: `es:<stream>` (a hash: the bytes it holds) and `ev:<stream>` (a list of
 * `<seq>:<json>`). Bounded per stream in count and bytes, oldest dropped first, and both keys
 * expire `ttlMs` after the stream's last event. Event ids are `<stream>_<seq>`: unique across
 * streams because stream ids are.
 *
 * An event's id is given at once and the event written behind it: a stream belongs to one session,
 * which lives in one instance (its requests reaching others are forwarded to it), so every write
 * and every replay of a stream go through that instance's one connection, in order, and `seq`
 * (this store's counter, increasing) orders a stream's events. A reply is thus never held for a
 * Redis round trip. A session taken over from an instance that died has its streams replayed here
 * first, which moves this store's counter past their events. When Redis is down the event still reaches the client, only it cannot be
 * replayed (`onerror` hears why); a resume meanwhile gets an error (HTTP 503).
 */
import type { JSONRPCMessage } from "../jsonrpc.js";
import type { EventStore } from "../http-server/event-store.js";
import { REDIS_EVENT_STREAM_MAX_BYTES, REDIS_EVENT_STREAM_MAX_EVENTS, REDIS_EVENT_STREAM_TTL_MS } from "../limits.js";
import { script, type RedisConnection } from "./connection.js";

export interface RedisEventStoreOptions {
  /** Events kept per stream (default 1 000). */
  maxEventsPerStream?: number;
  /** Bytes of serialised events kept per stream (default 4 MiB). */
  maxBytesPerStream?: number;
  /** How long a stream is kept after its last event, ms (default 1 hour). */
  ttlMs?: number;
}

// KEYS: meta hash, event list. ARGV: json ("" = priming event), maxEvents, maxBytes, ttlMs, seq.
const STORE = script(`
local seq = ARGV[5]
redis.call('HSETNX', KEYS[1], 'bytes', 0)
if ARGV[1] ~= '' then
  local entry = seq .. ':' .. ARGV[1]
  redis.call('RPUSH', KEYS[2], entry)
  local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', #entry)
  local n = redis.call('LLEN', KEYS[2])
  while n > 1 and (n > tonumber(ARGV[2]) or bytes > tonumber(ARGV[3])) do
    local old = redis.call('LPOP', KEYS[2])
    bytes = redis.call('HINCRBY', KEYS[1], 'bytes', -#old)
    n = n - 1
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`);

export class RedisEventStore implements EventStore {
  private readonly maxEvents: string;
  private readonly maxBytes: string;
  private readonly ttlMs: string;
  private seq = 0;
  /** A write that did not reach Redis (the event went out, it cannot be replayed); default: ignored. */
  onerror: ((e: Error) => void) | undefined;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisEventStoreOptions = {},
  ) {
    const maxEvents = options.maxEventsPerStream ?? REDIS_EVENT_STREAM_MAX_EVENTS;
    const maxBytes = options.maxBytesPerStream ?? REDIS_EVENT_STREAM_MAX_BYTES;
    const ttlMs = options.ttlMs ?? REDIS_EVENT_STREAM_TTL_MS;
    if (!(maxEvents >= 1) || !(maxBytes >= 1) || !(ttlMs >= 1))
      throw new RangeError("RedisEventStore: maxEventsPerStream, maxBytesPerStream and ttlMs must be >= 1");
    this.maxEvents = String(Math.floor(maxEvents));
    this.maxBytes = String(Math.floor(maxBytes));
    this.ttlMs = String(Math.floor(ttlMs));
  }

  storeEvent(streamId: string, message: JSONRPCMessage | null, json?: string): string {
    const data = message === null ? "" : (json ?? JSON.stringify(message));
    const seq = String(++this.seq);
    // EVAL, not EVALSHA: a script missing after a Redis restart would be sent again after what follows it.
    this.redis
      .command([
        "EVAL",
        STORE.text,
        "2",
        this.redis.key("es", streamId),
        this.redis.key("ev", streamId),
        data,
        this.maxEvents,
        this.maxBytes,
        this.ttlMs,
        seq,
      ])
      .catch((e: Error) => this.onerror?.(e));
    return `${streamId}_${seq}`;
  }

  async streamIdFor(eventId: string): Promise<string | undefined> {
    const streamId = parse(eventId)?.streamId;
    if (streamId === undefined) return undefined;
    return (await this.redis.command<number>(["EXISTS", this.redis.key("es", streamId)])) === 1 ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
  ): Promise<void> {
    const at = parse(lastEventId);
    if (at === undefined) return;
    const entries = await this.redis.command<string[]>(["LRANGE", this.redis.key("ev", at.streamId), "0", "-1"]);
    for (const entry of entries) {
      const colon = entry.indexOf(":");
      const seq = Number(entry.slice(0, colon));
      if (seq > at.seq) send(`${at.streamId}_${seq}`, JSON.parse(entry.slice(colon + 1)) as JSONRPCMessage);
      // A stream another instance wrote (a session taken over from it) goes on here after its events.
      if (seq > this.seq) this.seq = seq;
    }
  }

  async removeStream(streamId: string): Promise<void> {
    await this.redis.command(["DEL", this.redis.key("es", streamId), this.redis.key("ev", streamId)]);
  }
}

function parse(eventId: string): { streamId: string; seq: number } | undefined {
  const cut = eventId.lastIndexOf("_");
  if (cut <= 0) return undefined;
  const seq = Number(eventId.slice(cut + 1));
  return Number.isSafeInteger(seq) && seq >= 0 ? { streamId: eventId.slice(0, cut), seq } : undefined;
}
