/**
 * A TaskStore in Redis, shared by every instance of a server: any instance answers `tasks/get`,
 * `tasks/result`, `tasks/list`, and the status machine holds across them (each change is one Lua
 * script, so a terminal task never changes again whoever races it).
 *
 * Keys (all under the connection's namespace):
 * - `task:<id>`: a hash, one field per TaskRecord member as JSON text, plus `expiresAt`; it
 *   expires with the task's retention.
 * - `tasks` (sorted by creation), `expiry` (by expiry time), `owners` (id -> owner digest) and
 *   `owner:<digest>` (one owner's tasks, by creation): the indexes. Expired tasks leave them on the
 *   next create, list or sweep; they hold at most `maxTasks` entries.
 * - `leases`: id -> deadline of every task whose run is in progress somewhere. The instance that
 *   created a task renews its lease while it holds the task; every instance fails, with a clear
 *   statusMessage, the tasks whose lease ran out (their instance died), so a task is never
 *   `working` forever.
 *
 * Owners appear in keys only as SHA-256 digests; no token is stored (an owner is a principal key
 * or a connection id, never a credential).
 */
import { REDIS_TASK_LEASE_MS } from "../limits.js";
import { unrefTimer } from "../http-exchange.js";
import {
  TERMINAL,
  grantTtl,
  newTaskId,
  ownerFull,
  storeBounds,
  storeFull,
  type MemoryTaskStoreOptions,
  type TaskChange,
  type TaskRecord,
  type TaskStore,
} from "../tasks/store.js";
import { ownerDigest, script, type RedisConnection } from "./connection.js";

export interface RedisTaskStoreOptions extends Omit<MemoryTaskStoreOptions, "sweepIntervalMs"> {
  /**
   * A task whose instance stopped renewing its lease for this long is failed, ms (default
   * 15 000). Leases are renewed, and lapsed ones looked for, every third of it.
   */
  leaseMs?: number;
}

/** Why a task whose instance died failed: what the client reads in `statusMessage`. */
export const LEASE_LOST =
  "the server instance running this task stopped before it finished (its lease expired); run it again";

const FIELDS = [
  "taskId",
  "status",
  "statusMessage",
  "createdAt",
  "lastUpdatedAt",
  "ttlMs",
  "pollIntervalMs",
  "owner",
  "result",
  "error",
  "inputRequests",
] as const;

// Drops up to 256 expired tasks. Shared head of the scripts below; P is the key prefix ("{ns}:").
const PRUNE = `
local P = ARGV[1]
local function drop(id)
  local o = redis.call('HGET', P .. 'owners', id)
  redis.call('ZREM', P .. 'tasks', id)
  redis.call('ZREM', P .. 'expiry', id)
  redis.call('ZREM', P .. 'leases', id)
  redis.call('HDEL', P .. 'owners', id)
  redis.call('DEL', P .. 'task:' .. id)
  if o then redis.call('ZREM', P .. 'owner:' .. o, id) end
end
local function prune(now)
  local ids = redis.call('ZRANGEBYSCORE', P .. 'expiry', '-inf', now, 'LIMIT', 0, 256)
  for _, id in ipairs(ids) do drop(id) end
  return #ids
end
local TERMINAL = { ['"completed"'] = true, ['"failed"'] = true, ['"cancelled"'] = true }
`;

// ARGV: P, now, owner digest, maxPerOwner, maxTasks, id, expiresAt, ttl px, lease deadline, then field/value pairs.
const CREATE = script(`${PRUNE}
local now = tonumber(ARGV[2])
prune(now)
local ownerKey = P .. 'owner:' .. ARGV[3]
if redis.call('ZCARD', ownerKey) >= tonumber(ARGV[4]) then return 'owner' end
if redis.call('ZCARD', P .. 'tasks') >= tonumber(ARGV[5]) then return 'store' end
local id = ARGV[6]
local seq = redis.call('INCR', P .. 'seq')
local key = P .. 'task:' .. id
for i = 10, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', key, 'expiresAt', ARGV[7])
redis.call('PEXPIRE', key, ARGV[8])
redis.call('ZADD', P .. 'tasks', seq, id)
redis.call('ZADD', P .. 'expiry', ARGV[7], id)
redis.call('HSET', P .. 'owners', id, ARGV[3])
redis.call('ZADD', ownerKey, seq, id)
redis.call('ZADD', P .. 'leases', ARGV[9], id)
return 'ok'
`);

