/**
 * `@mcpgen/runtime/abi/v8/all-errors`: what the generated all-errors tool validators
 * (`tools.all-errors.ajv.ts`, and `tool-validators.ts`, which makes them the tools' checks) import,
 * the part of the ABI 8 entry (v8.ts) that ajv's `allErrors` code calls. Those modules are loaded
 * by a dynamic import, and a bundler wraps everything a dynamically imported module reaches in
 * lazy-init glue; through abi/v8 that was most of the runtime, through this entry it is
 * ajv-runtime.ts, the limits and the issue sites (issue-sites.ts, which the protocol validators
 * load anyway).
 */
export { counted, ucs2length, equal, formats, formatUri, formatUriTemplate, formatByte } from "../ajv-runtime.js";
export { collectingValidators } from "../collecting-validators.js";
export { issue } from "../issue-sites.js";
export type { Validator } from "../protocol-binding.js";
