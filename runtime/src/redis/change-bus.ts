/**
 * The change bus on Redis pub/sub: one channel per server namespace, `bus`.
 *
 * Why pub/sub and not a stream: a change is a hint delivered to whoever is connected now (a
 * listen, a session's stream), never a record to replay; pub/sub fans one PUBLISH out to every
 * instance at once and stores nothing, so there is no key to bound or trim and no per-instance
 * cursor to keep. What it loses (an instance cut off from Redis for a while) is made good on
 * reconnection: the instance hears a list_changed of every list, so its clients re-list.
 * Resource updates and task changes missed meanwhile are not replayed: clients re-read on their
 * next poll, and task status lives in the task store.
 */
import type { Change, ChangeBus } from "../server/change-bus.js";
import { nodeCrypto } from "../node-crypto.js";
import { REDIS_BUS_MAX_CHARS } from "../limits.js";
import type { RedisConnection } from "./connection.js";

export class RedisChangeBus implements ChangeBus {
  /** Tells this instance's own messages apart (it has delivered them locally already). */
  private readonly origin = nodeCrypto().randomBytes(9).toString("base64url");
  private readonly listeners = new Set<(change: Change) => void>();
  private readonly channel: string;
  private unsubscribe: (() => Promise<void>) | undefined;

  private constructor(private readonly redis: RedisConnection) {
    this.channel = redis.key("bus");
  }

  /** Attach to the bus of `redis`'s namespace (subscribes before it resolves). */
  static async attach(redis: RedisConnection): Promise<RedisChangeBus> {
    const bus = new RedisChangeBus(redis);
    bus.unsubscribe = await redis.subscribe(bus.channel, (m) => bus.heard(m), () => bus.resumed());
    return bus;
  }

  async publish(change: Change): Promise<void> {
    const text = JSON.stringify({ o: this.origin, c: change });
    if (text.length > REDIS_BUS_MAX_CHARS) throw new RangeError(`a change of ${text.length} characters is over the bus's limit of ${REDIS_BUS_MAX_CHARS}`);
    await this.redis.publish(this.channel, text);
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.unsubscribe?.();
  }

  private heard(message: string): void {
    if (message.length > REDIS_BUS_MAX_CHARS) return;
    let m: { o?: unknown; c?: unknown };
    try {
      m = JSON.parse(message);
    } catch {
      return;
    }
    if (m.o === this.origin || typeof m.c !== "object" || m.c === null || typeof (m.c as { kind?: unknown }).kind !== "string") return;
    for (const l of this.listeners) l(m.c as Change);
  }

  /** Back after Redis was lost: whatever list changed meanwhile, the clients here re-list. */
  private resumed(): void {
    for (const list of ["tools", "prompts", "resources"] as const) for (const l of this.listeners) l({ kind: "listChanged", list });
  }
}
