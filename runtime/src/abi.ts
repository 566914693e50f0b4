/**
 * The generated-code ABI: what mcpgen-generated protocol bindings, validators and `bindings.ts`
 * import from the runtime, through the entry whose path carries the version
 * (`@mcpgen/runtime/abi/v8`, abi/v8.ts, which adds the facades). Changing anything here is a
 * breaking change for generated code, so it stays small and versioned by `ABI_VERSION`.
 */
/**
 * Bumped whenever generated code must be regenerated to keep working with this runtime.
 * 2: bindings are lazy (`lazyBinding` with a revision's method table and an import thunk).
 * 3: validators load per method (`lazyBinding` with a revision's method table and its
 *    `ValidatorLoaders`, one import thunk per method validator).
 * 4: method tables load per revision (`lazyRevision` with the revision's head and an import thunk
 *    of its methods module, loaded when a connection first uses the revision).
 * 5: the generated server and client check the ABI and link their own role's bindings through
 *    `@mcpgen/runtime/facades` (which re-exports `ABI_VERSION`, `lazyRevision` and `ProtocolBinding`),
 *    so a server's start resolves one runtime specifier for its generated code, not two.
 * 6: the generated server of a manifest whose tools may run as tasks hands the runtime the task
 *    machinery (`definition.tasks`, a thunk importing `@mcpgen/runtime/tasks/server`), so the
 *    runtime never reaches it on its own and the bundle of a server without task tools leaves it out.
 * 7: the ABI's entry carries its version in its path (`@mcpgen/runtime/abi/v7`, no more `/abi`
 *    and no facades in generated imports), and generated handlers count on the runtime to fill in
 *    tool input defaults (`toolValidators[name].defaults`, typed `<Tool>InputWithDefaults`), which
 *    a runtime of ABI 6 ignored.
 * 8: `@mcpgen/runtime/abi/v8`; the generated server of a manifest listing a legacy revision hands
 *    createMcpServer the legacy era (`legacyEra`: its sessions and the router of both eras on one
 *    connection), which the runtime no longer reaches on its own, so the bundle of a server of
 *    2026-07-28 alone leaves that era's lifecycle out.
 */
export const ABI_VERSION = 8;

export { lazyBinding, lazyRevision, type RevisionHead, type RevisionInfo } from "./lazy-binding.js";

export type {
  ValidationIssue,
  Validator,
  Era,
  Side,
  MethodInfo,
  MethodTable,
  ProtocolBinding,
  ValidatorModule,
  ValidatorLoaders,
} from "./protocol-binding.js";

// ---- helpers that ajv standalone code calls (ajv's own runtime stays a build-time dependency)

export { fail, failWith, issue, nest, pointerToken } from "./issue-sites.js";
export {
  TooManyIssues,
  counted,
  ucs2length,
  equal,
  formats,
  formatUri,
  formatUriTemplate,
  formatByte,
} from "./ajv-runtime.js";
