/**
 * Scoring of conformance-suite results, kept free of processes and timing so it can be unit tested
 * on synthetic result trees. The verdict rules are the suite's own (conformance-requirements §0):
 * a server scenario passes when none of its checks is a FAILURE; a client scenario passes when
 * none is a FAILURE or a WARNING. We are stricter in one place: a scenario that recorded no check
 * at all fails, because the suite's vacuous pass (e.g. `initialize` when the client never
 * connected) says nothing about our code.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

export type Leg = "server" | "client";
export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";

export interface Check {
  id: string;
  status: CheckStatus | string;
  errorMessage?: string;
  description?: string;
}

export interface Verdict {
  pass: boolean;
  /** Why it failed (check ids and messages), undefined on a pass. */
  reason?: string;
}

const ONE_LINE_MAX = 240;

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > ONE_LINE_MAX ? `${flat.slice(0, ONE_LINE_MAX - 1)}…` : flat;
}

/** The suite's verdict on one scenario's checks. */
export function verdict(checks: readonly Check[], leg: Leg): Verdict {
  if (checks.length === 0) return { pass: false, reason: "no checks recorded" };
  const bad = checks.filter((c) => c.status === "FAILURE" || (leg === "client" && c.status === "WARNING"));
  if (bad.length === 0) return { pass: true };
  const parts = bad.map((c) => `${c.status} ${c.id}${c.errorMessage ? `: ${oneLine(c.errorMessage)}` : ""}`);
  return { pass: false, reason: parts.join("; ") };
}

/** Parse one checks.json; a malformed file is a failure of that scenario, never a crash. */
export function readChecks(file: string): { checks: Check[] } | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return { error: `${file}: not readable JSON (${(e as Error).message})` };
  }
  if (!Array.isArray(data)) return { error: `${file}: expected a JSON array of checks` };
  const checks: Check[] = [];
  for (const [i, c] of data.entries()) {
    if (
      c === null ||
      typeof c !== "object" ||
      typeof (c as Check).id !== "string" ||
      typeof (c as Check).status !== "string"
    ) {
      return { error: `${file}: /${i} is not a check (needs string "id" and "status")` };
    }
    checks.push(c as Check);
  }
  return { checks };
}

// Result folders end in the ISO time the scenario started, with ':' and '.' replaced by '-'.
const TIMESTAMP_SUFFIX = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Scenario name of a result folder (path relative to the output dir, '/'-separated):
 * server leg `server-<scenario>-<ts>`, client leg `<scenario>-<ts>` where `auth/x` is a sub-folder.
 */
export function scenarioFromDir(relDir: string, leg: Leg): string | undefined {
  const m = TIMESTAMP_SUFFIX.exec(relDir);
  if (!m) return undefined;
  const name = relDir.slice(0, m.index);
  if (leg === "server")
    return name.startsWith("server-") && !name.includes("/") ? name.slice("server-".length) : undefined;
  return name;
}

export interface ScenarioResult {
  scenario: string;
  dir: string;
  verdict: Verdict;
  checks: Check[];
}

/** Every checks.json under `outDir`, by scenario; when a scenario ran twice the newest folder wins. */
export function collectResults(outDir: string, leg: Leg): Map<string, ScenarioResult> {
  const out = new Map<string, ScenarioResult>();
  if (!existsSync(outDir)) return out;
  const walk = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (!statSync(p).isDirectory()) continue;
      const file = join(p, "checks.json");
      const rel = relative(outDir, p).split(sep).join("/");
      const scenario = scenarioFromDir(rel, leg);
      if (scenario !== undefined && existsSync(file)) {
        const parsed = readChecks(file);
        const result: ScenarioResult =
          "error" in parsed
            ? { scenario, dir: p, checks: [], verdict: { pass: false, reason: parsed.error } }
            : { scenario, dir: p, checks: parsed.checks, verdict: verdict(parsed.checks, leg) };
        const prev = out.get(scenario);
        if (!prev || prev.dir < p) out.set(scenario, result);
      } else if (depth < 3) {
        walk(p, depth + 1);
      }
    }
  };
  walk(outDir, 0);
  return out;
}

// ---- suite console output

/** Scenario names in the order a server run announced them (`=== Running scenario: x ===`). */
export function announcedScenarios(output: string): { total: number | undefined; names: string[] } {
  const total = /\((\d+) scenarios?\)/.exec(output);
  const names: string[] = [];
  for (const m of output.matchAll(/^=== Running scenario: (\S+) ===$/gm)) if (!names.includes(m[1]!)) names.push(m[1]!);
  for (const m of output.matchAll(/^Starting scenario: (\S+)$/gm)) if (!names.includes(m[1]!)) names.push(m[1]!);
  return { total: total ? Number(total[1]) : undefined, names };
}

