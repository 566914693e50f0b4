/**
 * json-schema-to-typescript's pipeline without its asynchronous steps.
 *
 * Its public `compile()` is async only because of two steps this emitter never needs: `$ref`
 * dereferencing (normalise.ts has already replaced every `$ref` with `tsType`, so there is nothing
 * to resolve) and prettier (the print stage formats the whole file once). Running the remaining
 * stages directly keeps `emitTypes` synchronous, as the emitter contract wants, and skips the ref
 * parser's per-call cost. The stage modules are the package's own compiled files; a test compares
 * this against `compile()` so an upgrade that changes them fails loudly.
 */
import { DEFAULT_OPTIONS, type Options } from "json-schema-to-typescript";
import { generate } from "json-schema-to-typescript/dist/src/generator.js";
import { link } from "json-schema-to-typescript/dist/src/linker.js";
import { normalize } from "json-schema-to-typescript/dist/src/normalizer.js";
import { optimize } from "json-schema-to-typescript/dist/src/optimizer.js";
import { nameAnonymousRecursiveTypes, parse } from "json-schema-to-typescript/dist/src/parser.js";
import { validate } from "json-schema-to-typescript/dist/src/validator.js";
import type { JSONSchema } from "json-schema-to-typescript/dist/src/types/JSONSchema.js";

export type CompileOptions = Partial<Options>;

/** Same result as `compile(schema, name, { ...options, format: false })` for a schema without `$ref`s. */
export function compileSync(schema: object, name: string, options: CompileOptions): string {
  const opts: Options = { ...DEFAULT_OPTIONS, ...options, format: false };
  const linked = link(schema as JSONSchema);
  const errors = validate(linked, name);
  if (errors.length > 0) throw new Error(errors.join("; "));
  const normalised = normalize(linked, new WeakMap(), name, opts);
  const processed = new Map();
  const usedNames = new Set<string>();
  const parsed = parse(normalised, opts, undefined, processed, usedNames);
  nameAnonymousRecursiveTypes(parsed, processed, new WeakMap(), usedNames);
  return generate(optimize(parsed, opts), opts);
}
