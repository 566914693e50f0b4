/**
 * The names prepass over a manifest: assigns the member name (`client.tools.getForecast`) and
 * the type base (`GetForecast` → `GetForecastInput`, `GetForecastOutput`, `GetForecastArgs`,
 * `ReadFileVars`) of every tool, prompt, resource and resource template, and reports every
 * collision with both sources.
 */
import type { Manifest } from "../load/manifest-format.js";
import { toBindingName, toMemberName, toTypeName } from "./identifiers.js";
import { NameRegistry, type NameCollision } from "./registry.js";

export interface EntryNames {
  /** Property name on `tools` / `prompts` / `resources` objects (may be a reserved word). */
  member: string;
  /** Safe as a variable or parameter name. */
  binding: string;
  /** PascalCase base of the entry's type names. */
  type: string;
}

export interface ManifestNames {
  /** Indexed like the manifest arrays; undefined for entries whose name yields no identifier. */
  tools: (EntryNames | undefined)[];
  prompts: (EntryNames | undefined)[];
  resources: (EntryNames | undefined)[];
  resourceTemplates: (EntryNames | undefined)[];
  /** Every type identifier claimed so far (emitters claim nested names in it). */
  types: NameRegistry;
  collisions: NameCollision[];
  /** Names with no letter or digit, which cannot become identifiers. */
  unnameable: { pointer: string; name: string }[];
}

export const TYPE_SUFFIX = {
  toolInput: "Input",
  toolOutput: "Output",
  promptArgs: "Args",
  templateVars: "Vars",
} as const;

export function assignManifestNames(manifest: Manifest): ManifestNames {
  const tools = new NameRegistry("tool");
  const prompts = new NameRegistry("prompt");
  const resources = new NameRegistry("resource");
  const types = new NameRegistry("type");
  const unnameable: ManifestNames["unnameable"] = [];

  const nameAll = (
    list: readonly unknown[] | undefined,
    section: string,
    members: NameRegistry,
    typeSuffixes: readonly string[],
  ): (EntryNames | undefined)[] =>
    (Array.isArray(list) ? list : []).map((entry, i) => {
      const name = (entry as { name?: unknown } | null)?.name;
      if (typeof name !== "string") return undefined;
      const pointer = `/${section}/${i}/name`;
      const member = toMemberName(name);
      if (!member) {
        unnameable.push({ pointer, name });
        return undefined;
      }
      const source = { pointer, name };
      members.claim(member, source);
      const type = toTypeName(name);
      for (const suffix of typeSuffixes) types.claim(type + suffix, source);
      return { member, binding: toBindingName(name), type };
    });

  const result = {
    tools: nameAll(manifest.tools, "tools", tools, [TYPE_SUFFIX.toolInput, TYPE_SUFFIX.toolOutput]),
    prompts: nameAll(manifest.prompts, "prompts", prompts, [TYPE_SUFFIX.promptArgs]),
    resources: nameAll(manifest.resources, "resources", resources, []),
    resourceTemplates: nameAll(manifest.resourceTemplates, "resourceTemplates", resources, [TYPE_SUFFIX.templateVars]),
  };
  return {
    ...result,
    types,
    collisions: dedupe([...tools.collisions, ...prompts.collisions, ...resources.collisions, ...types.collisions]),
    unnameable,
  };
}

/** One report per pair of sources (two tools that clash as members also clash as types). */
function dedupe(list: NameCollision[]): NameCollision[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const key = `${c.first.pointer}\u0000${c.second.pointer}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