export interface RequirementSet {
  revision: string;
  scored: Record<Leg, string[]>;
  /** Run and reported by the suite but never scored (extension, pending, added after release). */
  notScored: { scenario: string; leg: Leg; why: string }[];
}

/** Parse `conformance list --requirements <rev>` (alpha.12 and later). */
export function parseRequirementsList(text: string): RequirementSet {
  const rev = /^Required for (\S+)/m.exec(text);
  if (!rev) throw new Error("conformance list --requirements: no 'Required for <revision>' header in its output");
  const set: RequirementSet = { revision: rev[1]!, scored: { server: [], client: [] }, notScored: [] };
  let section: "server" | "client" | "not-scored" | undefined;
  let why = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line.startsWith("Server scenarios")) section = "server";
    else if (line.startsWith("Client scenarios")) section = "client";
    else if (line.startsWith("Run and reported, but never scored")) section = "not-scored";
    else if (section === "not-scored" && /^\s{2}(\S.*?)\s*\(\d+\):$/.test(line))
      why = /^\s{2}(\S.*?)\s*\(\d+\):$/.exec(line)![1]!;
    else {
      const item = /^\s+- (\S+)(?: \[(server|client)\])?$/.exec(line);
      if (!item || section === undefined) continue;
      if (section === "not-scored")
        set.notScored.push({ scenario: item[1]!, leg: (item[2] as Leg | undefined) ?? "server", why });
      else set.scored[section].push(item[1]!);
    }
  }
  return set;
}

// ---- baseline

export interface BaselineEntry {
  key: string;
  leg: Leg;
  /** Column id the entry is limited to (e.g. "0.1.16"), or undefined for every column of the leg. */
  column?: string;
  scenario: string;
  reason: string;
}

/**
 * Baseline file: `{ "expectedFailures": { "<leg>[@<column>]/<scenario>": "<reason>" } }`.
 * Keys split at the first '/', so client auth scenarios read `client/auth/metadata-default`.
 */
