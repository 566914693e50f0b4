/**
 * `@mcpgen/runtime/abi/v7`: everything code generated for ABI 7 imports, and nothing else user
 * code needs (users import `@mcpgen/runtime` and its transport entries). The version is in the
 * path, so generated code and a runtime that do not match fail when the import resolves (tsc
 * reports it at compile time), and a later runtime can keep serving this ABI beside the next one.
 * The protocol bindings, validators and `bindings.ts` use the ABI proper (abi.ts); the generated
 * server, client and definition link the facades (facades.ts), re-exported here whole, their
 * types included, so declarations of a user module that exports a generated value can name them.
 */
export * from "../abi.js";
export * from "../facades.js";
