/** A fuzz target process: spawn, read its STATS on demand, notice a crash, restart. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface Stats {
  rss: number;
  heap: number;
  sessions: number;
  httpSessions: number;
  running: number;
  pending: number;
  /** Open 2026-07-28 listens on the whole server. */
  listens: number;
  errors: number;
}

export class Target {
  child!: ChildProcess;
  crashes = 0;
  url: URL | undefined;
  private err = "";
  private stdoutText = "";
  private waiters: ((s: Stats) => void)[] = [];
  onstdout?: (chunk: Buffer) => void;
  private stopping = false;

  constructor(
    private readonly script: string,
    private readonly args: string[],
  ) {}

  async start(): Promise<void> {
    this.stopping = false;
    const file = fileURLToPath(new URL(this.script, import.meta.url));
    const child = (this.child = spawn(process.execPath, ["--expose-gc", file, ...this.args], {
      stdio: ["pipe", "pipe", "pipe"],
    }));
    this.err = "";
    this.stdoutText = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      this.err += d;
      let nl;
      while ((nl = this.err.indexOf("\n")) !== -1) {
        const line = this.err.slice(0, nl);
        this.err = this.err.slice(nl + 1);
        if (line.startsWith("STATS ")) this.waiters.shift()?.(JSON.parse(line.slice(6)) as Stats);
        else if (/Error|error/.test(line) && /at |FATAL|heap/.test(line)) process.stderr.write(`[target] ${line}\n`);
      }
    });
    child.once("exit", (code, signal) => {
      if (!this.stopping) {
        this.crashes++;
        process.stderr.write(`[fuzz] target ${this.script} ${this.args.join(" ")} died (${code ?? signal})\n`);
      }
    });
    child.stdin!.on("error", () => {});
    if (this.args[0] === "http") {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error("target did not listen")), 10_000);
        child.stdout!.setEncoding("utf8").on("data", (d: string) => {
          this.stdoutText += d;
          const m = /listening on (\S+)\n/.exec(this.stdoutText);
          if (m && !this.url?.href.startsWith(m[1]!)) {
            clearTimeout(t);
            this.url = new URL(m[1]!);
            resolve();
          }
        });
      });
    } else child.stdout!.on("data", (c: Buffer) => this.onstdout?.(c));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  stats(ms = 5000): Promise<Stats | undefined> {
    if (!this.alive) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(done), 1);
        resolve(undefined);
      }, ms);
      const done = (s: Stats) => {
        clearTimeout(t);
        resolve(s);
      };
      this.waiters.push(done);
      this.child.kill("SIGUSR2");
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.alive) return;
    this.child.stdin!.end();
    this.child.kill("SIGTERM");
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.child.kill("SIGKILL");
        resolve();
      }, 3000);
      this.child.once("exit", () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
