/**
 * The server model: what one manifest declares, as plain JSON-serialisable data with every
 * identifier already assigned, sorted by MCP name. Emitters (types, validators, server, client,
 * list payloads) read only this.
 */
import type { JSONSchema, SchemaSource } from "./ir.js";
import type { InputDefaults } from "./input-defaults.js";
import type { SkillModel } from "../load/skills.js";
import type { ClientRequestKind } from "../load/manifest-format.js";

export type { SkillModel };

export interface EntryIdentifiers {
  /** Property name on the generated `tools` / `prompts` / `resources` objects (`getForecast`). */
  member: string;
  /** Same, safe as a variable name (`delete_` for `delete`). */
  binding: string;
  /** PascalCase base of type names (`GetForecast`). */
  type: string;
}

interface EntryBase {
  /** MCP name, exactly as declared. */
  name: string;
  /** Position in its manifest array (list payloads keep declaration order). */
  index: number;
  /** JSON pointer of the entry in the manifest. */
  pointer: string;
  ids: EntryIdentifiers;
  /** The wire object exactly as declared; published in list results as is. */
  definition: { [key: string]: unknown };
}

export interface ToolModel extends EntryBase {
  inputSchema: JSONSchema;
  outputSchema: JSONSchema | null;
  /** Type names: `GetForecastInput`, `GetForecastOutput` (null without outputSchema). */
  inputType: string;
  outputType: string | null;
  /** The defaults a server fills into valid arguments before the handler runs; null when none apply. */
  inputDefaults: InputDefaults | null;
  /** What the handler gets: `GetForecastInputWithDefaults` (filled properties required) when defaults apply, else `inputType`. */
  handlerInputType: string;
  /** The schema was broken or empty and is typed as `Record<string, unknown>`. */
  inputFallback: boolean;
  outputFallback: boolean;
  /** `annotations` hints as declared (clients must treat them as untrusted). */
  readOnly: boolean;
  /** OAuth scopes a call needs (`auth.scopes`), in declaration order. */
  scopes: string[];
  /** `execution.taskSupport` as declared (default "forbidden"): whether a call may run as a task. */
  taskSupport: "forbidden" | "optional" | "required";
}

export interface ResourceModel extends EntryBase {
  uri: string;
  mimeType: string | null;
  /** Content served from the manifest's `file` (no handler); null when a handler serves it. */
  file: string | null;
}

export interface TemplateVariableModel {
  name: string;
  /** RFC 6570 operator of the expression: "" (simple), "+", "#", ".", "/", ";", "?", "&". */
  operator: string;
  explode: boolean;
  /** Query-style variables (`{?q}`, `{&q}`) may be absent from a URI. */
  optional: boolean;
}

export interface ResourceTemplateModel extends EntryBase {
  uriTemplate: string;
  mimeType: string | null;
  /** Distinct variables in order of first appearance. */
  variables: TemplateVariableModel[];
  /** `ReadFileVars`. */
  varsType: string;
}

export interface PromptArgumentModel {
  name: string;
  required: boolean;
  description: string | null;
}

export interface PromptModel extends EntryBase {
  arguments: PromptArgumentModel[];
  /** `SummariseArgs`. */
  argsType: string;
}

export interface ServerCapabilitiesModel {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: Record<string, never>;
  completions?: Record<string, never>;
  experimental?: { [key: string]: { [key: string]: unknown } };
  extensions?: { [key: string]: { [key: string]: unknown } };
}

export interface ServerModel {
  source: SchemaSource;
  /** `serverInfo` (MCP `Implementation`). */
  identity: {
    name: string;
    version: string;
    title?: string;
    description?: string;
    websiteUrl?: string;
    icons?: { [key: string]: unknown }[];
  };
  instructions: string | null;
  /** Newest first; the first is preferred in negotiation. */
  revisions: string[];
  pageSize: number;
  /** 2026-07-28 caching hints from the manifest's `cache` settings; null when it sets none. */
  cache: CacheModel | null;
  /** What the server declares: implied by non-empty lists plus the manifest's explicit flags. */
  capabilities: ServerCapabilitiesModel;
  /** Sorted by MCP name. */
  tools: ToolModel[];
  resources: ResourceModel[];
  resourceTemplates: ResourceTemplateModel[];
  prompts: PromptModel[];
  /** The Skills extension's skills, in declaration order (served as listed). */
  skills: SkillModel[];
  /** What the handlers ask the client (the manifest's `clientRequests`, sorted); null when it does not say (all of it). */
  clientRequests: ClientRequestKind[] | null;
  /**
   * The generated code imports its own parts (tool validators, task and skill code, resource files,
   * client revisions) statically: a bundled deployment (`target: "workers"`), where everything is one
   * file and a dynamic import buys nothing. Absent: imported on first use, so a server starts without them.
   */
  staticImports?: boolean;
}

/** Caching settings as the runtime's `McpDefinition.cache` takes them (plain JSON data). */
export interface CacheModel {
  ttlMs?: number;
  scope?: "public" | "private";
  resources?: { [uri: string]: { ttlMs?: number; scope?: "public" | "private" } };
  resourceTemplates?: { [name: string]: { ttlMs?: number; scope?: "public" | "private" } };
}
