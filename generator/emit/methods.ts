/**
 * Emits `methods.ts`: the dispatch table of one revision as data (`MethodInfo` per JSON-RPC
 * method), plus the revision facts the runtime keys on. Behaviour stays in the runtime.
 */
import type { EmittedFile, MethodDef, ProtocolModel } from "../model/ir.js";

export function emitMethods(model: ProtocolModel): EmittedFile[] {
  const entries = model.methods.map((m) => `  ${JSON.stringify(m.method)}: ${methodInfo(m)},`);
  const contents = `import type { MethodTable } from "@mcpgen/runtime/abi";

/** The MCP protocol revision these bindings speak (the \`protocolVersion\` string). */
export const revision = ${JSON.stringify(model.revision)};

/** ${model.era === "legacy" ? "Legacy era: sessions start with the initialize handshake." : "Modern era: stateless, no handshake, per-request _meta."} */
export const era = ${JSON.stringify(model.era)};

/** Whether JSON-RPC batches are allowed on the wire. */
export const batching = ${model.batching};

/**
 * Dispatch metadata of every JSON-RPC method of MCP ${model.revision}: who may send it, the
 * capability the receiver must have advertised, and the schema types of params and result.
 */
export const methods = {
${entries.join("\n")}
} as const satisfies MethodTable;
`;
  return [{ path: "methods.ts", contents }];
}

function methodInfo(m: MethodDef): string {
  const info = {
    kind: m.kind,
    from: m.from,
    capability: m.capability,
    paramsRequired: m.paramsRequired,
    // Inline params have no definition of their own; name them by where they live.
    paramsType: m.paramsType ?? (m.paramsPointer === null ? null : `${m.messageType}["params"]`),
    resultType: m.resultType,
  };
  return `{ ${Object.entries(info)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ")} }`;
}
