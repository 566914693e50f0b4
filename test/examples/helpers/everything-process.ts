/** Starts the compiled "everything" server as a real process and learns its URL from stdout. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const mainJs = fileURLToPath(new URL("../../../examples/everything/src/main.js", import.meta.url));

export interface EverythingProcess {
  readonly child: ChildProcess;
  readonly url: URL;
  /** stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after `ms`; resolves to the exit code (null when killed). */
  stop(ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function waitExit(
  child: ChildProcess,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    const t = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal });
    });
  });
}

export function startEverything(args: string[] = ["--port", "0"], timeoutMs = 10_000): Promise<EverythingProcess> {
  const child = spawn(process.execPath, [mainJs, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`everything server: ${why}; stderr: ${err.trim() || "(empty)"}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${timeoutMs} ms`), timeoutMs);
    child.once("exit", (code, signal) => fail(`exited early (${code ?? signal})`));
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const m = /listening on (\S+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({
        child,
        url: new URL(m[1]!),
        stderr: () => err,
        stop: (ms = 5000) => {
          child.kill("SIGTERM");
          return waitExit(child, ms);
        },
      });
    });
  });
}
