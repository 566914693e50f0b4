/**
 * One server instance's link to Redis, shared by its Redis stores: a command connection and, once
 * something subscribes, a second one for pub/sub (a subscribed connection takes no other commands).
 *
 * Faults: opening fails within `connectTimeoutMs` with RedisUnavailableError naming the URL (its
 * password redacted). Once open, a lost Redis makes every command reject at once (no offline
 * queue, so nothing waits on a Redis that may never come back) or after `commandTimeoutMs`, while
 * the client reconnects in the background; service resumes when Redis answers again.
 */
import { createClient } from "redis";
import { createHash } from "node:crypto";
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";

/** How long opening a connection may take before it fails, ms. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** How long one command may take before the request that needed it fails, ms. */
const REDIS_COMMAND_TIMEOUT_MS = 2_000;
/** Longest pause between attempts to reconnect to a lost Redis, ms. */
const REDIS_RECONNECT_MAX_DELAY_MS = 1_000;

export interface RedisConnectionOptions {
  /** `redis://[:password@]host:port[/db]`, `rediss://` for TLS; a username goes before the password. */
  url: string;
  /**
   * Namespace of every key and channel: deployments that share one Redis give different ones
   * (default "mcpgen"). Keys are `{prefix}:...`: the braces make them one Redis Cluster hash slot,
   * so the multi-key scripts of these stores work on a cluster too.
   */
  prefix?: string;
  /** How long opening may take before RedisUnavailableError, ms (default 5 000). */
  connectTimeoutMs?: number;
  /** How long one command may take before it fails, ms (default 2 000). */
  commandTimeoutMs?: number;
  /** TLS options for `rediss://` (a private CA, client certificates), as node:tls takes them. */
  tls?: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer; rejectUnauthorized?: boolean };
}

/**
 * Redis is unreachable or stopped answering: a request that needs it gets this JSON-RPC error
 * (-32603, `data.retryable`), not a hang. The message a client sees names no address; opening
 * (an operator's concern, never a client's) names the URL, password redacted.
 */
export class RedisUnavailableError extends McpError {
  override name = "RedisUnavailableError";

  constructor(message: string) {
    super(ErrorCode.InternalError, message, { retryable: true });
  }
}

/** The URL with its password (and username) replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== "") u.password = "***";
    if (u.username !== "" && u.password !== "") u.username = "***";
    return u.toString();
  } catch {
    return "(an unparsable Redis URL)";
  }
}

/** What these stores use of a node-redis client (its generic types are not needed here). */
interface Client {
  sendCommand(args: readonly string[]): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  on(event: "error" | "ready", listener: (...args: unknown[]) => void): unknown;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  readonly isReady: boolean;
  readonly isOpen: boolean;
}
type Reply = string | number | null | Reply[] | { [field: string]: string };

/** A Lua script run by its digest, loaded again when Redis restarted without it. */
interface Script {
  readonly text: string;
  readonly sha: string;
}

export class RedisConnection {
  /** The URL with its password redacted. */
  readonly where: string;
  /** `{prefix}`: what every key and channel begins with. */
  readonly namespace: string;
  private subscriber: Client | undefined;
  private subscribing: Promise<Client> | undefined;
  private closed = false;

  private constructor(
    private readonly client: Client,
    private readonly options: RedisConnectionOptions,
  ) {
    this.where = redactUrl(options.url);
    this.namespace = `{${options.prefix ?? "mcpgen"}}`;
  }

