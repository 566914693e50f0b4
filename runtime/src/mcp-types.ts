/**
 * The MCP wire shapes the server and client facades exchange with user code, written once for
 * every legacy revision (fields a revision lacks are optional). The per-revision generated types
 * are exact; these are what the runtime can promise without importing them. Open objects: a
 * newer revision's extra fields pass through.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type Meta = { [key: string]: unknown };

export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface ImageContent {
  type: "image";
  /** base64 */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** base64 */
  blob: string;
  _meta?: Meta;
}
export type ResourceContents = TextResourceContents | BlobResourceContents;
export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: Meta;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
  [key: string]: unknown;
}
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
  [key: string]: unknown;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  annotations?: { [key: string]: unknown };
  [key: string]: unknown;
}
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; title?: string; description?: string; required?: boolean }[];
  [key: string]: unknown;
}
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  [key: string]: unknown;
}
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  [key: string]: unknown;
}
export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
export const loggingLevels: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

// ---- requests a server sends to the client

export interface SamplingMessage {
  role: "user" | "assistant";
  content: unknown;
  _meta?: Meta;
}
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: { hints?: { name?: string }[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: { [key: string]: unknown };
  tools?: Tool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  [key: string]: unknown;
}
export interface CreateMessageResult {
  role: "user" | "assistant";
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** A primitive field of an elicitation form (`requestedSchema.properties.*`). */
export type ElicitField =
  | { type: "string"; title?: string; description?: string; enum?: readonly string[]; format?: string; default?: string; [key: string]: unknown }
  | { type: "number" | "integer"; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
  | { type: "boolean"; title?: string; description?: string; default?: boolean }
  | { type: "array"; title?: string; description?: string; items: unknown; [key: string]: unknown };
export interface ElicitSchema {
  type: "object";
  properties: { readonly [name: string]: ElicitField };
  required?: readonly string[];
}

type FieldValue<F> = F extends { type: "boolean" }
  ? boolean
  : F extends { type: "number" | "integer" }
    ? number
    : F extends { type: "array" }
      ? string[]
      : F extends { enum: readonly (infer E extends string)[] }
        ? E
        : string;
type RequiredNames<S> = S extends { required: readonly (infer R)[] } ? R : never;
/** The `content` an accepted form elicitation carries, typed from the requested schema. */
export type ElicitContent<S extends ElicitSchema> = {
  -readonly [K in keyof S["properties"] as K extends RequiredNames<S> ? K : never]: FieldValue<S["properties"][K]>;
} & {
  -readonly [K in keyof S["properties"] as K extends RequiredNames<S> ? never : K]?: FieldValue<S["properties"][K]>;
};
export type ElicitResult<S extends ElicitSchema = ElicitSchema> =
  | { action: "accept"; content: ElicitContent<S>; [key: string]: unknown }
  | { action: "decline" | "cancel"; content?: undefined; [key: string]: unknown };
export interface ElicitFormParams<S extends ElicitSchema = ElicitSchema> {
  mode?: "form";
  message: string;
  requestedSchema: S;
  [key: string]: unknown;
}
export interface ElicitUrlParams {
  mode: "url";
  message: string;
  url: string;
  elicitationId: string;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}
