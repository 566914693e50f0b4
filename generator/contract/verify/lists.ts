/**
 * `verify`: the served lists against the manifest's. Entries are matched by what clients
 * address them by (tool, prompt and template names, resource URIs); for matched entries the
 * fields clients compile against must agree: tool schemas accept the same values (compared
 * semantically, schema-equivalence.ts), prompt arguments, resource MIME types and URI templates are
 * equal. Prose (titles, descriptions, schema annotations) is only noted.
 */
import type { McpClient } from "@mcpgen/runtime";
import type { Manifest } from "../../load/manifest-format.js";
import type { SkillModel } from "../../load/skills.js";
import { isPlainObject } from "../../json-schema/walk.js";
import { canonicalJson, compareSchemas } from "../schema-equivalence.js";
import type { Check } from "./report.js";

type Entry = { [key: string]: unknown };

/** First JSON pointer where two JSON values differ ("" = the values themselves). */
function firstDifference(a: unknown, b: unknown, at = ""): string | null {
  if (canonicalJson(a) === canonicalJson(b)) return null;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[k], b[k], `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      if (d !== null) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${at}/${i}`);
      if (d !== null) return d;
    }
  }
  return at;
}

interface Section {
  kind: "tools" | "prompts" | "resources" | "resourceTemplates";
  key: string;
  /** Fields that must be equal (wire contract); other differences are notes. */
  strict: string[];
  /** Of those, the JSON Schemas (equal when they accept the same values). */
  schemas?: string[];
  list(client: McpClient): Promise<unknown[]>;
}

const SECTIONS: Section[] = [
  {
    kind: "tools",
    key: "name",
    strict: ["inputSchema", "outputSchema"],
    schemas: ["inputSchema", "outputSchema"],
    list: (c) => c.listTools(),
  },
  { kind: "prompts", key: "name", strict: ["arguments"], list: (c) => c.listPrompts() },
  { kind: "resources", key: "uri", strict: ["mimeType"], list: (c) => c.listResources() },
  { kind: "resourceTemplates", key: "name", strict: ["uriTemplate"], list: (c) => c.listResourceTemplates() },
];

const CAPABILITY: Record<Section["kind"], "tools" | "prompts" | "resources"> = {
  tools: "tools",
  prompts: "prompts",
  resources: "resources",
  resourceTemplates: "resources",
};

/** Checks every list; returns the served tools (for the example calls). `skills`: the manifest's, whose SKILL.md files resources/list lists too. */
export async function checkLists(
  client: McpClient,
  manifest: Manifest,
  checks: Check[],
  skills: readonly SkillModel[] = [],
): Promise<Map<string, Entry>> {
  let servedTools = new Map<string, Entry>();
  const caps = client.serverCapabilities as { [key: string]: unknown };
  for (const s of SECTIONS) {
    const declared = ((manifest[s.kind] ?? []) as Entry[]).map((e, i) => ({ e, pointer: `/${s.kind}/${i}` }));
    if (s.kind === "resources")
      for (const k of skills)
        declared.push({
          e: {
            uri: k.uri,
            name: k.frontmatter.name,
            description: k.frontmatter.description,
            mimeType: "text/markdown",
          },
          pointer: k.pointer,
        });
    let served: Entry[] = [];
    if (caps[CAPABILITY[s.kind]]) {
      try {
        served = (await s.list(client)) as Entry[];
        checks.push({
          check: `${s.kind}/list`,
          status: "pass",
          message: `${served.length} listed (pagination followed to the end)`,
        });
      } catch (e) {
        checks.push({
          check: `${s.kind}/list`,
          status: "fail",
          message: `listing failed: ${e instanceof Error ? e.message : String(e)}`,
        });
        continue;
      }
    } else if (declared.length) {
      checks.push({
        check: `${s.kind}/list`,
        status: "fail",
        message: `the manifest declares ${declared.length} but the server does not announce the ${CAPABILITY[s.kind]} capability`,
      });
      continue;
    }
    const byKey = new Map<string, Entry>();
    for (const e of served) {
      const k = String(e[s.key]);
      if (byKey.has(k))
        checks.push({
          check: `${s.kind}/list`,
          status: "fail",
          message: `${JSON.stringify(k)} listed twice (pagination repeats entries?)`,
        });
      byKey.set(k, e);
    }
    if (s.kind === "tools") servedTools = byKey;
    const declaredKeys = new Set(declared.map((d) => String(d.e[s.key])));
    for (const { e, pointer } of declared) {
      const k = String(e[s.key]);
      const live = byKey.get(k);
      const what = `${s.kind}/${k}`;
      if (!live) {
        checks.push({ check: what, status: "fail", message: `declared at ${pointer} but not served` });
        continue;
      }
      const problems: string[] = [];
      const prose = ["title", "description"].filter((f) => firstDifference(e[f], live[f]) !== null);
      for (const f of s.strict) {
        if (s.schemas?.includes(f)) {
          const r = schemaAgreement(e[f], live[f], `${pointer}/${f}`);
          if (r.problem) problems.push(`${f} ${r.problem}`);
          prose.push(...r.notes.map((n) => `${f} ${n}`));
          continue;
        }
        const d = firstDifference(e[f], live[f]);
        if (d !== null)
          problems.push(
            `${f} differs at ${pointer}/${f}${d} (manifest ${clip(atPointer(e[f], d))}, served ${clip(atPointer(live[f], d))})`,
          );
      }
      if (problems.length) checks.push({ check: what, status: "fail", message: problems.join("; ") });
      else
        checks.push({
          check: what,
          status: "pass",
          message: prose.length ? `matches (note: ${prose.join(", ")} differ)` : "matches",
        });
    }
    for (const k of byKey.keys())
      if (!declaredKeys.has(k))
        checks.push({ check: `${s.kind}/${k}`, status: "fail", message: "served but not in the manifest" });
  }
  return servedTools;
}

/** A declared schema against the served one: a problem when they accept different values; annotation differences as notes. */
function schemaAgreement(declared: unknown, served: unknown, at: string): { problem?: string; notes: string[] } {
  if (declared === undefined || served === undefined) {
    return declared === served
      ? { notes: [] }
      : { problem: `differs at ${at} (manifest ${clip(declared)}, served ${clip(served)})`, notes: [] };
  }
  const c = compareSchemas(declared, served);
  const notes = c.annotations.length ? [`annotations (${shortList(c.annotations.map((p) => at + p))})`] : [];
  if (c.difference === null) return { notes };
  const d = c.difference;
  const undecided = c.undecided ? ` (not compared by meaning: ${c.undecided}; the texts differ)` : "";
  return {
    problem: `differs at ${at}${d.pointer} (manifest ${clip(d.first)}, served ${clip(d.second)})${undecided}`,
    notes,
  };
}

function shortList(items: string[], shown = 3): string {
  return items.length <= shown
    ? items.join(", ")
    : `${items.slice(0, shown).join(", ")} and ${items.length - shown} more`;
}

function atPointer(v: unknown, pointer: string): unknown {
  let cur = v;
  for (const raw of pointer.split("/").slice(1)) {
    const t = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    cur = Array.isArray(cur) ? cur[Number(t)] : isPlainObject(cur) ? cur[t] : undefined;
  }
  return cur;
}

const MAX_SHOWN = 80;
function clip(v: unknown): string {
  const s = v === undefined ? "absent" : JSON.stringify(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 3)}...` : s;
}
