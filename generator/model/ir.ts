/**
 * The protocol model: plain, JSON-serialisable data, sorted deterministically, produced by the
 * `model` stage and consumed by every emitter. Emitters never read schema files themselves.
 */

/** A JSON Schema value; kept structurally open because emitters walk it generically. */
export type JSONSchema = { [key: string]: unknown } | boolean;

export type Dialect = "draft-07" | "2020-12";
export type Direction = "client" | "server" | "both";

export interface SchemaSource {
  /** How the input is named in banners and messages: a bundled revision id or a path relative to cwd. */
  display: string;
  /** sha256 of the raw bytes of the input, lowercase hex. */
  sha256: string;
}

export interface TypeDef {
  /** Definition name exactly as in the schema (`CallToolRequest`). */
  name: string;
  /** The definition's schema, `$ref`s still pointing at `#/definitions/...` or `#/$defs/...`. */
  schema: JSONSchema;
  description?: string;
}

export interface MethodDef {
  /** JSON-RPC method name (`tools/call`). */
  method: string;
  kind: "request" | "notification";
  /** Who may send it. */
  from: Direction;
  /** Definition name of the whole message (`CallToolRequest`). */
  messageType: string;
  /** Definition name of `params` when the schema names it (≥2025-11-25), else null (params inline). */
  paramsType: string | null;
  /** JSON pointer to the params schema inside the input document (works for inline params too). */
  paramsPointer: string | null;
  paramsRequired: boolean;
  /** Definition name of the result (requests only); in 2026-07-28 the `"complete"` form of the result. */
  resultType: string | null;
  /**
   * JSON pointer to the whole result schema (requests only): the result definition itself, or in
   * 2026-07-28 the `result` of the `…ResultResponse` definition, which may be a union such as
   * `InputRequiredResult | CallToolResult`.
   */
  resultPointer: string | null;
  /** Capability the receiver must have advertised, dotted path; null if ungated. */
  capability: string | null;
}

export interface ProtocolModel {
  /** Revision id (`2025-11-25`); for an unbundled schema, the revision it declares or was given. */
  revision: string;
  era: "legacy" | "modern";
  dialect: Dialect;
  /** `definitions` (draft-07) or `$defs` (2020-12). */
  defsKey: "definitions" | "$defs";
  batching: boolean;
  source: SchemaSource;
  /** The whole input document, untouched (emitters that need `$ref` resolution compile against it). */
  document: { [key: string]: unknown };
  /** Sorted by name. */
  types: TypeDef[];
  /** Sorted by method name. */
  methods: MethodDef[];
}

/** One file an emitter produces, path relative to the output directory, contents not yet formatted or bannered. */
export interface EmittedFile {
  path: string;
  contents: string;
}
