// A cluster of the test's own: a redis-server, N "everything" servers with --redis, and HAProxy
// in front with round-robin and no stickiness. Everything is started with bounded waits and
// stopped at the end (SIGTERM, then SIGKILL), also when the test failed.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEverything, waitExit, type EverythingProcess } from "../examples/helpers/everything-process.js";
import { freePort, startRedis, type RedisServer } from "./harness.js";

export interface Cluster {
  readonly redis: RedisServer;
  readonly instances: EverythingProcess[];
  /** The balancer's endpoint: what clients use. */
  readonly url: URL;
  close(): Promise<void>;
}

/**
 * `balance`: "roundrobin" (no stickiness), or "session-header": a legacy session's requests go to
 * the instance whose response issued its `Mcp-Session-Id` (an HAProxy stick table; no cookie;
 * requests without the header, `initialize` and every 2026-07-28 request, round-robin), what
 * docs/scale-out.md prescribes until legacy sessions are shared.
 */
export async function startCluster(
  n = 3,
  extra: string[] = [],
  balance: "roundrobin" | "session-header" = "roundrobin",
  prefix = `c${randomBytes(4).toString("hex")}`,
): Promise<Cluster> {
  const redis = await startRedis();
  const lbPort = await freePort();
  const url = new URL(`http://localhost:${lbPort}/mcp`);
  // Every instance signs and checks requestState with the same key.
  process.env.EVERYTHING_REQUEST_STATE_KEY ??= randomBytes(32).toString("hex");
  const instances: EverythingProcess[] = [];
  let haproxy: ChildProcess | undefined;
  const close = async () => {
    if (haproxy !== undefined && haproxy.exitCode === null) {
      haproxy.kill("SIGTERM");
      await waitExit(haproxy, 3000);
    }
    for (const p of instances) if (p.child.exitCode === null && p.child.signalCode === null) await p.stop(3000);
    await redis.close();
  };
  try {
    for (let i = 0; i < n; i++)
      instances.push(
        await startEverything([
          "--port",
          "0",
          "--redis",
          redis.url,
          "--redis-prefix",
          prefix,
          "--public-url",
          url.href,
          ...extra,
        ]),
      );
    const cfg = join(redis.dir, "haproxy.cfg");
    writeFileSync(
      cfg,
      [
        "global",
        "  maxconn 512",
        "defaults",
        "  mode http",
        "  timeout connect 2s",
        "  timeout client 60s",
        "  timeout server 60s",
        "  timeout http-request 10s",
        // A dead instance is taken out after one failed check.
        "frontend fe",
        `  bind 127.0.0.1:${lbPort}`,
        "  default_backend be",
        // A connection refused by a dead instance is retried on another one.
        "backend be",
        "  balance roundrobin",
        // The instance that answered initialize is remembered by the session id it issued (no cookie).
        ...(balance === "roundrobin"
          ? []
          : [
              "  stick-table type string len 128 size 100k expire 30m",
              "  stick store-response res.hdr(mcp-session-id)",
              "  stick match req.hdr(mcp-session-id)",
            ]),
        "  retries 2",
        "  option redispatch",
        "  retry-on conn-failure empty-response",
        ...instances.map((p, i) => `  server s${i} 127.0.0.1:${p.url.port} check inter 300 fall 1 rise 1`),
      ].join("\n") + "\n",
    );
    haproxy = spawn("haproxy", ["-db", "-f", cfg], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    haproxy.stderr!.on("data", (d: Buffer) => void (err += d.toString()));
    process.on("exit", () => haproxy?.kill("SIGKILL"));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const up = await fetch(url, { method: "GET", signal: AbortSignal.timeout(1000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (up !== 0) break;
      if (haproxy.exitCode !== null || Date.now() > deadline) throw new Error(`haproxy did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { redis, instances, url, close };
}
