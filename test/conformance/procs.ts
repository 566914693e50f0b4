/**
 * Child processes for the conformance runner. Every child gets its own process group so the
 * whole tree (npm -> sh -> node, suite -> shell -> our client) can be ended by that group's id;
 * every run has a time limit; `killAll` ends whatever is still alive when the runner exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { connect, createServer } from "node:net";

const live = new Set<ChildProcess>();

function signalGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }
}

/** SIGKILL every process group this module started and that has not exited. */
export function killAll(): void {
  for (const c of live) signalGroup(c, "SIGKILL");
  live.clear();
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Copy of the child's stdout+stderr. */
  logFile?: string;
  /** Called with each complete output line as it arrives. */
  onLine?: (line: string) => void;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
  ms: number;
}

/** Run to completion or until the time limit (then SIGTERM, and SIGKILL 2 s later). */
export function run(command: string, args: readonly string[], o: RunOptions): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      env: o.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    live.add(child);
    const log = o.logFile ? createWriteStream(o.logFile) : undefined;
    let output = "";
    let partial = "";
    let timedOut = false;
    const onData = (d: Buffer): void => {
      const s = d.toString("utf8");
      output += s;
      log?.write(d);
      if (o.onLine) {
        partial += s;
        const lines = partial.split(/\r?\n/);
        partial = lines.pop() ?? "";
        for (const l of lines) o.onLine(l);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(child, "SIGKILL"), 2000);
    }, o.timeoutMs);
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      // The group may still hold grandchildren (e.g. a client the suite spawned); end them too.
      signalGroup(child, "SIGKILL");
      live.delete(child);
      if (partial && o.onLine) o.onLine(partial);
      log?.end();
      resolve({ code, signal, timedOut, output, ms: Date.now() - started });
    };
    child.on("error", (e) => {
      output += `\n[spawn error] ${e.message}\n`;
      finish(null, null);
    });
    child.on("close", finish);
  });
}

export interface Background {
  readonly child: ChildProcess;
  /** Output so far (bounded to the last 64 KiB). */
  tail(): string;
  /** Exit description once it has exited, else undefined. */
  exited(): string | undefined;
  /** SIGTERM the group, wait up to `graceMs`, then SIGKILL; resolves whether it went on SIGTERM. */
  stop(graceMs?: number): Promise<{ clean: boolean; how: string }>;
}

/** Start a long-running child (our server) in its own process group. */
export function background(
  command: string,
  args: readonly string[],
  o: { cwd?: string; env?: NodeJS.ProcessEnv; logFile?: string },
): Background {
  const child = spawn(command, args, {
    cwd: o.cwd,
    env: o.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  live.add(child);
  const log = o.logFile ? createWriteStream(o.logFile) : undefined;
  let buf = "";
  let exit: string | undefined;
  const onData = (d: Buffer): void => {
    log?.write(d);
    buf += d.toString("utf8");
    if (buf.length > 65536) buf = buf.slice(-65536);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const closed = new Promise<void>((resolve) => {
    child.on("error", (e) => {
      exit = `could not start: ${e.message}`;
      resolve();
    });
    child.on("close", (code, signal) => {
      exit ??= signal ? `killed by ${signal}` : `exited with code ${code}`;
      live.delete(child);
      log?.end();
      resolve();
    });
  });
  return {
    child,
    tail: () => buf,
    exited: () => exit,
    async stop(graceMs = 5000) {
      if (exit !== undefined) return { clean: true, how: exit };
      signalGroup(child, "SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const inTime = await Promise.race([
        closed.then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (inTime) {
        // npm itself may have exited while its child lingers: clear the group regardless.
        signalGroup(child, "SIGKILL");
        return { clean: true, how: exit ?? "stopped" };
      }
      signalGroup(child, "SIGKILL");
      await closed;
      return { clean: false, how: `did not stop within ${graceMs} ms of SIGTERM; killed` };
    },
  };
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function tryConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: "127.0.0.1", port });
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once("connect", () => done(true));
    s.once("error", () => done(false));
  });
}

/** Poll until 127.0.0.1:port accepts connections; gives up at `timeoutMs` or when `gone()` says so. */
export async function waitForPort(
  port: number,
  timeoutMs: number,
  gone: () => string | undefined,
): Promise<string | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const g = gone();
    if (g !== undefined) return g;
    if (await tryConnect(port)) return undefined;
    if (Date.now() >= until) return `nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`;
    await new Promise((r) => setTimeout(r, 100));
  }
}
