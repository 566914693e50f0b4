import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "../helpers.js";

export const cliPath = join(repoRoot, "dist", "bin", "mcpgen.js");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI in `cwd` (bounded: 60 s, then killed). */
export function runCli(args: string[], cwd: string): CliRun {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, MCPGEN_DEBUG: "", NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A CLI message must never be a stack trace. */
export function hasStack(text: string): boolean {
  return /^\s+at .+[:(]\d+/m.test(text);
}
