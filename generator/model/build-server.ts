/**
 * Builds the server model from a loaded (already validated) manifest.
 */
import type { LoadedManifest } from "../load/manifest.js";
import { KNOWN_REVISIONS } from "../load/manifest-format.js";
import { parseUriTemplate } from "../load/uri-template.js";
import { APPS_EXTENSION } from "../load/apps.js";
import { TYPE_SUFFIX, type EntryNames } from "../names/index.js";
import type { JSONSchema } from "./ir.js";
import { inputDefaults, WITH_DEFAULTS } from "./input-defaults.js";
import type { Manifest, ManifestCache } from "../load/manifest-format.js";
import type {
  CacheModel,
  PromptModel,
  ResourceModel,
  ResourceTemplateModel,
  ServerCapabilitiesModel,
  ServerModel,
  TemplateVariableModel,
  ToolModel,
} from "./server-ir.js";

const DEFAULT_PAGE_SIZE = 100;
/** https://modelcontextprotocol.io/seps/2640-skills-extension */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

function byName<T extends { name: string }>(list: T[]): T[] {
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function ids(n: EntryNames | undefined): EntryNames {
  // the loader rejects manifests with unnameable entries, so this only guards misuse
  if (!n) throw new Error("buildServerModel: manifest names missing (load it with loadManifest first)");
  return n;
}

function plain(v: unknown): { [key: string]: unknown } {
  return v as { [key: string]: unknown };
}

/**
 * An entry as published, without mcpgen's own keys: a tool's `examples` (for `mcpgen verify`) and
 * `auth` (OAuth scopes), a resource's or template's `cache` (caching hints, sent as `ttlMs` and
 * `cacheScope` of its results). Every other key is the server's, published as given.
 */
function published(entry: object, own: readonly string[]): { [key: string]: unknown } {
  if (!own.some((k) => k in entry)) return plain(entry);
  const out = { ...plain(entry) };
  for (const k of own) delete out[k];
  return out;
}
const TOOL_OWN = ["examples", "auth"] as const;
const RESOURCE_OWN = ["cache", "file"] as const;

export interface BuildServerOptions {
  /** Pointers of tool schemas whose `default` the generation check rejected (a warning under --lenient): not filled in. */
  rejectedDefaults?: ReadonlySet<string>;
}

export function buildServerModel(loaded: LoadedManifest, options: BuildServerOptions = {}): ServerModel {
  const m = loaded.manifest;
  const names = loaded.names;
  const rejected = options.rejectedDefaults;

  const tools: ToolModel[] = (m.tools ?? []).map((t, index) => {
    const id = ids(names.tools[index]);
    const pointer = `/tools/${index}`;
    const inputFallback = loaded.fallbackSchemas.has(`${pointer}/inputSchema`);
    const defaults = inputFallback
      ? null
      : inputDefaults(
          t.inputSchema as JSONSchema,
          rejected === undefined ? undefined : (p) => !rejected.has(`${pointer}/inputSchema${p}`),
        );
    return {
      name: t.name,
      index,
      pointer,
      ids: id,
      definition: published(t, TOOL_OWN),
      inputSchema: t.inputSchema as JSONSchema,
      outputSchema: (t.outputSchema as JSONSchema | undefined) ?? null,
      inputType: id.type + TYPE_SUFFIX.toolInput,
      outputType: t.outputSchema !== undefined ? id.type + TYPE_SUFFIX.toolOutput : null,
      inputDefaults: defaults,
      handlerInputType: id.type + TYPE_SUFFIX.toolInput + (defaults === null ? "" : WITH_DEFAULTS),
      inputFallback,
      outputFallback: loaded.fallbackSchemas.has(`${pointer}/outputSchema`),
      readOnly: t.annotations?.readOnlyHint === true,
      scopes: Array.isArray(t.auth?.scopes) ? t.auth.scopes.filter((s): s is string => typeof s === "string") : [],
      taskSupport: t.execution?.taskSupport ?? "forbidden",
    };
  });

  const resources: ResourceModel[] = (m.resources ?? []).map((r, index) => ({
    name: r.name,
    index,
    pointer: `/resources/${index}`,
    ids: ids(names.resources[index]),
    definition: published(r, RESOURCE_OWN),
    uri: r.uri,
    mimeType: r.mimeType ?? null,
    file: loaded.resourceFiles.get(index) ?? null,
  }));

  const resourceTemplates: ResourceTemplateModel[] = (m.resourceTemplates ?? []).map((t, index) => {
    const id = ids(names.resourceTemplates[index]);
    const parsed = parseUriTemplate(t.uriTemplate);
    const variables: TemplateVariableModel[] = [];
    if (parsed.ok) {
      for (const v of parsed.variables) {
        const optional = v.operator === "?" || v.operator === "&";
        const prior = variables.find((x) => x.name === v.name);
        if (prior) prior.optional &&= optional;
        else variables.push({ name: v.name, operator: v.operator, explode: v.explode, optional });
      }
    }
    return {
      name: t.name,
      index,
      pointer: `/resourceTemplates/${index}`,
      ids: id,
      definition: published(t, RESOURCE_OWN),
      uriTemplate: t.uriTemplate,
      mimeType: t.mimeType ?? null,
      variables,
      varsType: id.type + TYPE_SUFFIX.templateVars,
    };
  });

  const prompts: PromptModel[] = (m.prompts ?? []).map((p, index) => {
    const id = ids(names.prompts[index]);
    return {
      name: p.name,
      index,
      pointer: `/prompts/${index}`,
      ids: id,
      definition: plain(p),
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        required: a.required === true,
        description: a.description ?? null,
      })),
      argsType: id.type + TYPE_SUFFIX.promptArgs,
    };
  });

  const declared = m.capabilities ?? {};
  const capabilities: ServerCapabilitiesModel = {};
  if (tools.length) capabilities.tools = { ...declared.tools };
  if (resources.length || resourceTemplates.length) capabilities.resources = { ...declared.resources };
  if (prompts.length) capabilities.prompts = { ...declared.prompts };
  if (declared.logging) capabilities.logging = {};
  if (declared.completions) capabilities.completions = {};
  if (declared.experimental) capabilities.experimental = declared.experimental;
  if (declared.extensions) capabilities.extensions = declared.extensions;
  if (loaded.skills.length > 0) {
    // Skill files are resources (resources/read), and the server implements resources/directory/read.
    capabilities.resources ??= { ...declared.resources };
    capabilities.extensions = {
      ...capabilities.extensions,
      [SKILLS_EXTENSION]: { directoryRead: true, ...declared.extensions?.[SKILLS_EXTENSION] },
    };
  }
  if (loaded.apps)
    capabilities.extensions = {
      ...capabilities.extensions,
      [APPS_EXTENSION]: { ...declared.extensions?.[APPS_EXTENSION] },
    };

  // newest first: the runtime prefers the first revision it shares with the peer
  const revisions = [...(m.revisions ?? KNOWN_REVISIONS)].sort().reverse();

  const identity: ServerModel["identity"] = { name: m.name, version: m.version };
  if (m.title !== undefined) identity.title = m.title;
  if (m.description !== undefined) identity.description = m.description;
  if (m.websiteUrl !== undefined) identity.websiteUrl = m.websiteUrl;
  if (m.icons !== undefined) identity.icons = m.icons.map(plain);

  return {
    source: { display: loaded.file, sha256: loaded.sha256 },
    identity,
    instructions: m.instructions ?? null,
    revisions,
    pageSize: m.pageSize ?? DEFAULT_PAGE_SIZE,
    cache: cacheModel(m),
    capabilities,
    tools: byName(tools),
    resources: byName(resources),
    resourceTemplates: byName(resourceTemplates),
    prompts: byName(prompts),
    skills: loaded.skills,
    clientRequests: m.clientRequests === undefined ? null : [...m.clientRequests].sort(),
  };
}

function settings(c: ManifestCache): { ttlMs?: number; scope?: "public" | "private" } {
  const out: { ttlMs?: number; scope?: "public" | "private" } = {};
  if (c.ttlMs !== undefined) out.ttlMs = c.ttlMs;
  if (c.scope !== undefined) out.scope = c.scope;
  return out;
}

/** The manifest's caching settings (top level, per resource URI, per template name); null without any. */
function cacheModel(m: Manifest): CacheModel | null {
  const out: CacheModel = m.cache ? settings(m.cache) : {};
  for (const r of m.resources ?? []) if (r.cache) (out.resources ??= {})[r.uri] = settings(r.cache);
  for (const t of m.resourceTemplates ?? []) if (t.cache) (out.resourceTemplates ??= {})[t.name] = settings(t.cache);
  return Object.keys(out).length > 0 || m.cache !== undefined ? out : null;
}
