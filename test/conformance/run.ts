#!/usr/bin/env node
/**
 * `npm run conformance`: runs the official MCP conformance suite (0.1.16 and 0.2.0-alpha.12, on
 * Node 22) against our "everything" server (server leg) and our conformance client (client leg),
 * scores every scenario from the suite's checks.json files, applies conformance-baseline.json,
 * prints a per-scenario table and ends with `conformance: N passed, M failed`.
 * Exit status: 0 when nothing unexpected happened, 1 on an unexpected failure or a stale baseline
 * entry, 2 when the harness itself could not run.
 *
 * Options: --leg server|client   --suite 0.1.16|alpha.12   --server-url URL (use a running server)
 *          --baseline FILE   --keep (keep the result folders)   --time-limit SECONDS (overall)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { background, freePort, killAll, run, waitForPort, type RunResult } from "./procs.js";
import {
  announcedScenarios,
  applyBaseline,
  collectResults,
  formatDetails,
  formatTable,
  parseBaseline,
  parseRequirementsList,
  summaryLine,
  type BaselineEntry,
  type Cell,
  type Leg,
} from "./score.js";
import {
  checkSuite,
  clientColumns,
  clientRuns,
  node22,
  serverColumns,
  serverRuns,
  suites,
  type ClientRun,
  type ServerRun,
  type Suite,
} from "./suites.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const SERVER_START_MS = 30_000;
const SERVER_RUN_MS = 120_000;
const CLIENT_SCENARIO_MS = 60_000;
const CLIENT_SUITE_TIMEOUT_MS = 30_000;
const CLIENT_ENTRY = join(root, "dist", "examples", "conformance-client", "main.js");

interface Options {
  legs: Leg[];
  suiteIds: string[] | undefined;
  serverUrl: string | undefined;
  baseline: string;
  keep: boolean;
  timeLimitMs: number;
}

function usage(msg: string): never {
  process.stderr.write(
    `conformance: ${msg}\nusage: node dist/test/conformance/run.js [--leg server|client] [--suite 0.1.16|alpha.12] [--server-url URL] [--baseline FILE] [--keep] [--time-limit SECONDS]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    legs: [],
    suiteIds: undefined,
    serverUrl: undefined,
    baseline: join(root, "conformance-baseline.json"),
    keep: false,
    timeLimitMs: 600_000,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const val = (): string => argv[++i] ?? usage(`${a} needs a value`);
    if (a === "--leg") {
      const v = val();
      if (v !== "server" && v !== "client") usage(`--leg must be server or client, got ${v}`);
      o.legs.push(v);
    } else if (a === "--suite") (o.suiteIds ??= []).push(val());
    else if (a === "--server-url") o.serverUrl = val();
    else if (a === "--baseline") o.baseline = val();
    else if (a === "--keep") o.keep = true;
    else if (a === "--time-limit") {
      const s = Number(val());
      if (!(s > 0)) usage("--time-limit needs a positive number of seconds");
      o.timeLimitMs = s * 1000;
    } else usage(`unknown argument ${a}`);
  }
  if (o.legs.length === 0) o.legs = ["server", "client"];
  return o;
}

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  for (const k of Object.keys(env)) if (k.startsWith("MCP_CONFORMANCE_")) delete env[k];
  return env;
}

class Runner {
  readonly cells: Cell[] = [];
  readonly deadline: number;
  private seq = 0;
  constructor(
    readonly o: Options,
    readonly tmp: string,
    readonly node: string,
  ) {
    this.deadline = Date.now() + o.timeLimitMs;
  }

  remaining(): number {
    return this.deadline - Date.now();
  }

  outDir(tag: string): string {
    return join(this.tmp, `${String(++this.seq).padStart(2, "0")}-${tag.replace(/[^A-Za-z0-9.-]+/g, "_")}`);
  }

  suiteCli(
    s: Suite,
    args: string[],
    outDir: string,
    timeoutMs: number,
    onLine?: (l: string) => void,
  ): Promise<RunResult> {
    return run(this.node, [s.cli, ...args, "-o", outDir], {
      cwd: this.tmp,
      env: cleanEnv(),
      timeoutMs,
      logFile: `${outDir}.log`,
      onLine,
    });
  }

  /** The scenarios a server invocation selects, learned from the suite by running it against a closed port. */
  async enumerateServer(r: ServerRun, deadUrl: string): Promise<string[]> {
    const dir = this.outDir(`enum-${r.column}`);
    const res = await this.suiteCli(r.suite, ["server", "--url", deadUrl, ...r.args], dir, 60_000);
    const names = announcedScenarios(res.output).names;
    for (const s of collectResults(dir, "server").keys()) if (!names.includes(s)) names.push(s);
    return names;
  }

  async notScored(r: ServerRun): Promise<Set<string>> {
    if (!r.requirements) return new Set();
    const res = await run(this.node, [r.suite.cli, "list", "--requirements", r.requirements], {
      cwd: this.tmp,
      env: cleanEnv(),
      timeoutMs: 30_000,
    });
    const set = parseRequirementsList(res.output);
    return new Set(set.notScored.filter((n) => n.leg === "server").map((n) => n.scenario));
  }

  /** Start `npm run everything -- --port P`; undefined URL and a reason when it is not available. */
  async startServer(tag: string): Promise<{
    url?: string;
    reason?: string;
    stop: () => Promise<string | undefined>;
    exited: () => string | undefined;
  }> {
    const none = { stop: async () => undefined, exited: () => undefined };
    if (this.o.serverUrl) return { ...none, url: this.o.serverUrl };
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts?: Record<string, string> };
    if (!pkg.scripts?.everything)
      return { ...none, reason: 'server not available: package.json has no "everything" script' };
    const port = await freePort();
    const npmCli = process.env.npm_execpath;
    const [cmd, pre] = npmCli?.endsWith("npm-cli.js") ? [process.execPath, [npmCli]] : ["npm", []];
    const srv = background(cmd, [...pre, "run", "--silent", "everything", "--", "--port", String(port)], {
      cwd: root,
      env: { ...cleanEnv(), npm_config_update_notifier: "false" },
      logFile: `${this.outDir(`server-${tag}`)}.log`,
    });
    const notReady = await waitForPort(port, Math.min(SERVER_START_MS, Math.max(1000, this.remaining())), srv.exited);
    if (notReady !== undefined) {
      await srv.stop(2000);
      const tail = srv.tail().trim().split(/\r?\n/).slice(-3).join(" | ");
      return {
        ...none,
        reason: `server not available: npm run everything -- --port ${port}: ${notReady}${tail ? ` (${tail})` : ""}`,
      };
    }
    return {
      url: `http://localhost:${port}/mcp`,
      exited: srv.exited,
      stop: async () => {
        const s = await srv.stop(5000);
        return s.clean ? undefined : `server ${s.how}`;
      },
    };
  }

  async serverRun(r: ServerRun): Promise<void> {
    const tag = `${r.column} ${r.label}`;
    const deadUrl = `http://localhost:${await freePort()}/mcp`;
    if (this.remaining() <= 0) {
      for (const s of await this.enumerateServer(r, deadUrl))
        this.fail("server", r.column, s, "not run: overall time limit reached");
      return;
    }
    const server = await this.startServer(r.column);
    const outDir = this.outDir(`server-${r.column}`);
    let current: string | undefined;
    const res = await this.suiteCli(
      r.suite,
      ["server", "--url", server.url ?? deadUrl, ...r.args],
      outDir,
      Math.min(SERVER_RUN_MS, this.remaining()),
      (l) => {
        const m = /^=== Running scenario: (\S+) ===$/.exec(l);
        if (m) current = m[1];
      },
    );
    const died = server.exited();
    const stopIssue = await server.stop();
    const results = collectResults(outDir, "server");
    const announced = announcedScenarios(res.output);
    let names = announced.names;
    if (res.timedOut || announced.total === undefined || names.length < announced.total) {
      names = [...new Set([...names, ...(await this.enumerateServer(r, deadUrl))])];
    }
    for (const s of results.keys()) if (!names.includes(s)) names.push(s);
    const notScored = await this.notScored(r);
    for (const s of names) {
      const got = results.get(s);
      let pass = !!got?.verdict.pass;
      let reason = got?.verdict.reason;
      const skipped = r.noSkipped ? (got?.checks ?? []).filter((c) => c.status === "SKIPPED") : [];
      if (pass && skipped.length > 0)
        [pass, reason] = [
          false,
          `${skipped.length} check(s) skipped (${skipped.map((c) => c.id).join(", ")}): nothing was checked there`,
        ];
      if (server.reason) [pass, reason] = [false, server.reason];
      else if (!got) {
        reason = res.timedOut
          ? `no result: suite run stopped after ${secs(res.ms)} (time limit; it was running ${current ?? "?"})`
          : `no checks.json written (suite exited with ${res.code ?? res.signal})`;
      }
      if (!pass && died) reason = `${reason} [our server ${died} during the run]`;
      this.cells.push({ leg: "server", column: r.column, scenario: s, pass, reason, scored: !notScored.has(s) });
    }
    if (stopIssue) say(`  note: ${stopIssue}`);
    const ok = names.filter((s) => results.get(s)?.verdict.pass && !server.reason).length;
    say(`server ${tag}: ${ok}/${names.length} passed in ${secs(res.ms)}${server.reason ? ` (${server.reason})` : ""}`);
  }

  fail(leg: Leg, column: string, scenario: string, reason: string): void {
    this.cells.push({ leg, column, scenario, pass: false, reason, scored: true });
  }

  /** Scenario names of one client suite (`core`, `backcompat`, …), learned from the suite itself. */
  async clientSuite(s: Suite, suite: string): Promise<string[]> {
    const dir = this.outDir(`enum-client-${s.id}-${suite}`);
    const res = await this.suiteCli(
      s,
      ["client", "--command", "true", "--suite", suite, "--timeout", "5000"],
      dir,
      60_000,
    );
    const names = announcedScenarios(res.output).names;
    for (const n of collectResults(dir, "client").keys()) if (!names.includes(n)) names.push(n);
    return names;
  }

  /** The scored client scenarios of a requirement set (auth included), as the suite lists them. */
  async requiredClientScenarios(s: Suite, revision: string): Promise<string[]> {
    const res = await run(this.node, [s.cli, "list", "--requirements", revision], {
      cwd: this.tmp,
      env: cleanEnv(),
      timeoutMs: 30_000,
    });
    return parseRequirementsList(res.output).scored.client;
  }

  /** A client run's scenarios: its suites' or requirement set's, then the extension scenarios it adds. */
  async clientScenarios(r: ClientRun): Promise<string[]> {
    const listed: string[] = [];
    if (r.select.kind === "suites") {
      for (const name of r.select.suites) listed.push(...(await this.clientSuite(r.suite, name)));
      if (r.select.draftAuth)
        listed.push(...(await this.clientSuite(r.suite, "draft")).filter((n) => n.startsWith("auth/")));
    } else listed.push(...(await this.requiredClientScenarios(r.suite, r.select.revision)));
    return [...new Set([...listed, ...r.extensions])];
  }

  async clientLeg(r: ClientRun): Promise<void> {
    const s = r.suite;
    const scenarios = await this.clientScenarios(r);
    if (scenarios.length === 0)
      throw new Error(`conformance ${s.pinned}: could not learn the client scenarios (${r.label}) from the suite`);
    const built = existsSync(CLIENT_ENTRY);
    const command = `${process.execPath} ${CLIENT_ENTRY}`;
    if (/\s/.test(process.execPath) || /\s/.test(CLIENT_ENTRY)) {
      throw new Error(`the suite splits --command on spaces; these paths contain one: ${command}`);
    }
    const wire = r.specVersion === undefined ? [] : ["--spec-version", r.specVersion];
    let ok = 0;
    const started = Date.now();
    for (const scenario of scenarios) {
      if (!built) {
        this.fail("client", r.column, scenario, `client not built: ${CLIENT_ENTRY} missing (npm run build)`);
        continue;
      }
      if (this.remaining() <= 0) {
        this.fail("client", r.column, scenario, "not run: overall time limit reached");
        continue;
      }
      const outDir = this.outDir(`client-${r.column}-${scenario}`);
      const res = await this.suiteCli(
        s,
        ["client", "--command", command, "--scenario", scenario, ...wire, "--timeout", String(CLIENT_SUITE_TIMEOUT_MS)],
        outDir,
        Math.min(CLIENT_SCENARIO_MS, this.remaining()),
      );
      const got = collectResults(outDir, "client").get(scenario);
      const pass = !!got?.verdict.pass && res.code === 0;
      let reason = got?.verdict.reason;
      if (!got)
        reason = res.timedOut
          ? `no result: suite killed after ${secs(res.ms)}`
          : `no checks.json written (suite exited with ${res.code ?? res.signal})`;
      else if (got.verdict.pass && res.code !== 0) {
        const exit = /CLIENT EXITED WITH ERROR \(([^)]*)\)/.exec(res.output);
        reason = exit ? `our client exited with an error (${exit[1]})` : `suite exited with ${res.code ?? res.signal}`;
      }
      if (!pass && got) {
        const errFile = join(got.dir, "stderr.txt");
        const tail = existsSync(errFile)
          ? readFileSync(errFile, "utf8").trim().split(/\r?\n/).slice(-2).join(" | ")
          : "";
        if (tail) reason = `${reason} [client stderr: ${tail.slice(0, 300)}]`;
      }
      if (pass) ok++;
      this.cells.push({ leg: "client", column: r.column, scenario, pass, reason, scored: true });
    }
    say(
      `client ${r.column} (${r.label}, one --scenario run each): ${ok}/${scenarios.length} passed in ${secs(Date.now() - started)}`,
    );
  }
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  const all = suites(root).filter((s) => !o.suiteIds || o.suiteIds.includes(s.id));
  if (o.suiteIds)
    for (const id of o.suiteIds)
      if (!all.some((s) => s.id === id))
        usage(
          `unknown --suite ${id} (known: ${suites(root)
            .map((s) => s.id)
            .join(", ")})`,
        );
  for (const s of all) checkSuite(s);
  const node = node22(root);
  const columns: Record<Leg, string[]> = {
    server: o.legs.includes("server") ? serverColumns(all) : [],
    client: o.legs.includes("client") ? clientColumns(all) : [],
  };
  let baseline: BaselineEntry[] = [];
  if (existsSync(o.baseline)) {
    baseline = parseBaseline(readFileSync(o.baseline, "utf8"), o.baseline, {
      server: serverColumns(suites(root)),
      client: clientColumns(suites(root)),
    });
  } else if (o.baseline !== join(root, "conformance-baseline.json"))
    throw new Error(`${o.baseline}: baseline file not found`);

  const tmp = mkdtempSync(join(tmpdir(), "mcpgen-conformance-"));
  const cleanup = (): void => {
    killAll();
    if (!o.keep) rmSync(tmp, { recursive: true, force: true });
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      cleanup();
      process.exit(130);
    });
  }
  const r = new Runner(o, tmp, node);
  try {
    say(`conformance suites: ${all.map((s) => s.pinned).join(", ")} on ${node}`);
    if (o.legs.includes("server")) for (const sr of serverRuns(all)) await r.serverRun(sr);
    if (o.legs.includes("client")) for (const cr of clientRuns(all)) await r.clientLeg(cr);
  } finally {
    cleanup();
  }
  const scored = applyBaseline(r.cells, baseline, columns);
  say("");
  say(formatTable(scored, columns));
  const details = formatDetails(scored);
  if (details) say(`${details}\n`);
  if (o.keep) say(`results kept in ${tmp}`);
  say(
    `expected failures (baseline): ${scored.expected}, unexpected failures: ${scored.unexpected}, stale baseline entries: ${scored.stale.length}`,
  );
  say(summaryLine(scored));
  return scored.unexpected > 0 || scored.stale.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    killAll();
    process.stderr.write(`conformance: ${e instanceof Error ? e.message : String(e)}\n`);
    process.stdout.write("conformance: 0 passed, 1 failed\n");
    process.exitCode = 2;
  },
);
