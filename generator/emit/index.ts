/**
 * Emits `index.ts`: the entry point of one revision's bindings, re-exporting the other files and
 * assembling the `ProtocolBinding` the runtime takes.
 */
import type { EmittedFile, ProtocolModel } from "../model/ir.js";

export function emitIndex(model: ProtocolModel): EmittedFile[] {
  const contents = `import type { ProtocolBinding } from "@mcpgen/runtime/abi";
import { batching, era, methods, revision } from "./methods.js";
import { paramsValidators, resultValidators } from "./validators.js";

export type * from "./types.js";
export * from "./validators.js";
export * from "./methods.js";

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
  return [{ path: "index.ts", contents }];
}
