import type { ChildProcess } from "node:child_process";
import type { PassThrough, Readable } from "node:stream";
import { nodeBuiltin } from "../node-builtin.js";
import { NdjsonStreamTransport, type NdjsonStreamOptions } from "./ndjson-stream.js";
import { CLIENT_MAX_MESSAGE_BYTES } from "../limits.js";

export interface StdioClientTransportOptions extends NdjsonStreamOptions {
  command: string;
  args?: readonly string[];
  /** Environment of the child; defaults to this process's environment. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** What happens to the child's stderr: "pipe" (read it from `transport.stderr`), "inherit" (default) or "ignore". */
  stderr?: "pipe" | "inherit" | "ignore";
  /** Shutdown escalation: wait this long after closing stdin before SIGTERM (default 2000 ms). */
  closeTimeoutMs?: number;
  /** Then wait this long after SIGTERM before SIGKILL (default 2000 ms). */
  termTimeoutMs?: number;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Client side of stdio: spawns the server and speaks NDJSON over its stdin/stdout.
 * close(): end stdin, wait; SIGTERM, wait; SIGKILL. The child closing its stdout (or exiting)
 * ends the input: every answer it wrote is read and handled first, then the calls still pending
 * fail with ConnectionClosedError and the child is reaped.
 */
export class StdioClientTransport extends NdjsonStreamTransport {
  private readonly options: StdioClientTransportOptions;
  private child: ChildProcess | undefined;
  private exitInfo: ChildExit | undefined;
  private exited: Promise<ChildExit> | undefined;
  private closing: Promise<void> | undefined;
  private readonly stderrOut: PassThrough | undefined;
  private exitWait: ReturnType<typeof setTimeout> | undefined;

  constructor(options: StdioClientTransportOptions) {
    // A client reads what servers return (resources, images): its frame cap is larger than a server's.
    super({ ...options, maxMessageBytes: options.maxMessageBytes ?? CLIENT_MAX_MESSAGE_BYTES });
    this.options = options;
    // Created up front so callers can listen before start(); fed from the child once spawned.
    if (options.stderr === "pipe")
      this.stderrOut = new (nodeBuiltin<typeof import("node:stream")>("node:stream").PassThrough)();
  }

  /** The child's stderr when `stderr: "pipe"` (null otherwise); readable before start(). */
  get stderr(): Readable | null {
    return this.stderrOut ?? null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.exitInfo;
  }

  override start(): Promise<void> {
    if (this.child) return Promise.reject(new Error("transport already started"));
    const o = this.options;
    // Loaded here, not at import: `@mcpgen/runtime/stdio` also serves servers, which never spawn,
    // and node:child_process costs a process about 2.4 MiB of RSS.
    const { spawn } = nodeBuiltin<typeof import("node:child_process")>("node:child_process");
    const child = spawn(o.command, o.args ?? [], {
      cwd: o.cwd,
      env: (o.env ?? process.env) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", o.stderr ?? "inherit"],
      windowsHide: true,
    });
    this.child = child;
    if (this.stderrOut) child.stderr?.pipe(this.stderrOut);
    this.exited = new Promise<ChildExit>((resolve) => {
      child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
    // stdin write errors (EPIPE after the child died) surface through onerror, never as a crash.
    child.stdin!.on("error", () => {});
    return new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        // stdout's end ends the input (see endInput: the child is reaped then).
        this.attach(child.stdout!, child.stdin!);
        child.once("exit", () => {
          // What the child wrote before it exited may still be in the pipe: stdout's end closes
          // the transport once that is read. A grandchild holding stdout open must not keep it
          // open forever.
          if (this.isClosed) return;
          this.exitWait = setTimeout(() => this.endInput(), this.drainTimeoutMs);
          this.exitWait.unref?.();
        });
        resolve();
      });
      child.once("error", (error) => {
        if (child.pid === undefined) {
          this.exitInfo = { code: null, signal: null };
          this.stderrOut?.end();
          reject(new Error(`cannot start ${o.command}: ${error.message}`));
          this.closeNow();
        } else this.onerror?.(error);
      });
    });
  }

  override close(): Promise<void> {
    if (!this.closing) this.closing = this.shutdown();
    return this.closing;
  }

  /** The server closed its stdout and its answers are handled: it is shutting down, reap it (bounded escalation). */
  protected override endInput(): void {
    this.closeNow();
    void this.close();
  }

  protected override closeNow(): void {
    clearTimeout(this.exitWait);
    super.closeNow();
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    if (child && this.exited && !this.exitInfo) {
      const closeMs = this.options.closeTimeoutMs ?? 2000;
      const termMs = this.options.termTimeoutMs ?? 2000;
      // What the open burst holds back goes before the end (see NdjsonStreamTransport.send).
      this.writeBatch();
      child.stdin?.end();
      if (!(await within(this.exited, closeMs))) {
        child.kill("SIGTERM");
        if (!(await within(this.exited, termMs))) {
          child.kill("SIGKILL");
          await this.exited;
        }
      }
    }
    this.closeNow();
  }
}

/** Resolves true when `p` settles within `ms`, false otherwise; leaves no timer behind. */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(
      () => {
        clearTimeout(t);
        resolve(true);
      },
      () => {
        clearTimeout(t);
        resolve(true);
      },
    );
  });
}
