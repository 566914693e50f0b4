/**
 * A server snapshot as an `mcp.manifest.json`: identity, revisions, the capabilities the
 * entries do not imply, and every entry exactly as the server published it, sorted so two
 * pulls of the same server give the same bytes. The text then goes through the manifest loader,
 * the same checks `generate` runs, in lenient mode (schemas captured from a server are what
 * `--lenient` exists for): schemas that are broken are kept verbatim, reported, and typed
 * `Record<string, unknown>` (the loader's fallback); a tool whose inputSchema is missing or not an
 * object is published with `{"type": "object"}` (any arguments) and reported; an entry the loader
 * still rejects outright is left out and reported, so what is written always generates with
 * `--lenient` (and without it when nothing was reported). What the listing noted (a list answered
 * -32601, an entry the client dropped, a defect the loader does not see) is reported too.
 */
import { InputError, type Diagnostic } from "../../load/diagnostics.js";
import { SKILLS_EXTENSION } from "../../model/build-server.js";
import { APPS_EXTENSION } from "../../load/apps.js";
import { parseManifest, type LoadedManifest } from "../../load/manifest.js";
import { KNOWN_REVISIONS } from "../../load/manifest-format.js";
import type { ListNote, ServerSnapshot } from "./snapshot.js";

const IDENTITY_KEYS = ["title", "description", "websiteUrl", "icons"] as const;
const SECTIONS = ["tools", "resources", "resourceTemplates", "prompts"] as const;
type Section = (typeof SECTIONS)[number];
/** Sort key of each section: what clients address entries by. */
const KEY: Record<Section, string> = { tools: "name", resources: "uri", resourceTemplates: "name", prompts: "name" };
/** Rejecting a pulled manifest more than this many times means the problems are not per entry. */
const MAX_REPAIRS = 3;

export interface PulledManifest {
  text: string;
  loaded: LoadedManifest;
  /** Everything worth telling the user: loader warnings and left-out entries. */
  problems: string[];
}

const isObj = (v: unknown): v is { [key: string]: unknown } => typeof v === "object" && v !== null && !Array.isArray(v);

function capabilities(caps: { [key: string]: unknown }): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  const flags = (v: unknown, names: string[]) => {
    const o: { [key: string]: boolean } = {};
    if (isObj(v)) for (const n of names) if (v[n] === true) o[n] = true;
    return o;
  };
  if (isObj(caps.logging)) out.logging = {};
  if (isObj(caps.completions)) out.completions = {};
  for (const [k, names] of [
    ["tools", ["listChanged"]],
    ["resources", ["subscribe", "listChanged"]],
    ["prompts", ["listChanged"]],
  ] as const) {
    const f = flags(caps[k], [...names]);
    if (Object.keys(f).length) out[k] = f;
  }
  for (const k of ["experimental", "extensions"])
    if (isObj(caps[k]) && Object.keys(caps[k] as object).length) out[k] = caps[k];
  // The extensions mcpgen implements are declared by what the manifest holds (skills, ui:// views),
  // never copied: a pulled manifest has no skills, and its views declare the Apps extension again.
  if (isObj(out.extensions)) {
    const { [SKILLS_EXTENSION]: _skills, [APPS_EXTENSION]: _apps, ...rest } = out.extensions;
    if (Object.keys(rest).length > 0) out.extensions = rest;
    else delete out.extensions;
  }
  return out;
}

function sortedBy(list: { [key: string]: unknown }[], key: string) {
  const k = (e: { [key: string]: unknown }) => (typeof e[key] === "string" ? (e[key] as string) : "");
  return [...list].sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}

