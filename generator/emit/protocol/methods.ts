/**
 * Emits `table.ts`: the dispatch table of one revision as data (`MethodInfo` per JSON-RPC
 * method), plus the revision facts the runtime keys on. Behaviour stays in the runtime. The
 * file's skeleton is `templates/protocol/table.ts.hbs`; every value is JSON-encoded here. And
 * `methods.ts`, the `@mcpgen/runtime/protocol/<rev>/methods` entry: the table with every loader of
 * `loaders.ts`. The table is a module of its own so that the per-role entries (`server-side.ts`,
 * `client-side.ts`) share it without reaching the other role's loaders.
 */
import type { EmittedFile, MethodDef, ProtocolModel } from "../../model/ir.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";

const json = (v: unknown): string => JSON.stringify(v);

export function methodsView(model: ProtocolModel) {
  return {
    abi: runtimeImports.abi,
    revision: model.revision,
    revisionLiteral: json(model.revision),
    eraLiteral: json(model.era),
    eraDoc:
      model.era === "legacy"
        ? "Legacy era: sessions start with the initialize handshake."
        : "Modern era: stateless, no handshake, per-request _meta.",
    batching: model.batching,
    methods: model.methods.map(methodInfo),
  };
}

/** `methods.ts`: the table with every loader of `loaders.ts`. */
export function methodsEntryView(model: ProtocolModel) {
  return { revision: model.revision, entry: runtimeImports.protocol(model.revision, "methods") };
}

export function emitMethods(model: ProtocolModel): EmittedFile[] {
  return [
    renderFile("protocol", "methods.ts", methodsEntryView(model)),
    renderFile("protocol", "table.ts", methodsView(model)),
  ];
}

/** A method's row of a table (`MethodInfo`), every value JSON-encoded for the templates. */
export function methodInfo(m: MethodDef) {
  return {
    method: json(m.method),
    kind: json(m.kind),
    from: json(m.from),
    capability: json(m.capability),
    paramsRequired: json(m.paramsRequired),
    // Inline params have no definition of their own; name them by where they live.
    paramsType: json(m.paramsType ?? (m.paramsPointer === null ? null : `${m.messageType}["params"]`)),
    resultType: json(m.resultType),
  };
}