export function parseBaseline(text: string, file: string, columns: Record<Leg, readonly string[]>): BaselineEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new Error(`${file}: expected a JSON object at /`);
  const ef = (data as Record<string, unknown>).expectedFailures;
  if (ef === undefined) return [];
  if (ef === null || typeof ef !== "object" || Array.isArray(ef)) {
    throw new Error(`${file}: /expectedFailures must be an object mapping "<leg>[@<column>]/<scenario>" to a reason`);
  }
  const entries: BaselineEntry[] = [];
  for (const [key, reason] of Object.entries(ef)) {
    const ptr = `/expectedFailures/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const m = /^(server|client)(?:@([^/]+))?\/(.+)$/.exec(key);
    if (!m) throw new Error(`${file}: ${ptr}: key must look like "server/<scenario>", "client@0.1.16/<scenario>"`);
    const leg = m[1] as Leg;
    const column = m[2];
    if (column !== undefined && !columns[leg].includes(column)) {
      throw new Error(`${file}: ${ptr}: unknown ${leg} column "${column}" (known: ${columns[leg].join(", ")})`);
    }
    if (typeof reason !== "string" || reason.trim() === "")
      throw new Error(`${file}: ${ptr}: the reason must be a non-empty string`);
    entries.push({ key, leg, column, scenario: m[3]!, reason });
  }
  return entries;
}

export interface Cell {
  leg: Leg;
  column: string;
  scenario: string;
  pass: boolean;
  reason?: string;
  /** False for scenarios the suite runs but does not score (alpha `--requirements` extras). */
  scored: boolean;
}

export type CellStatus = "pass" | "FAIL" | "xfail" | "XPASS" | "ns-pass" | "ns-fail";

export interface Scored {
  cells: (Cell & { status: CellStatus; baseline?: BaselineEntry })[];
  stale: { entry: BaselineEntry; why: string }[];
  passed: number;
  failed: number;
  expected: number;
  unexpected: number;
}

function matches(e: BaselineEntry, c: Cell): boolean {
  return e.leg === c.leg && e.scenario === c.scenario && (e.column === undefined || e.column === c.column);
}

/**
 * Apply the baseline. An entry is stale when every scored cell it covers passed, or when it
 * covers no cell at all although its leg (and column) ran. Entries for legs or columns that did
 * not run in this invocation are left alone.
 */
export function applyBaseline(
  cells: readonly Cell[],
  baseline: readonly BaselineEntry[],
  ran: Record<Leg, readonly string[]>,
): Scored {
  const out: Scored = { cells: [], stale: [], passed: 0, failed: 0, expected: 0, unexpected: 0 };
  for (const c of cells) {
    const entry = baseline.find((e) => matches(e, c));
    let status: CellStatus;
    if (!c.scored) status = c.pass ? "ns-pass" : "ns-fail";
    else if (c.pass) status = entry ? "XPASS" : "pass";
    else status = entry ? "xfail" : "FAIL";
    out.cells.push({ ...c, status, baseline: entry });
    if (!c.scored) continue;
    if (c.pass) out.passed++;
    else {
      out.failed++;
      if (entry) out.expected++;
      else out.unexpected++;
    }
  }
  for (const e of baseline) {
    const legRan = e.column === undefined ? ran[e.leg].length > 0 : ran[e.leg].includes(e.column);
    if (!legRan) continue;
    const covered = cells.filter((c) => c.scored && matches(e, c));
    if (covered.length === 0) out.stale.push({ entry: e, why: "no such scenario ran" });
    else if (covered.every((c) => c.pass)) out.stale.push({ entry: e, why: "now passes" });
  }
  return out;
}

// ---- report

const SYMBOL: Record<CellStatus, string> = {
  pass: "pass",
  FAIL: "FAIL",
  xfail: "xfail",
  XPASS: "XPASS",
  "ns-pass": "(pass)",
  "ns-fail": "(fail)",
};

/** Per-scenario table (rows: scenarios in first-seen order; columns: runs of that leg). */
export function formatTable(scored: Scored, columns: Record<Leg, readonly string[]>): string {
  const lines: string[] = [];
  for (const leg of ["server", "client"] as const) {
    const cols = columns[leg];
    const cells = scored.cells.filter((c) => c.leg === leg);
    if (cols.length === 0 || cells.length === 0) continue;
    const rows: string[] = [];
    for (const c of cells) if (!rows.includes(c.scenario)) rows.push(c.scenario);
    const w0 = Math.max(`${leg} leg`.length, ...rows.map((r) => r.length + 2));
    const widths = cols.map((c) => Math.max(c.length, 6));
    lines.push([`${leg} leg`.padEnd(w0), ...cols.map((c, i) => c.padEnd(widths[i]!))].join("  ").trimEnd());
    for (const r of rows) {
      const vals = cols.map((col, i) => {
        const cell = cells.find((c) => c.scenario === r && c.column === col);
        return (cell ? SYMBOL[cell.status] : "-").padEnd(widths[i]!);
      });
      lines.push([`  ${r}`.padEnd(w0), ...vals].join("  ").trimEnd());
    }
    lines.push("");
  }
  return lines.join("\n");
}

/**
 * One line per failing cell (cells of one leg and column failing for the same reason are folded
 * into one line, e.g. "server not available"), and one per stale baseline entry.
 */
export function formatDetails(scored: Scored): string {
  const groups = new Map<string, { head: string; names: string[]; tail: string }>();
  for (const c of scored.cells) {
    let head: string;
    let tail: string;
    if (c.status === "FAIL") [head, tail] = [`FAIL  ${c.leg} ${c.column}`, c.reason ?? "failed"];
    else if (c.status === "xfail")
      [head, tail] = [`xfail ${c.leg} ${c.column}`, `${c.baseline!.reason} [${c.reason ?? "failed"}]`];
    else if (c.status === "ns-fail") [head, tail] = [`(not scored) ${c.leg} ${c.column}`, c.reason ?? "failed"];
    else continue;
    const key = `${head}\0${tail}`;
    const g = groups.get(key) ?? { head, names: [], tail };
    g.names.push(c.scenario);
    groups.set(key, g);
  }
  const lines: string[] = [];
  for (const g of groups.values()) {
    const who =
      g.names.length <= 2
        ? g.names.join(", ")
        : `${g.names.length} scenarios (${g.names.slice(0, 3).join(", ")}${g.names.length > 3 ? ", …" : ""})`;
    lines.push(`${g.head} ${who}: ${g.tail}`);
  }
  for (const s of scored.stale) lines.push(`STALE baseline entry "${s.entry.key}": ${s.why}; remove it`);
  return lines.join("\n");
}

export function summaryLine(scored: Scored): string {
  return `conformance: ${scored.passed} passed, ${scored.failed} failed`;
}
