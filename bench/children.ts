/** Child processes of one benchmark process: spawned here, always killed before it exits. */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { childPids } from "./proc.js";

/** Path of a compiled server script under dist/bench/servers/. */
export function serverScript(name: string): string {
  return fileURLToPath(new URL(`./servers/${name}.js`, import.meta.url));
}

/**
 * Node flags for server children: BENCH_CPU_PROF_DIR=<dir> profiles every server process
 * (`--cpu-prof` is refused in NODE_OPTIONS). Profiles are written when a server exits by itself.
 */
export function serverNodeFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
}

export function spawnNode(script: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [...serverNodeFlags(), script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
}

/** Starts an HTTP server script and waits for the {"port":N} line it prints once listening. */
export async function startHttpServer(
  name: string,
  args: readonly string[],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnNode(serverScript(name), args);
  let text = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no port within 10 s`)), 10_000);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before listening`)));
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      text += chunk;
      const nl = text.indexOf("\n");
      if (nl === -1) return;
      clearTimeout(timer);
      resolve(JSON.parse(text.slice(0, nl)).port);
    });
  });
  child.stdout!.resume();
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

/** Ends a child: close stdin, wait, SIGTERM, wait, SIGKILL. */
export async function stopChild(child: ChildProcess, graceMs = 500): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  const wait = (ms: number) =>
    Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  child.stdin?.end();
  if (await wait(graceMs)) return;
  child.kill("SIGTERM");
  if (await wait(graceMs)) return;
  child.kill("SIGKILL");
  await exited;
}

/** Last resort on exit: kill whatever children (ours or an SDK's) are still alive. */
export function killAllChildrenOnExit(): void {
  process.on("exit", () => {
    for (const pid of childPids()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}
