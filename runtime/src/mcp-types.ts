/**
 * The MCP wire shapes the server and client facades exchange with user code. Every spec shape
 * comes from `wire/legacy.ts` and `wire/modern.ts`, generated from the newest bundled revision of
 * each era (the newest legacy one is a superset of the older ones; why: generator/emit/wire-types.ts).
 * This file only adapts them for the runtime, which serves every revision with one API:
 *
 * - where 2026-07-28 differs, the type is the superset of both eras (`Superset<L, M>`): every
 *   field of either, required only where both require it, typed as either revision types it;
 * - results and params are open (`Open<T>`): a newer revision's extra fields pass through, and
 *   they are assignable to the session's `Result`/`Params` records;
 * - JSON Schemas carried as data (`Tool.inputSchema`) are open, as JSON Schema itself is (the
 *   generated types follow the spec's TypeScript, which closes them);
 * - elicitation is generic over the requested schema, accepting it `as const` (readonly).
 */
import type * as Wire from "./wire/legacy.js";
import type * as Modern from "./wire/modern.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type Meta = { [key: string]: unknown };

/** `T` plus an index signature: unknown fields are allowed and kept. */
type Open<T> = T & { [key: string]: unknown };

type RequiredIn<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
type FieldOf<T, K> = K extends keyof T ? Exclude<T[K], undefined> : never;
/** Both eras' fields: required where both require them; a value of either era's type. */
type Superset<L, M> = { [K in RequiredIn<L> & RequiredIn<M>]: FieldOf<L, K> | FieldOf<M, K> } & {
  [K in Exclude<keyof L | keyof M, RequiredIn<L> & RequiredIn<M>>]?: FieldOf<L, K> | FieldOf<M, K>;
};
/** An open superset of the legacy and the 2026-07-28 definition. */
type Both<L, M> = Open<Superset<L, M>>;

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

/** `tools/call` result; 2026-07-28 lets `structuredContent` be any JSON value. */
export type CallToolResult = Both<Wire.CallToolResult, Modern.CallToolResult>;
export type PromptMessage = Wire.PromptMessage;
export type GetPromptResult = Both<Wire.GetPromptResult, Modern.GetPromptResult>;
export type ReadResourceResult = Both<Wire.ReadResourceResult, Modern.ReadResourceResult>;

type Schemas = "inputSchema" | "outputSchema" | "annotations";
/** A tool; its JSON Schemas are open (2026-07-28 also allows a non-object `outputSchema`). */
export type Tool = Both<Omit<Wire.Tool, Schemas>, Omit<Modern.Tool, Schemas>> & {
  inputSchema: Open<Wire.Tool["inputSchema"]> | Modern.Tool["inputSchema"];
  outputSchema?: Open<NonNullable<Wire.Tool["outputSchema"]>> | NonNullable<Modern.Tool["outputSchema"]>;
  annotations?: Open<Wire.ToolAnnotations>;
};
export type Prompt = Both<Wire.Prompt, Modern.Prompt>;
export type Resource = Both<Wire.Resource, Modern.Resource>;
export type ResourceTemplate = Both<Wire.ResourceTemplate, Modern.ResourceTemplate>;

export type CompleteResult = Both<Wire.CompleteResult, Modern.CompleteResult>;
export type CompletionReference = Wire.PromptReference | Wire.ResourceTemplateReference;

export type LoggingLevel = Wire.LoggingLevel;
/** Every level, least severe first (RFC 5424 order; test/runtime/wire-types proves it complete). */
export const loggingLevels: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

// ---- requests a server sends to the client

export type SamplingMessage = Wire.SamplingMessage;
export type CreateMessageParams = Both<Wire.CreateMessageRequestParams, Modern.CreateMessageRequestParams>;
export type CreateMessageResult = Both<Wire.CreateMessageResult, Modern.CreateMessageResult>;

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
type ResultRest = Both<Omit<Wire.ElicitResult, "action" | "content">, Omit<Modern.ElicitResult, "action" | "content">>;
export type ElicitResult<S extends ElicitSchema = ElicitSchema> =
  | ({ action: "accept"; content: ElicitContent<S> } & ResultRest)
  | ({ action: Exclude<Wire.ElicitResult["action"], "accept">; content?: undefined } & ResultRest);
export type ElicitFormParams<S extends ElicitSchema = ElicitSchema> = Both<
  Omit<Wire.ElicitRequestFormParams, "requestedSchema">,
  Omit<Modern.ElicitRequestFormParams, "requestedSchema">
> & {
  requestedSchema: S;
};
/** URL-mode elicitation; `elicitationId` is required up to 2025-11-25 and gone in 2026-07-28. */
export type ElicitUrlParams = Both<Wire.ElicitRequestURLParams, Modern.ElicitRequestURLParams>;

export type Root = Wire.Root;