// ARGV: P, now, id, lastUpdatedAt JSON, fields to delete (space separated), then field/value pairs.
// Returns the record's fields after the change (unchanged when terminal), or nil when gone.
const UPDATE = script(`${PRUNE}
local key = P .. 'task:' .. ARGV[3]
local expires = redis.call('HGET', key, 'expiresAt')
if not expires or tonumber(expires) <= tonumber(ARGV[2]) then return nil end
if not TERMINAL[redis.call('HGET', key, 'status')] then
  for i = 6, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
  for f in string.gmatch(ARGV[5], '%S+') do redis.call('HDEL', key, f) end
  redis.call('HSET', key, 'lastUpdatedAt', ARGV[4])
  if TERMINAL[redis.call('HGET', key, 'status')] then redis.call('ZREM', P .. 'leases', ARGV[3]) end
end
return redis.call('HGETALL', key)
`);

// ARGV: P, now, id, owner JSON ('' = none), lastUpdatedAt JSON, statusMessage JSON.
const CANCEL = script(`${PRUNE}
local key = P .. 'task:' .. ARGV[3]
local expires = redis.call('HGET', key, 'expiresAt')
if not expires or tonumber(expires) <= tonumber(ARGV[2]) then return nil end
local owner = redis.call('HGET', key, 'owner')
if owner and owner ~= ARGV[4] then return nil end
if not TERMINAL[redis.call('HGET', key, 'status')] then
  redis.call('HSET', key, 'status', '"cancelled"', 'statusMessage', ARGV[6], 'lastUpdatedAt', ARGV[5])
  redis.call('HDEL', key, 'inputRequests')
  redis.call('ZREM', P .. 'leases', ARGV[3])
end
return redis.call('HGETALL', key)
`);

// ARGV: P, now, lastUpdatedAt JSON, statusMessage JSON, error JSON. Fails up to 64 tasks whose lease lapsed.
const REAP = script(`${PRUNE}
local ids = redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', ARGV[2], 'LIMIT', 0, 64)
local failed = {}
for _, id in ipairs(ids) do
  redis.call('ZREM', P .. 'leases', id)
  local key = P .. 'task:' .. id
  local status = redis.call('HGET', key, 'status')
  if status and not TERMINAL[status] then
    redis.call('HSET', key, 'status', '"failed"', 'statusMessage', ARGV[4], 'error', ARGV[5], 'lastUpdatedAt', ARGV[3])
    redis.call('HDEL', key, 'inputRequests')
    failed[#failed + 1] = id
  end
end
return failed
`);

// ARGV: P, now, max. Drops expired tasks; returns how many.
const SWEEP = script(`${PRUNE}
local total = 0
for _ = 1, tonumber(ARGV[3]) do
  local n = prune(tonumber(ARGV[2]))
  total = total + n
  if n < 256 then break end
end
return total
`);

// ARGV: P, owner digest. Drops every task of one owner.
const RELEASE = script(`${PRUNE}
local ids = redis.call('ZRANGE', P .. 'owner:' .. ARGV[2], 0, -1)
for _, id in ipairs(ids) do drop(id) end
return #ids
`);

// ARGV: owner index key, after (exclusive score), count.
const RANGE = script(`return redis.call('ZRANGEBYSCORE', ARGV[1], ARGV[2], '+inf', 'WITHSCORES', 'LIMIT', 0, ARGV[3])`);

