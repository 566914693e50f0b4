/**
 * `bindings.ts` of a manifest's output: the protocol bindings of both roles, for the low-level API
 * (the generated server.ts and client.ts write their own role's list with the same heads),
 * imported from the installed runtime (`@mcpgen/runtime/protocol/<rev>`, built from mcpgen's
 * `generated/<rev>/`), so they ship once instead of being copied into every project. Each
 * revision's method table is behind an `import()` thunk, loaded when a connection first uses the
 * revision (its head, version string, era and batching, is written here); its validators load
 * per method after that. Every
 * bundled revision can be spoken: the runtime serves the legacy era (initialize, sessions) and
 * 2026-07-28 (per-request `_meta`). The module states the runtime ABI it was generated for and
 * fails at start, with a message saying what to do, when the installed runtime has another one.
 */
import type { EmittedFile } from "../../model/ir.js";
import { readOverlay } from "../../model/overlay.js";
import { renderFile } from "../files.js";
import { abiCheck, runtimeImports, type ProtocolEntry } from "../runtime-imports.js";
import type { ServerModel } from "../../model/server-ir.js";
import { byName, quotedForDoc, serverBaseName } from "./definition.js";

/**
 * What a file linking the runtime writes (server.ts, client.ts, bindings.ts): the ABI check and
 * each revision's head (what negotiation and era routing need) with the entry `entry` of its
 * bindings to import when a connection first uses it, so nothing of a revision loads before.
 */
function runtimeLink(spoken: readonly string[], entry: ProtocolEntry, abiExported = false) {
  const revisions = spoken.map((revision) => {
    const { era, batching } = readOverlay(revision);
    return {
      revision,
      era,
      batching: String(batching),
      module: runtimeImports.protocol(revision, entry),
      // the namespace a bundled deployment's client.ts imports it as (`target: "workers"`)
      binding: `revision_${revision.replace(/[^A-Za-z0-9]/g, "_")}`,
    };
  });
  return { abiCheck: abiCheck(abiExported), revisions };
}

/** The head both facades' views share: names, the runtime's ABI entry, the type imports and the protocol modules of `entry`. */
export function facadeHead(
  model: ServerModel,
  spoken: readonly string[],
  entry: "server-side" | "client-side",
  types: string[],
) {
  return {
    name: serverBaseName(model),
    serverName: quotedForDoc(model.identity.name),
    abi: runtimeImports.abi,
    imports: types.sort(byName),
    ...runtimeLink(spoken, entry),
    needsTypes: model.tools.length + model.prompts.length + model.resourceTemplates.length > 0,
  };
}

/** `staticImports`: a bundled deployment's (`target: "workers"`), each revision's entry imported statically. */
export function bindingsView(spoken: readonly string[], staticImports = false) {
  return { abi: runtimeImports.abi, ...runtimeLink(spoken, "methods", true), staticImports };
}

/** Unbannered; the template's skeleton is in `templates/output/bindings.ts.hbs`, prettier lays it out. */
export function bindingsModule(spoken: readonly string[], staticImports = false): EmittedFile {
  return renderFile("manifest", "bindings.ts", bindingsView(spoken, staticImports));
}