  /** Connect; rejects with RedisUnavailableError (naming the redacted URL) when Redis cannot be reached in time. */
  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const prefix = options.prefix ?? "mcpgen";
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix))
      throw new RangeError(`redis prefix must be 1 to 64 of A-Z a-z 0-9 _ . : - (got ${JSON.stringify(prefix)})`);
    const where = redactUrl(options.url);
    if (!/^rediss?:$/.test(safeProtocol(options.url)))
      throw new RangeError(`redis url must start with redis:// or rediss:// (got ${where})`);
    const client = makeClient(options);
    const link = new RedisConnection(client, options);
    try {
      await withTimeout(client.connect(), options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS);
    } catch (e) {
      client.destroy();
      throw new RedisUnavailableError(`cannot reach Redis at ${where}: ${reason(e)}`);
    }
    return link;
  }

  /** A key of this namespace. */
  key(...parts: string[]): string {
    return `${this.namespace}:${parts.join(":")}`;
  }

  /** One command; rejects with RedisUnavailableError when Redis cannot answer. */
  async command<T extends Reply = Reply>(args: readonly string[]): Promise<T> {
    try {
      return (await this.client.sendCommand(args)) as T;
    } catch (e) {
      throw this.fault(e);
    }
  }

  /** Run `script` (EVALSHA, then EVAL when Redis does not hold it, e.g. after a restart). */
  async run<T extends Reply = Reply>(script: Script, keys: readonly string[], args: readonly string[]): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return (await this.client.sendCommand(["EVALSHA", script.sha, ...tail])) as T;
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith("NOSCRIPT")) throw this.fault(e);
    }
    return this.command<T>(["EVAL", script.text, ...tail]);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.command(["PUBLISH", channel, message]);
  }

  /**
   * Hear `channel` (a connection of its own, opened on first use). `onresume` runs when the
   * subscription is back after Redis was lost: what was published meanwhile is gone.
   */
  async subscribe(
    channel: string,
    listener: (message: string) => void,
    onresume: () => void,
  ): Promise<() => Promise<void>> {
    const sub = await (this.subscribing ??= this.openSubscriber(onresume));
    await sub.subscribe(channel, listener).catch((e: unknown) => {
      throw this.fault(e);
    });
    return async () => {
      if (!this.closed && sub.isReady) await sub.unsubscribe(channel, listener).catch(() => {});
    };
  }

  /** Close both connections (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of [this.client, this.subscriber]) {
      if (c === undefined) continue;
      if (c.isReady) await c.close().catch(() => c.destroy());
      else if (c.isOpen) c.destroy();
    }
  }

  private async openSubscriber(onresume: () => void): Promise<Client> {
    const sub = makeClient(this.options);
    let lost = false;
    sub.on("error", () => void (lost = true));
    sub.on("ready", () => {
      if (lost) {
        lost = false;
        onresume();
      }
    });
    try {
      await withTimeout(sub.connect(), this.options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS);
    } catch (e) {
      sub.destroy();
      this.subscribing = undefined;
      throw new RedisUnavailableError(`cannot reach Redis at ${this.where}: ${reason(e)}`);
    }
    this.subscriber = sub;
    return sub;
  }

  private fault(e: unknown): Error {
    if (e instanceof Error && /^(ERR|WRONGTYPE|NOSCRIPT|BUSY|OOM|NOPERM|READONLY)\b/.test(e.message)) return e;
    return new RedisUnavailableError(
      `Internal error: the server's shared store did not answer (${reason(e)}); retry shortly`,
    );
  }
}

function makeClient(options: RedisConnectionOptions): Client {
  let connected = false;
  const client = createClient({
    url: options.url,
    // A command while Redis is away fails now; its caller answers 503 / a JSON-RPC error.
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
      // Opening tries twice more, then fails; once open, reconnecting never gives up.
      reconnectStrategy: (retries, cause) =>
        connected ? Math.min(50 * 2 ** retries, REDIS_RECONNECT_MAX_DELAY_MS) : retries >= 2 ? cause : 100,
      ...(options.tls !== undefined ? { tls: true as const, ...options.tls } : {}),
    },
  }) as unknown as Client;
  client.on("ready", () => void (connected = true));
  // Without a listener an 'error' event would end the process; the commands' own errors say enough.
  client.on("error", () => {});
  return client;
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return "";
  }
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A script with its digest (what EVALSHA names). */
export function script(text: string): Script {
  return { text, sha: createHash("sha1").update(text).digest("hex") };
}

/**
 * What the stores keep of an owner (a principal key): its SHA-256, never the key itself, so one
 * owner's records compare equal across instances without Redis holding who it is; "-" for none.
 */
export function ownerDigest(owner: string | undefined): string {
  return owner === undefined ? "-" : createHash("sha256").update(owner).digest("base64url");
}
