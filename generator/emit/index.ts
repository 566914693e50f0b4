/**
 * Emits `binding.ts`, the `ProtocolBinding` the runtime takes (alone in its file, so a bundler
 * that meets `import("<rev>/binding")` keeps only the validators the binding uses), and
 * `index.ts`, the entry point of one revision's bindings re-exporting every file.
 */
import type { EmittedFile, ProtocolModel } from "../model/ir.js";

export function emitIndex(model: ProtocolModel): EmittedFile[] {
  const binding = `import type { ProtocolBinding } from "@mcpgen/runtime/abi";
import { batching, era, methods, revision } from "./methods.js";
import { paramsValidators, resultValidators } from "./validators.js";

/** Everything the runtime needs to speak MCP ${model.revision}. */
export const binding: ProtocolBinding = {
  revision,
  era,
  batching,
  methods,
  params: paramsValidators,
  results: resultValidators,
};
`;
  const index = `export type * from "./types.js";
export * from "./validators.js";
export * from "./methods.js";
export { binding } from "./binding.js";
`;
  return [
    { path: "binding.ts", contents: binding },
    { path: "index.ts", contents: index },
  ];
}
