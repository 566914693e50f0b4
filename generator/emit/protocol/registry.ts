/**
 * The emitters that make up one revision's bindings, in output order. Each is a pure function of
 * the model; the print stage formats and banners what they return.
 */
import type { EmittedFile, ProtocolModel } from "../../model/ir.js";
import { emitIndex } from "./binding.js";
import { emitMethods } from "./methods.js";
import { emitTypes } from "./types.js";
import { emitValidators, type ValidatorSharing } from "./validators.js";

/** What an emitter may know beyond its model: the revisions generated with it (mcpgen's bundled ones). */
export interface EmitContext {
  sharing?: ValidatorSharing;
}

export interface Emitter {
  name: string;
  emit(model: ProtocolModel, context: EmitContext): EmittedFile[] | Promise<EmittedFile[]>;
}

export const emitters: readonly Emitter[] = [
  { name: "types", emit: emitTypes },
  { name: "validators", emit: emitValidators },
  { name: "methods", emit: emitMethods },
  { name: "index", emit: emitIndex },
];
