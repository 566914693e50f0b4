/**
 * The manifest (`mcp.manifest.json`) as TypeScript sees it after validation against
 * `schema/manifest.schema.json`. Entries are MCP wire objects and stay open (`[key: string]:
 * unknown`) so fields of newer revisions pass through to the published list payloads.
 */
import type { JSONSchema } from "../model/ir.js";

export const KNOWN_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type Revision = (typeof KNOWN_REVISIONS)[number];

/** What a handler may ask the client (`ctx.client`), as the manifest's `clientRequests` names it. */
export type ClientRequestKind = "elicitation" | "sampling" | "roots";

export interface ManifestIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

export interface ManifestTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  annotations?: { [key: string]: unknown };
  icons?: ManifestIcon[];
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
  _meta?: { [key: string]: unknown };
  /** Example calls `mcpgen verify` makes (never published). */
  examples?: ManifestToolExample[];
  /** mcpgen's own: OAuth scopes a `tools/call` of this tool needs (never published in tools/list). */
  auth?: { scopes?: string[] };
  [key: string]: unknown;
}

export interface ManifestToolExample {
  name?: string;
  arguments: { [key: string]: unknown };
  /** The call is expected to report a tool error. */
  isError?: boolean;
}

/** 2026-07-28 caching hints (`ttlMs`, `cacheScope`). */
export interface ManifestCache {
  ttlMs?: number;
  scope?: "public" | "private";
}

export interface ManifestResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  cache?: ManifestCache;
  /** mcpgen's own: served from this file (relative to the manifest), embedded at generation; no handler. */
  file?: string;
  [key: string]: unknown;
}

export interface ManifestResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  cache?: ManifestCache;
  [key: string]: unknown;
}

export interface ManifestPromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

export interface ManifestPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: ManifestPromptArgument[];
  [key: string]: unknown;
}

export interface ManifestCapabilities {
  logging?: { [key: string]: unknown };
  completions?: { [key: string]: unknown };
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  experimental?: { [key: string]: { [key: string]: unknown } };
  extensions?: { [key: string]: { [key: string]: unknown } };
}

export interface Manifest {
  $schema?: string;
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: ManifestIcon[];
  instructions?: string;
  revisions?: Revision[];
  pageSize?: number;
  /** mcpgen's own: what the handlers ask the client (default: all three). */
  clientRequests?: ClientRequestKind[];
  cache?: ManifestCache;
  capabilities?: ManifestCapabilities;
  tools?: ManifestTool[];
  resources?: ManifestResource[];
  resourceTemplates?: ManifestResourceTemplate[];
  prompts?: ManifestPrompt[];
  /** Skills served under the Skills extension: a folder each, or inline files. */
  skills?: ManifestSkill[];
}

/** mcpgen's own: a skill (Agent Skills format) from a folder or inline; its SKILL.md frontmatter names it. */
export interface ManifestSkill {
  /** Folder of the skill relative to the manifest (SKILL.md at its root). */
  dir?: string;
  /** Inline skill: content by path below the skill root (SKILL.md required). */
  files?: { [path: string]: string };
  /** Organizational prefix of the skill path (`skill://<prefix>/<name>/SKILL.md`). */
  prefix?: string;
}

export type { JSONSchema };
