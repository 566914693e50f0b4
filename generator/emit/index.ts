/**
 * Emits `binding.ts`, the `ProtocolBinding` the runtime takes (alone in its file, so a bundler
 * that meets `import("<rev>/binding")` keeps only the validators the binding uses), and
 * `index.ts`, the entry point of one revision's bindings re-exporting every file (`templates/protocol/*.hbs`).
 */
import type { EmittedFile, ProtocolModel } from "../model/ir.js";
import { renderTemplate } from "../templates.js";

export function emitIndex(model: ProtocolModel): EmittedFile[] {
  return [
    { path: "binding.ts", contents: renderTemplate("protocol/binding.ts", { revision: model.revision }) },
    { path: "index.ts", contents: renderTemplate("protocol/index.ts", {}) },
  ];
}
