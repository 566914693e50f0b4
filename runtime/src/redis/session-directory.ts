/**
 * Legacy Streamable HTTP sessions across instances: `sess:<id>` names the instance that holds a
 * session, `inst:<instance>` that instance's own endpoint URL while it is alive (renewed every
 * second, gone 3 s after it stopped). A request for a session held elsewhere is forwarded to that
 * endpoint as it came (headers, authorization included, and body) and its response, an SSE stream
 * included, is relayed back as it arrives: the session's instance checks the principal, answers,
 * holds the streams and the server-to-client requests it sent, so a client's answer reaches the
 * request waiting for it whichever instance the balancer picked. `srec:<id>` holds the session's
 * record (session-record.ts) and the digest of the principal it is bound to: when the instance
 * holding a session died, the instance a request for it reaches takes it over (one atomic claim,
 * one winner) and rebuilds it from the record; its SSE events are in the event store.
 */
import { request } from "node:http";
import { request as requestTls } from "node:https";
import { randomBytes } from "node:crypto";
import type { SessionDirectory } from "../http-server/session-directory.js";
import { sessionRecords } from "../http-server/session-record.js";
import { unrefTimer, type HttpReply, type HttpRequestHead } from "../http-exchange.js";
import { ownerDigest, script, type RedisConnection } from "./connection.js";

export interface RedisSessionDirectoryOptions {
  /** How long a session's entry outlives its last renewal, ms (default 35 minutes: the idle timeout and some). */
  ttlMs?: number;
  /** Report forwarding and renewal failures (default: ignored). */
  onerror?: (e: Error) => void;
}

/** Marks a forwarded request, so it is never forwarded again (a loop between two instances). */
const FORWARDED = "mcpgen-forwarded";
const BEAT_MS = 1000;
/** Headers that belong to one hop. */
const HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
  "content-length",
  "host",
]);

// KEYS: session key. ARGV: instance id. Deletes the entry only if it is still this instance's.
// KEYS: session key, its record's key. ARGV: instance id. Deletes both only while the session is this instance's.
const RELEASE = script(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1], KEYS[2]) end return 0`,
);
// KEYS: session key, record key. ARGV: instance id, owner digest, ttl ms, record (JSON; "" for
// none). Written only while the session is this instance's (not after another took it over).
const SAVE = script(`if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[4] == '' then return redis.call('DEL', KEYS[2]) end
redis.call('HSET', KEYS[2], 'owner', ARGV[2], 'data', ARGV[4])
return redis.call('PEXPIRE', KEYS[2], ARGV[3])`);
// KEYS: session key, record key. ARGV: ttl ms. A session in use keeps its entry and record
// together, in one round trip.
const RENEW = script(`redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('PEXPIRE', KEYS[2], ARGV[1])`);
// KEYS: session key, record key. ARGV: instance id, owner digest, ttl ms, the instance keys'
// prefix. The session is claimed only for its own principal, only when a record exists, and only
// when the instance holding it has no live heartbeat: the first claimant wins; the others see
// its live heartbeat and forward to it.
const TAKE_OVER = script(`local home = redis.call('GET', KEYS[1])
if not home then return false end
local alive = home ~= ARGV[1] and redis.call('EXISTS', ARGV[4] .. home) == 1
local rec = redis.call('HMGET', KEYS[2], 'owner', 'data')
if not rec[2] then
  -- A dead instance's session that cannot be taken over is gone.
  if not alive and home ~= ARGV[1] then redis.call('DEL', KEYS[1]) end
  return false
