/**
 * The readable reports of `mcpgen diff` (the `--json` form is the ProtocolDiff object itself):
 * the protocol changes, or with `--manifest` the answer for one server.
 */
import type { FieldChange, MethodFacts, ProtocolDiff } from "./protocol.js";
import type { Verdict } from "./verdict.js";

const arrow = (from: string) => (from === "client" ? "C->S" : from === "server" ? "S->C" : "both");

function method(m: MethodFacts): string {
  const gate = m.capability ? `, gate ${m.capability}` : "";
  return `${m.method} (${m.kind}, ${arrow(m.from)}${gate})`;
}

function field(f: FieldChange): string {
  const name = f.field === "" ? "(the type itself)" : f.field;
  switch (f.change) {
    case "added":
      return `+ ${name}${f.required ? " (required)" : ""}`;
    case "removed":
      return `- ${name}`;
    case "required":
      return `~ ${name}: optional -> required`;
    case "optional":
      return `~ ${name}: required -> optional`;
    default:
      return `~ ${name}: ${f.change} (${f.before} -> ${f.after})`;
  }
}

export function renderDiff(diff: ProtocolDiff): string {
  const lines: string[] = [`Protocol changes ${diff.from} -> ${diff.to}`, ""];
  const section = (title: string, rows: string[]) => {
    lines.push(`${title} (${rows.length})`);
    lines.push(...(rows.length ? rows.map((r) => `  ${r}`) : ["  none"]));
    lines.push("");
  };
  const m = diff.methods;
  section("Methods added", m.added.map(method));
  section("Methods removed", m.removed.map(method));
  section(
    "Methods renamed",
    m.renamed.map((r) => `${r.from} -> ${r.to} (same ${r.via})`),
  );
  section(
    "Methods changed",
    m.changed.map((c) => {
      const show = (v: string | null) => (v === null ? "none" : c.what === "direction" ? arrow(v) : v);
      return `${c.method}: ${c.what} ${show(c.before)} -> ${show(c.after)}`;
    }),
  );
  section(
    "Capabilities",
    diff.capabilities.fields.map((c) => `${c.change === "added" ? "+" : "-"} ${c.side} ${c.path}`),
  );
  section(
    "Capability gates",
    diff.capabilities.gates.map((g) => `${g.method}: ${g.before ?? "none"} -> ${g.after ?? "none"}`),
  );
  section("Types added", diff.types.added);
  section("Types removed", diff.types.removed);
  lines.push(`Types changed (${diff.types.changed.length})`);
  for (const t of diff.types.changed) {
    lines.push(`  ${t.type}`);
    for (const f of t.fields) lines.push(`    ${field(f)}`);
    for (const a of t.members?.added ?? []) lines.push(`    + | ${a}`);
    for (const r of t.members?.removed ?? []) lines.push(`    - | ${r}`);
  }
  if (diff.types.changed.length === 0) lines.push("  none");
  return lines.join("\n").trimEnd() + "\n";
}

/** `diff --manifest`: the verdict first, one line per distinct change, what the runtime handles last. */
export function renderVerdict(v: Verdict): string {
  const lines = [v.summary];
  if (v.changes.length) lines.push("", `To change (${v.changes.length}):`, ...v.changes.map((c) => `  ${c.message}`));
  if (v.handledSummary) lines.push("", v.handledSummary);
  return lines.join("\n") + "\n";
}
