// A redis-server of the test's own: a free 127.0.0.1 port, persistence off, a temp dir; started
// with a bounded wait for readiness and stopped (SIGTERM, then SIGKILL) at the end, also when the
// test failed or the process exits early. Stop and start again on the same port for fault tests.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  readonly port: number;
  /** `redis://` (with the password when one is set). */
  readonly url: string;
  readonly dir: string;
  /** Stop the server (the data is gone: persistence is off). */
  stop(): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** Stop it and remove its directory. */
  close(): Promise<void>;
}

export interface RedisServerOptions {
  password?: string;
  /** Extra redis-server arguments (TLS ports, ...). */
  args?: string[];
  /** Port to listen on instead of a free one. */
  port?: number;
}

const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const p of live) p.kill("SIGKILL");
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-redis-"));
  const conf = join(dir, "redis.conf");
  // A config file: `--save ""` on a command line is easy to mangle.
  writeFileSync(
    conf,
    [
      `port ${port}`,
      "bind 127.0.0.1",
      'save ""',
      "appendonly no",
      `dir ${dir}`,
      ...(options.password ? [`requirepass "${options.password}"`] : []),
    ].join("\n") + "\n",
  );
  let child: ChildProcess | undefined;
  const start = async () => {
    const p = spawn("redis-server", [conf, ...(options.args ?? [])], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout!.on("data", (d: Buffer) => void (out = (out + d.toString()).slice(-4000)));
    p.stderr!.on("data", (d: Buffer) => void (out = (out + d.toString()).slice(-4000)));
    live.add(p);
    p.once("exit", () => live.delete(p));
    child = p;
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port, options.password))) {
      if (p.exitCode !== null || Date.now() > deadline) {
        p.kill("SIGKILL");
        throw new Error(`redis-server on port ${port} did not start: ${out}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const p = child;
    child = undefined;
    if (p === undefined || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once("exit", r));
    p.kill("SIGTERM");
    const t = setTimeout(() => p.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(t);
  };
  await start();
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : "";
  return {
    port,
    dir,
    url: `redis://${auth}127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One PING over a raw socket, bounded; true on +PONG (or -NOAUTH: it is up, it wants a password). */
function answersPing(port: number, password?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(500, () => done(false));
    s.once("error", () => done(false));
    let got = "";
    s.on("data", (d) => {
      got += d.toString();
      if (/\+PONG|NOAUTH/.test(got)) done(true);
      else if (got.includes("\r\n") && !password) done(false);
    });
    s.write(password ? `AUTH "${password}"\r\nPING\r\n` : "PING\r\n");
  });
}
