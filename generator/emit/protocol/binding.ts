/**
 * Emits `binding.ts`, the `ProtocolBinding` the runtime takes (alone in its file, so a bundler
 * that meets `import("<rev>/binding")` keeps only the validators the binding uses), and
 * `index.ts`, the entry point of one revision's bindings re-exporting every file (`templates/protocol/*.hbs`).
 */
import type { EmittedFile, ProtocolModel } from "../../model/ir.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";

export function bindingView(model: ProtocolModel) {
  return { abi: runtimeImports.abi, revision: model.revision };
}

/** `index.ts` is the same for every revision. */
export function indexView() {
  return {};
}

export function emitIndex(model: ProtocolModel): EmittedFile[] {
  return [renderFile("protocol", "binding.ts", bindingView(model)), renderFile("protocol", "index.ts", indexView())];
}
