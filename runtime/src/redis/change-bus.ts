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
import type { Change, ChangeBus, ChangeTarget } from "../server/change-bus.js";
import { randomBytes } from "node:crypto";
import { REDIS_BUS_MAX_CHARS } from "../limits.js";
import type { RedisConnection } from "./connection.js";

export class RedisChangeBus implements ChangeBus {
  /** Tells this instance's own messages apart (it has delivered them locally already). */
  private readonly origin = randomBytes(9).toString("base64url");
  private readonly targets = new Set<ChangeTarget>();
  private readonly channel: string;
  private unsubscribe: (() => Promise<void>) | undefined;

  private constructor(private readonly redis: RedisConnection) {
    this.channel = redis.key("bus");
  }

  /** Attach to the bus of `redis`'s namespace (subscribes before it resolves). */
  static async attach(redis: RedisConnection): Promise<RedisChangeBus> {
    const bus = new RedisChangeBus(redis);
    bus.unsubscribe = await redis.subscribe(
      bus.channel,
      (m) => bus.heard(m),
      () => bus.resumed(),
    );
    return bus;
  }

  async publish(change: Change): Promise<void> {
    const text = JSON.stringify({ o: this.origin, c: change });
    if (text.length > REDIS_BUS_MAX_CHARS)
      throw new RangeError(`a change of ${text.length} characters is over the bus's limit of ${REDIS_BUS_MAX_CHARS}`);
    await this.redis.publish(this.channel, text);
  }

  attach(target: ChangeTarget): () => void {
    this.targets.add(target);
    return () => void this.targets.delete(target);
  }

  async close(): Promise<void> {
    this.targets.clear();
    await this.unsubscribe?.();
  }

  private heard(message: string): void {
    if (message.length > REDIS_BUS_MAX_CHARS) return;
    let m: { o?: unknown; c?: Partial<Record<string, unknown>> };
    try {
      m = JSON.parse(message);
    } catch {
      return;
    }
    const c = m.c;
    // Another deployment sharing the channel by mistake, or a newer version: ignore what does not fit.
    if (m.o === this.origin || typeof c !== "object" || c === null) return;
    for (const t of this.targets) {
      if (c.kind === "listChanged" && (c.list === "tools" || c.list === "prompts" || c.list === "resources"))
        t.listChanged(c.list);
      else if (c.kind === "resourceUpdated" && typeof c.uri === "string") t.resourceUpdated(c.uri);
      else if (c.kind === "task" && isObject(c.task)) t.taskChanged(c.task);
      else if (c.kind === "taskCancel" && typeof c.taskId === "string") t.taskCancelled(c.taskId);
      else if (c.kind === "taskInput" && typeof c.taskId === "string" && isObject(c.responses))
        t.taskInput(c.taskId, c.responses);
    }
  }

  /** Back after Redis was lost: whatever list changed meanwhile, the clients here re-list. */
  private resumed(): void {
    for (const t of this.targets) for (const list of ["tools", "prompts", "resources"] as const) t.listChanged(list);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