end
if rec[1] ~= ARGV[2] then return false end
if alive then return 'elsewhere' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {rec[2]}`);

export class RedisSessionDirectory implements SessionDirectory {
  readonly records = sessionRecords;
  readonly instanceId = randomBytes(9).toString("base64url");
  private endpoint: URL | undefined;
  private readonly local = new Set<string>();
  private readonly ttlMs: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private beats = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisSessionDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 35 * 60_000;
    if (!(this.ttlMs >= 1000)) throw new RangeError("RedisSessionDirectory: ttlMs >= 1000 is required");
    this.timer = unrefTimer(setInterval(() => void this.beat(), BEAT_MS));
  }

  /** Where other instances reach this one: its endpoint URL as they can connect to it (not the balancer's). */
  async announce(endpoint: URL): Promise<void> {
    this.endpoint = endpoint;
    await this.beat();
  }

  async opened(sessionId: string): Promise<void> {
    await this.redis.command(["SET", this.redis.key("sess", sessionId), this.instanceId, "PX", String(this.ttlMs)]);
    this.local.add(sessionId);
  }

  closed(sessionId: string): void {
    this.local.delete(sessionId);
    this.redis.run(RELEASE, this.keys(sessionId), [this.instanceId]).catch((e: Error) => this.options.onerror?.(e));
  }

  save(sessionId: string, owner: string | undefined, record: string | undefined): void {
    this.redis
      .run(SAVE, this.keys(sessionId), [this.instanceId, ownerDigest(owner), String(this.ttlMs), record ?? ""])
      .catch((e: Error) => this.options.onerror?.(e));
  }

  async takeOver(sessionId: string, owner: string | undefined): Promise<string | "elsewhere" | undefined> {
    if (sessionId.length > 256) return undefined;
    const got = await this.redis.run<string | string[] | null>(TAKE_OVER, this.keys(sessionId), [
      this.instanceId,
      ownerDigest(owner),
      String(this.ttlMs),
      this.redis.key("inst", ""),
    ]);
    if (got === "elsewhere") return got;
    if (!Array.isArray(got) || typeof got[0] !== "string") return undefined;
    this.local.add(sessionId);
    return got[0];
  }

  private keys(sessionId: string): string[] {
    return [this.redis.key("sess", sessionId), this.redis.key("srec", sessionId)];
  }

  async forward(sessionId: string, req: HttpRequestHead, res: HttpReply, body: string | undefined): Promise<boolean> {
    if (req.headers[FORWARDED] !== undefined || sessionId.length > 256) return false;
    const home = await this.redis.command<string | null>(["GET", this.redis.key("sess", sessionId)]);
    if (home === null || home === this.instanceId) return false;
    const target = await this.redis.command<string | null>(["GET", this.redis.key("inst", home)]);
    // Its instance is gone: the endpoint takes the session over (takeOver).
    if (target === null) return false;
    await relay(new URL(target), req, res, body);
    return true;
  }

  /** Stop announcing this instance (its sessions then become unreachable from the others). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.command(["DEL", this.redis.key("inst", this.instanceId)]).catch(() => {});
  }

  private async beat(): Promise<void> {
    if (this.endpoint === undefined) return;
    try {
      await this.redis.command([
        "SET",
        this.redis.key("inst", this.instanceId),
        this.endpoint.href,
        "PX",
        String(3 * BEAT_MS),
      ]);
      // Sessions in use keep their entries: renewed a few times per ttl.
      if (++this.beats % Math.max(1, Math.floor(this.ttlMs / BEAT_MS / 4)) === 0) {
        for (const sid of this.local) await this.redis.run(RENEW, this.keys(sid), [String(this.ttlMs)]);
      }
    } catch (e) {
      this.options.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }
}

/** The principal key as stored: a digest ("-": no principal, an endpoint without a guard). */
/** Send `req` (with `body`) to `target` and stream its answer back on `res`. */
function relay(target: URL, req: HttpRequestHead, res: HttpReply, body: string | undefined): Promise<void> {
  const headers: Record<string, string | string[]> = { [FORWARDED]: "1" };
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
  // The client's Host, which the instance checks like any request's (they share allowed hosts).
  if (typeof req.headers.host === "string") headers.host = req.headers.host;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve) => {
    const send = target.protocol === "https:" ? requestTls : request;
    const up = send(target, { method: req.method ?? "GET", headers, timeout: 5000 }, (answer) => {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers))
        if (v !== undefined && !HOP.has(k)) out[k] = Array.isArray(v) ? v.join(", ") : v;
      res.writeHead(answer.statusCode ?? 502, out);
      res.flushHeaders();
      // JSON and SSE are text: relayed as it arrives.
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => void res.write(chunk));
      answer.on("end", () => {
        res.end();
        resolve();
      });
      answer.on("error", () => {
        res.destroy();
        resolve();
      });
      // A stream held open: no timeout once answered.
      up.setTimeout(0);
    });
    up.on("timeout", () => up.destroy(new Error("no answer")));
    up.on("error", () => {
      if (!res.headersSent) {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: {
              code: -32000,
              message: "Service unavailable: the instance holding this session did not answer; retry",
            },
          }),
        );
      } else res.destroy();
      resolve();
    });
    // The client went away: so does the forwarded request (and a stream it held).
    res.on("close", () => void up.destroy());
    up.end(body);
  });
}
