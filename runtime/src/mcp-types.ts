/**
 * The MCP wire shapes the server and client facades exchange with user code. Every spec shape
 * comes from `wire/legacy.ts`, generated from the newest bundled legacy revision (a superset of
 * the older ones; why: generator/emit/wire-types.ts). This file only adapts them for the runtime:
 *
 * - results and params are open (`Open<T>`): a newer revision's extra fields pass through, and
 *   they are assignable to the session's `Result`/`Params` records;
 * - JSON Schemas carried as data (`Tool.inputSchema`) are open, as JSON Schema itself is (the
 *   generated types follow the spec's TypeScript, which closes them);
 * - elicitation is generic over the requested schema, accepting it `as const` (readonly).
 */
import type * as Wire from "./wire/legacy.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type Meta = { [key: string]: unknown };

/** `T` plus an index signature: unknown fields are allowed and kept. */
type Open<T> = T & { [key: string]: unknown };

/** `T` with every array readonly, so schemas written `as const` (or inferred `const`) are accepted. */
type DeepReadonly<T> = T extends readonly (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export type Annotations = Wire.Annotations;
export type TextContent = Wire.TextContent;
export type ImageContent = Wire.ImageContent;
export type AudioContent = Wire.AudioContent;
export type TextResourceContents = Wire.TextResourceContents;
export type BlobResourceContents = Wire.BlobResourceContents;
/** What `resources/read` returns per resource (the schema's `ResourceContents` is their common base). */
export type ResourceContents = TextResourceContents | BlobResourceContents;
export type EmbeddedResource = Wire.EmbeddedResource;
export type ResourceLink = Wire.ResourceLink;
export type ContentBlock = Wire.ContentBlock;

export type CallToolResult = Open<Wire.CallToolResult>;
export type PromptMessage = Wire.PromptMessage;
export type GetPromptResult = Open<Wire.GetPromptResult>;
export type ReadResourceResult = Open<Wire.ReadResourceResult>;

type ToolSchema = Open<Wire.Tool["inputSchema"]>;
export type Tool = Open<Omit<Wire.Tool, "inputSchema" | "outputSchema" | "annotations">> & {
  inputSchema: ToolSchema;
  outputSchema?: ToolSchema;
  annotations?: Open<Wire.ToolAnnotations>;
};
export type Prompt = Open<Wire.Prompt>;
export type Resource = Open<Wire.Resource>;
export type ResourceTemplate = Open<Wire.ResourceTemplate>;

export type CompleteResult = Open<Wire.CompleteResult>;
export type CompletionReference = Wire.PromptReference | Wire.ResourceTemplateReference;

export type LoggingLevel = Wire.LoggingLevel;
/** Every level, least severe first (RFC 5424 order; test/runtime/wire-types proves it complete). */
export const loggingLevels: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

// ---- requests a server sends to the client

export type SamplingMessage = Wire.SamplingMessage;
export type CreateMessageParams = Open<Wire.CreateMessageRequestParams>;
export type CreateMessageResult = Open<Wire.CreateMessageResult>;

/** A primitive field of an elicitation form (`requestedSchema.properties.*`). */
export type ElicitField = DeepReadonly<Wire.PrimitiveSchemaDefinition>;
type RequestedSchema = Wire.ElicitRequestFormParams["requestedSchema"];
/** `requestedSchema` of a form elicitation. */
export type ElicitSchema = DeepReadonly<Omit<RequestedSchema, "properties">> & {
  readonly properties: { readonly [name: string]: ElicitField };
};

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
type ResultRest = Open<Omit<Wire.ElicitResult, "action" | "content">>;
export type ElicitResult<S extends ElicitSchema = ElicitSchema> =
  | ({ action: "accept"; content: ElicitContent<S> } & ResultRest)
  | ({ action: Exclude<Wire.ElicitResult["action"], "accept">; content?: undefined } & ResultRest);
export type ElicitFormParams<S extends ElicitSchema = ElicitSchema> = Open<Omit<Wire.ElicitRequestFormParams, "requestedSchema">> & {
  requestedSchema: S;
};
export type ElicitUrlParams = Open<Wire.ElicitRequestURLParams>;

export type Root = Wire.Root;