export class RedisTaskStore implements TaskStore {
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly leaseMs: number;
  private readonly now: () => number;
  private readonly p: string;
  /** Tasks created here whose run may still be in progress: their leases are renewed. */
  private readonly held = new Set<string>();
  private readonly timer: ReturnType<typeof setInterval>;
  private closed = false;
  /** Called with the ids of tasks this instance found abandoned and failed (for notifications). */
  onreaped: ((taskIds: string[]) => void) | undefined;
  /** A renewal or a reaping could not reach Redis (default: ignored, the next round retries). */
  onerror: ((e: Error) => void) | undefined;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisTaskStoreOptions = {},
  ) {
    ({
      maxTasks: this.maxTasks,
      maxTasksPerOwner: this.maxTasksPerOwner,
      defaultTtlMs: this.defaultTtlMs,
      maxTtlMs: this.maxTtlMs,
    } = storeBounds("RedisTaskStore", options));
    this.leaseMs = options.leaseMs ?? REDIS_TASK_LEASE_MS;
    if (!(this.leaseMs >= 30)) throw new RangeError("RedisTaskStore: leaseMs >= 30 is required");
    this.now = options.now ?? Date.now;
    this.p = redis.key("");
    // Every instance renews what it holds and fails what dead ones held; it never keeps the process alive.
    this.timer = unrefTimer(setInterval(() => void this.tick(), Math.floor(this.leaseMs / 3)));
  }

  async create(init: { ttlMs?: number | null; pollIntervalMs?: number; owner?: string }): Promise<TaskRecord> {
    const ttlMs = grantTtl(init.ttlMs, this.defaultTtlMs, this.maxTtlMs);
    const now = this.now();
    const stamp = new Date(now).toISOString();
    const record: TaskRecord = {
      taskId: newTaskId(),
      status: "working",
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttlMs,
      ...(init.pollIntervalMs !== undefined ? { pollIntervalMs: init.pollIntervalMs } : {}),
      ...(init.owner !== undefined ? { owner: init.owner } : {}),
    };
    const expiresAt = now + ttlMs;
    const answer = await this.redis.run<string>(
      CREATE,
      [],
      [
        this.p,
        String(now),
        ownerDigest(init.owner),
        String(this.maxTasksPerOwner),
        String(this.maxTasks),
        record.taskId,
        String(expiresAt),
        // The hash outlives the retention a little, so a sweep still finds its owner to unindex.
        String(ttlMs + 60_000),
        String(now + this.leaseMs),
        ...pairs(record),
      ],
    );
    if (answer === "owner") throw ownerFull(this.maxTasksPerOwner);
    if (answer === "store") throw storeFull(this.maxTasks);
    this.held.add(record.taskId);
    return record;
  }

  async get(taskId: string, owner?: string): Promise<TaskRecord | undefined> {
    const t = this.record(await this.redis.command<Record<string, string>>(["HGETALL", this.p + "task:" + taskId]));
    if (t === undefined || (t.owner !== undefined && t.owner !== owner)) return undefined;
    return t;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const set: string[] = [];
    const del: string[] = [];
    for (const f of ["status", "statusMessage", "result", "error", "inputRequests"] as const) {
      if (!(f in change)) continue;
      const v = change[f];
      if (v === undefined) del.push(f);
      else set.push(f, JSON.stringify(v));
    }
    if (change.status !== undefined && change.status !== "input_required") del.push("inputRequests");
    const t = this.record(
      await this.redis.run<string[] | null>(
        UPDATE,
        [],
        [this.p, String(this.now()), taskId, JSON.stringify(new Date(this.now()).toISOString()), del.join(" "), ...set],
      ),
    );
    if (t === undefined || TERMINAL.has(t.status)) this.held.delete(taskId);
    return t;
  }

  async cancel(taskId: string, owner?: string, statusMessage = "cancelled"): Promise<TaskRecord | undefined> {
    const stamp = JSON.stringify(new Date(this.now()).toISOString());
    const t = this.record(
      await this.redis.run<string[] | null>(
        CANCEL,
        [],
        [
          this.p,
          String(this.now()),
          taskId,
          owner === undefined ? "" : JSON.stringify(owner),
          stamp,
          JSON.stringify(statusMessage),
        ],
      ),
    );
    if (t !== undefined && TERMINAL.has(t.status)) this.held.delete(taskId);
    return t;
  }

  async list(
    owner: string | undefined,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ tasks: TaskRecord[]; nextCursor?: string }> {
    await this.expire();
    let after = "-inf";
    if (cursor !== undefined) {
      const seq = await this.redis.command<string | null>(["ZSCORE", this.p + "tasks", cursor]);
      if (seq === null) throw new RangeError(`unknown cursor ${JSON.stringify(cursor)}`);
      after = `(${seq}`;
    }
    // Visible: the owner-less tasks and the owner's own, merged in creation order.
    const sources = owner === undefined ? [ownerDigest(undefined)] : [ownerDigest(undefined), ownerDigest(owner)];
    const found: { id: string; seq: number }[] = [];
    for (const d of sources) {
      // A script, so the reply is a flat array whatever protocol version the client speaks.
      const flat = await this.redis.run<string[]>(RANGE, [], [`${this.p}owner:${d}`, after, String(limit + 1)]);
      for (let i = 0; i < flat.length; i += 2) found.push({ id: flat[i]!, seq: Number(flat[i + 1]) });
    }
    found.sort((a, b) => a.seq - b.seq);
    const tasks: TaskRecord[] = [];
    let more = false;
    for (const { id } of found) {
      const t = await this.get(id, owner);
      if (t === undefined) continue;
      if (tasks.length === limit) {
        more = true;
        break;
      }
      tasks.push(t);
    }
    return more ? { tasks, nextCursor: tasks[tasks.length - 1]!.taskId } : { tasks };
  }

  async expire(): Promise<number> {
    return this.redis.run<number>(SWEEP, [], [this.p, String(this.now()), "64"]);
  }

  async release(owner: string): Promise<number> {
    return this.redis.run<number>(RELEASE, [], [this.p, ownerDigest(owner)]);
  }

  /**
   * Renew the leases of the tasks held here, then fail those whose instance stopped renewing.
   * Runs on its own every third of `leaseMs`; exposed for tests and for a shutdown hook.
   */
  async tick(): Promise<void> {
    if (this.closed) return;
    try {
      const now = this.now();
      if (this.held.size > 0) {
        const deadline = String(now + this.leaseMs);
        // XX: a task that ended (its lease removed) is not leased again.
        await this.redis.command(["ZADD", this.p + "leases", "XX", ...[...this.held].flatMap((id) => [deadline, id])]);
      }
      const stamp = JSON.stringify(new Date(now).toISOString());
      const failed = await this.redis.run<string[]>(
        REAP,
        [],
        [
          this.p,
          String(now),
          stamp,
          JSON.stringify(LEASE_LOST),
          JSON.stringify({ code: -32603, message: `Internal error: ${LEASE_LOST}` }),
        ],
      );
      for (const id of failed) this.held.delete(id);
      if (failed.length > 0) this.onreaped?.(failed);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** Stop renewing: tasks still held here fail once their lease lapses (another instance reaps them). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** Tasks this instance holds the lease of. */
  get leased(): number {
    return this.held.size;
  }

  /** A hash as HGETALL answers it (an object) or a script returns it (a flat array). */
  private record(reply: string[] | Record<string, string> | null): TaskRecord | undefined {
    if (reply === null) return undefined;
    let h: Record<string, string>;
    if (Array.isArray(reply)) {
      h = {};
      for (let i = 0; i < reply.length; i += 2) h[reply[i]!] = reply[i + 1]!;
    } else h = reply;
    if (h.expiresAt === undefined || Number(h.expiresAt) <= this.now()) return undefined;
    const out: Record<string, unknown> = {};
    for (const f of FIELDS) if (h[f] !== undefined) out[f] = JSON.parse(h[f]!);
    return out as unknown as TaskRecord;
  }
}

/** A record's members as hash field/value pairs (JSON text each). */
function pairs(t: TaskRecord): string[] {
  const out: string[] = [];
  for (const f of FIELDS) if (t[f] !== undefined) out.push(f, JSON.stringify(t[f]));
  return out;
}
