/**
 * `mcpgen breaking --against <file | git-ref:path>`: like `buf breaking`, for an MCP server's
 * manifest. Structural checks locate each change (structural.ts); type-level ones stand only
 * when the TypeScript checker says the types users compile against are incompatible
 * (checker.ts); the config's `breaking.ignore` entries silence a rule for one entry, with a reason.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { McpgenError } from "../../errors.js";
import { checkAssignability, type CheckVerdict } from "./checker.js";
import { readAgainst, readBreakingConfig, readManifestModel, type IgnoreEntry } from "./inputs.js";
import { RULES, type Finding } from "./rules.js";
import { structuralFindings } from "./structural.js";

export { RULES, type Finding } from "./rules.js";

export interface BreakingOptions {
  against: string;
  /** Warnings (a changed default, a tool turning destructive, ...) fail too. */
  strict?: boolean;
  /** Current manifest (default: the config's `manifest`, else mcp.manifest.json). */
  manifest?: string;
  config?: string;
  cwd?: string;
}

export interface BreakingResult {
  /** A finding that is not ignored and breaks (under `strict`, any finding not ignored). */
  breaking: boolean;
  findings: Finding[];
  /** Ignore entries that matched nothing (stale config). */
  unusedIgnores: IgnoreEntry[];
  text: string;
  json: string;
}

export async function runBreaking(options: BreakingOptions): Promise<BreakingResult> {
  const cwd = options.cwd ?? process.cwd();
  const config = readBreakingConfig(cwd, options.config);
  const current = options.manifest ?? config.manifest ?? "mcp.manifest.json";
  const currentPath = resolve(cwd, current);
  if (!existsSync(currentPath))
    throw new McpgenError("manifest not found", {
      file: current,
      expected: "--manifest <file> or a mcp.manifest.json in the current directory",
    });
  const old = readAgainst(options.against, cwd);
  const a = readManifestModel(old.text, old.display);
  const b = readManifestModel(readFileSync(currentPath, "utf8"), current);

  const located = structuralFindings(a, b);
  const verdicts = checkAssignability(a, b);
  const verdictOf = (entry: string, direction: string): CheckVerdict | undefined =>
    verdicts.find((v) => v.entry === entry && v.direction === direction);

  const findings: Finding[] = [];
  for (const f of located) {
    const { check, ...finding } = f;
    if (RULES[f.rule].typeLevel && check) {
      const v = verdictOf(f.entry, check);
      // The structural reading saw a change the types do not: the checker decides.
      if (v?.assignable) continue;
    }
    findings.push({ ...finding, severity: RULES[f.rule].severity });
  }
  for (const v of verdicts) {
    if (v.assignable || v.direction === "args") continue;
    if (located.some((f) => f.entry === v.entry && f.check === v.direction)) continue;
    const ta = a.tools.find((t) => `tools/${t.name}` === v.entry)!;
    const tb = b.tools.find((t) => `tools/${t.name}` === v.entry)!;
    const role = v.direction === "input" ? "inputSchema" : "outputSchema";
    findings.push({
      rule: v.direction === "input" ? "TOOL_INPUT_INCOMPATIBLE" : "TOOL_OUTPUT_INCOMPATIBLE",
      severity: "breaking",
      entry: v.entry,
      message: `${v.entry} ${v.direction}: ${v.direction === "input" ? "old input not assignable to the new input" : "new output not assignable to the old output"}: ${v.why}`,
      old: `${ta.pointer}/${role}`,
      new: `${tb.pointer}/${role}`,
    });
  }

  const used = new Set<IgnoreEntry>();
  for (const f of findings) {
    const hit = config.ignore.find((i) => i.rule === f.rule && (i.entry === f.entry || i.entry === "*"));
    if (hit) {
      f.ignored = hit.reason;
      used.add(hit);
    }
  }
  findings.sort((x, y) =>
    x.entry < y.entry ? -1 : x.entry > y.entry ? 1 : x.rule < y.rule ? -1 : x.rule > y.rule ? 1 : 0,
  );
  const unusedIgnores = config.ignore.filter((i) => !used.has(i));
  const strict = options.strict === true;
  const breaking = findings.some((f) => f.ignored === undefined && (strict || f.severity === "breaking"));
  const summary = { against: old.display, manifest: current, strict, breaking, findings, unusedIgnores };
  return { breaking, findings, unusedIgnores, text: render(summary), json: JSON.stringify(summary, null, 2) + "\n" };
}

function render(s: {
  against: string;
  manifest: string;
  strict: boolean;
  breaking: boolean;
  findings: Finding[];
  unusedIgnores: IgnoreEntry[];
}): string {
  const lines: string[] = [];
  const live = s.findings.filter((f) => f.ignored === undefined && f.severity === "breaking");
  const warnings = s.findings.filter((f) => f.ignored === undefined && f.severity === "warning");
  for (const f of s.findings) {
    const label =
      f.ignored !== undefined
        ? "ignored "
        : f.severity === "breaking"
          ? "BREAKING"
          : s.strict
            ? "WARNING "
            : "warning ";
    lines.push(`${label} ${f.rule}: ${f.message}`);
    lines.push(`  old ${s.against}${f.old === null ? " (absent)" : `#${f.old}`}`);
    lines.push(`  new ${s.manifest}${f.new === null ? " (absent)" : `#${f.new}`}`);
    if (f.ignored !== undefined) lines.push(`  ignored: ${f.ignored}`);
  }
  for (const i of s.unusedIgnores) lines.push(`note: breaking.ignore entry ${i.rule} ${i.entry} matched nothing`);
  const ignored = s.findings.length - live.length - warnings.length;
  const notes = [
    ...(warnings.length
      ? [`${warnings.length} warning(s)${s.strict ? ", failing under --strict" : "; --strict fails on them"}`]
      : []),
    ...(ignored ? [`${ignored} ignored`] : []),
  ];
  lines.push(
    (live.length === 0
      ? `no breaking changes against ${s.against}`
      : `${live.length} breaking change(s) against ${s.against}`) + (notes.length ? ` (${notes.join("; ")})` : ""),
  );
  return lines.join("\n") + "\n";
}
