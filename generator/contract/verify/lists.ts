/**
 * `verify`: the served lists against the manifest's. Entries are matched by what clients
 * address them by (tool, prompt and template names, resource URIs); for matched entries the
 * fields clients compile against (schemas, prompt arguments, URI templates) must be equal, the
 * prose (titles, descriptions) only noted.
 */
import type { McpClient } from "@mcpgen/runtime";
import type { Manifest } from "../../load/manifest-format.js";
import { isPlainObject } from "../../load/schema-walk.js";
import type { Check } from "./report.js";

type Entry = { [key: string]: unknown };

const canon = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isPlainObject(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

/** First JSON pointer where two JSON values differ ("" = the values themselves). */
export function firstDifference(a: unknown, b: unknown, at = ""): string | null {
  if (canon(a) === canon(b)) return null;
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
  list(client: McpClient): Promise<unknown[]>;
}

const SECTIONS: Section[] = [
  { kind: "tools", key: "name", strict: ["inputSchema", "outputSchema"], list: (c) => c.listTools() },
  { kind: "prompts", key: "name", strict: ["arguments"], list: (c) => c.listPrompts() },
  { kind: "resources", key: "uri", strict: ["mimeType"], list: (c) => c.listResources() },
  { kind: "resourceTemplates", key: "name", strict: ["uriTemplate"], list: (c) => c.listResourceTemplates() },
];

const CAPABILITY: Record<Section["kind"], "tools" | "prompts" | "resources"> = { tools: "tools", prompts: "prompts", resources: "resources", resourceTemplates: "resources" };

/** Checks every list; returns the served tools (for the example calls). */
export async function checkLists(client: McpClient, manifest: Manifest, checks: Check[]): Promise<Map<string, Entry>> {
  let servedTools = new Map<string, Entry>();
  const caps = client.serverCapabilities as { [key: string]: unknown };
  for (const s of SECTIONS) {
    const declared = ((manifest[s.kind] ?? []) as Entry[]).map((e, i) => ({ e, pointer: `/${s.kind}/${i}` }));
    let served: Entry[] = [];
    if (caps[CAPABILITY[s.kind]]) {
      try {
        served = (await s.list(client)) as Entry[];
        checks.push({ check: `${s.kind}/list`, status: "pass", message: `${served.length} listed (pagination followed to the end)` });
      } catch (e) {
        checks.push({ check: `${s.kind}/list`, status: "fail", message: `listing failed: ${e instanceof Error ? e.message : String(e)}` });
        continue;
      }
    } else if (declared.length) {
      checks.push({ check: `${s.kind}/list`, status: "fail", message: `the manifest declares ${declared.length} but the server does not announce the ${CAPABILITY[s.kind]} capability` });
      continue;
    }
    const byKey = new Map<string, Entry>();
    for (const e of served) {
      const k = String(e[s.key]);
      if (byKey.has(k)) checks.push({ check: `${s.kind}/list`, status: "fail", message: `${JSON.stringify(k)} listed twice (pagination repeats entries?)` });
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
      const problems = s.strict.flatMap((f) => {
        const d = firstDifference(e[f], live[f]);
        return d === null ? [] : [`${f} differs at ${pointer}/${f}${d} (manifest ${clip(atPointer(e[f], d))}, served ${clip(atPointer(live[f], d))})`];
      });
      if (problems.length) checks.push({ check: what, status: "fail", message: problems.join("; ") });
      else {
        const prose = ["title", "description"].filter((f) => firstDifference(e[f], live[f]) !== null);
        checks.push({ check: what, status: "pass", message: prose.length ? `matches (note: ${prose.join(", ")} differ)` : "matches" });
      }
    }
    for (const k of byKey.keys()) if (!declaredKeys.has(k)) checks.push({ check: `${s.kind}/${k}`, status: "fail", message: "served but not in the manifest" });
  }
  return servedTools;
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
