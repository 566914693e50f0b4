/**
 * What a protocol binding is made of: the dispatch metadata of a revision's methods and the
 * validators of their params and results. Generated code sees these through the ABI (abi.ts);
 * lazy-binding.ts builds bindings that load them on first use.
 */

/** One validation failure, shaped like ajv's `ErrorObject` so emitted ajv code fills it directly. */
export interface ValidationIssue {
  /** JSON pointer (RFC 6901) to the failing value inside the validated data, "" for the root. */
  instancePath: string;
  /** JSON pointer to the failing keyword inside the schema. */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A compiled validator. It is a type guard so callers narrow `unknown` to the generated type;
 * after a `false` result, `errors` holds the failures of that call.
 */
export interface Validator<T = unknown> {
  (data: unknown): data is T;
  errors?: ValidationIssue[] | null;
}

export type Era = "legacy" | "modern";
export type Side = "client" | "server";

/** Dispatch metadata of one JSON-RPC method, as emitted in `generated/<rev>/methods.ts`. */
export interface MethodInfo {
  readonly kind: "request" | "notification";
  /** Who may send it: the client, the server, or either side. */
  readonly from: Side | "both";
  /**
   * Capability the receiver must have advertised, as a dotted path into its capabilities
   * object (e.g. "tools", "resources.subscribe", "sampling"); null when ungated.
   */
  readonly capability: string | null;
  /** Whether `params` must be present on the wire. */
  readonly paramsRequired: boolean;
  /** Name of the schema type of `params` (named or synthesised), for messages and docs. */
  readonly paramsType: string | null;
  /** Name of the schema type of the result; null for notifications. */
  readonly resultType: string | null;
}

export type MethodTable = Readonly<Record<string, MethodInfo>>;

/**
 * Everything the runtime needs to speak one protocol revision. Each `generated/<rev>/index.ts`
 * exports one of these as `binding`.
 */
export interface ProtocolBinding {
  readonly revision: string;
  readonly era: Era;
  /** JSON-RPC batches are allowed on the wire (2025-03-26 only). */
  readonly batching: boolean;
  readonly methods: MethodTable;
  /** Validator of `params` per method (absent params are only checked for presence). */
  readonly params: Readonly<Record<string, Validator>>;
  /** Validator of the result per request method. */
  readonly results: Readonly<Record<string, Validator>>;
}

/** A module of one method's validator, as `generated/<rev>/validators/*.ts` export it. */
export interface ValidatorModule {
  readonly validate: Validator;
}

/**
 * Per method, a thunk importing the module of its params / result validator
 * (`generated/<rev>/loaders.ts`); the runtime calls each the first time a connection needs it.
 */
export interface ValidatorLoaders {
  readonly params: Readonly<Record<string, () => Promise<ValidatorModule>>>;
  readonly results: Readonly<Record<string, () => Promise<ValidatorModule>>>;
}
