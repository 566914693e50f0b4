/**
 * `@mcpgen/runtime/redis`: a server's shared state in Redis, so several instances behind a load
 * balancer serve one server (docs/scale-out.md). Needs the optional peer dependency `redis`
 * (node-redis); a server that does not import this entry never loads it.
 */
import { RedisConnection, type RedisConnectionOptions } from "./redis/connection.js";
import { RedisEventStore, type RedisEventStoreOptions } from "./redis/event-store.js";
import { RedisTaskStore, type RedisTaskStoreOptions } from "./redis/task-store.js";
import { RedisNonceClaims } from "./redis/nonce-claims.js";
import { RedisChangeBus } from "./redis/change-bus.js";
import { RedisSessionDirectory, type RedisSessionDirectoryOptions } from "./redis/session-directory.js";

export { RedisConnection, RedisUnavailableError, redactUrl, type RedisConnectionOptions } from "./redis/connection.js";
export { RedisEventStore, type RedisEventStoreOptions } from "./redis/event-store.js";
export { RedisTaskStore, LEASE_LOST, type RedisTaskStoreOptions } from "./redis/task-store.js";
export { RedisNonceClaims } from "./redis/nonce-claims.js";
export { RedisChangeBus } from "./redis/change-bus.js";
export { RedisSessionDirectory, type RedisSessionDirectoryOptions } from "./redis/session-directory.js";

export interface RedisStoresOptions extends RedisConnectionOptions {
  events?: RedisEventStoreOptions;
  tasks?: RedisTaskStoreOptions;
  sessions?: RedisSessionDirectoryOptions;
}

/** Everything one instance shares through Redis, on one connection. */
export interface RedisStores {
  readonly connection: RedisConnection;
  /** For `createStreamableHttpServer({ eventStore })`. */
  readonly eventStore: RedisEventStore;
  /** For `createMcpServer(..., { tasks: { store } })`. */
  readonly taskStore: RedisTaskStore;
  /** For `createMcpServer(..., { requestState: { key, claims } })` (give every instance the same key). */
  readonly nonceClaims: RedisNonceClaims;
  /** For `createMcpServer(..., { bus })`. */
  readonly bus: RedisChangeBus;
  /**
   * For `createStreamableHttpServer({ sessionDirectory })`: legacy sessions served through any
   * instance. Call `announce(url)` with this instance's own endpoint once it listens.
   */
  readonly sessionDirectory: RedisSessionDirectory;
  /** Stop renewing task leases, stop announcing this instance, leave the bus, close the connections. */
  close(): Promise<void>;
}

/**
 * Connect and make every store; rejects with RedisUnavailableError naming the URL (password
 * redacted) when Redis cannot be reached.
 */
export async function openRedisStores(options: RedisStoresOptions): Promise<RedisStores> {
  const connection = await RedisConnection.open(options);
  try {
    const bus = await RedisChangeBus.attach(connection);
    const taskStore = new RedisTaskStore(connection, options.tasks);
    const sessionDirectory = new RedisSessionDirectory(connection, options.sessions);
    return {
      connection,
      bus,
      taskStore,
      sessionDirectory,
      eventStore: new RedisEventStore(connection, options.events),
      nonceClaims: new RedisNonceClaims(connection),
      async close() {
        taskStore.close();
        await sessionDirectory.close();
        await bus.close();
        await connection.close();
      },
    };
  } catch (e) {
    await connection.close();
    throw e;
  }
}