export function snapshotToManifest(s: ServerSnapshot, display: string): PulledManifest {
  const manifest: { [key: string]: unknown } = {
    name: typeof s.serverInfo.name === "string" && s.serverInfo.name ? s.serverInfo.name : "unnamed-server",
    version: typeof s.serverInfo.version === "string" && s.serverInfo.version ? s.serverInfo.version : "0.0.0",
  };
  for (const k of IDENTITY_KEYS) if (s.serverInfo[k] !== undefined) manifest[k] = s.serverInfo[k];
  if (typeof s.instructions === "string" && s.instructions) manifest.instructions = s.instructions;
  manifest.revisions = s.revisions.filter((r) => (KNOWN_REVISIONS as readonly string[]).includes(r));
  const caps = capabilities(s.capabilities);
  if (Object.keys(caps).length) manifest.capabilities = caps;
  for (const section of SECTIONS) if (s[section].length) manifest[section] = sortedBy(s[section], KEY[section]);

  const notes = s.listNotes ?? [];
  // Lists the server did not answer and entries the client could not use: nothing else says so.
  const problems: string[] = notes.filter((n) => n.kept !== true).map((n) => n.message);
  /** Entries (section/name) that something below reports on its own. */
  const told = new Set<string>();
  repairInputSchemas(manifest, problems, told);
  for (let attempt = 0; ; attempt++) {
    const text = JSON.stringify(manifest, null, 2) + "\n";
    try {
      const loaded = parseManifest(text, display, { lenient: true });
      problems.push(...loaded.diagnostics.map((d) => `${d.pointer || "/"}: ${d.message}`));
      for (const d of loaded.diagnostics) told.add(entryKey(manifest, d.pointer));
      problems.push(...untold(notes, told));
      return { text, loaded, problems };
    } catch (e) {
      if (!(e instanceof InputError) || attempt >= MAX_REPAIRS) throw e;
      if (!dropRejected(manifest, e.diagnostics, problems, told)) throw e;
    }
  }
}

/** `section/name` of the entry a diagnostic points into ("" when none). */
function entryKey(manifest: { [key: string]: unknown }, pointer: string): string {
  const m = /^\/(tools|resources|resourceTemplates|prompts)\/(\d+)(\/|$)/.exec(pointer);
  const entry = m ? (manifest[m[1]!] as { [key: string]: unknown }[] | undefined)?.[Number(m[2])] : undefined;
  return entry === undefined ? "" : `${m![1]}/${String(entry.name)}`;
}

/** Defects the client kept an entry despite, for entries nothing else reported (the loader checks schemas, not every field). */
function untold(notes: ListNote[], told: Set<string>): string[] {
  return notes
    .filter((n) => n.kept === true && !(n.entryName !== undefined && told.has(`${n.section}/${n.entryName}`)))
    .map((n) => n.message);
}

/**
 * A tool without an inputSchema object is still callable by name: published as accepting any
 * arguments (`{"type": "object"}`, as the loader does for `{}`) rather than left out.
 */
function repairInputSchemas(manifest: { [key: string]: unknown }, problems: string[], told: Set<string>): void {
  const tools = manifest.tools as { [key: string]: unknown }[] | undefined;
  tools?.forEach((tool, i) => {
    const schema = tool.inputSchema;
    if (isObj(schema)) return;
    const what = schema === undefined ? "missing" : `not an object (${String(JSON.stringify(schema)).slice(0, 60)})`;
    tools[i] = { ...tool, inputSchema: { type: "object" } };
    problems.push(
      `/tools/${i}/inputSchema: ${what}; tool ${JSON.stringify(tool.name)} published with {"type":"object"} (any arguments)`,
    );
    told.add(`tools/${String(tool.name)}`);
  });
}

/** Leaves out every entry an error points into; false when an error is outside any entry. */
function dropRejected(
  manifest: { [key: string]: unknown },
  diagnostics: Diagnostic[],
  problems: string[],
  told: Set<string>,
): boolean {
  const doomed = new Map<Section, Set<number>>();
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    const m = /^\/(tools|resources|resourceTemplates|prompts)\/(\d+)(\/|$)/.exec(d.pointer);
    if (!m) return false;
    const section = m[1] as Section;
    const index = Number(m[2]);
    const entry = (manifest[section] as { [key: string]: unknown }[])[index];
    const label = `${section} ${JSON.stringify(entry?.[KEY[section]] ?? index)}`;
    problems.push(`${d.pointer}: ${d.message}; ${label} left out of the manifest`);
    told.add(`${section}/${String(entry?.name)}`);
    if (!doomed.has(section)) doomed.set(section, new Set());
    doomed.get(section)!.add(index);
  }
  for (const [section, indexes] of doomed) {
    const kept = (manifest[section] as unknown[]).filter((_, i) => !indexes.has(i));
    if (kept.length) manifest[section] = kept;
    else delete manifest[section];
  }
  return doomed.size > 0;
}
