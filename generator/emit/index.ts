/**
 * Emits `index.ts`: the entry point of one revision's bindings, re-exporting the other files and
 * assembling the `ProtocolBinding` the runtime takes (`templates/protocol/index.ts.hbs`).
 */
import type { EmittedFile, ProtocolModel } from "../model/ir.js";
import { renderTemplate } from "../templates.js";

export function emitIndex(model: ProtocolModel): EmittedFile[] {
  return [{ path: "index.ts", contents: renderTemplate("protocol/index.ts", { revision: model.revision }) }];
}
