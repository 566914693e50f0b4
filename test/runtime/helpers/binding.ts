/**
 * ProtocolBindings for runtime tests: real method tables and ajv validators from the vendored
 * schemas (see schema-binding.ts). Swap for `generated/<rev>/index.ts` once those are on main.
 */
import type { ProtocolBinding } from "@mcpgen/runtime";
import { schemaBinding } from "./schema-binding.js";

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export const bindings: ProtocolBinding[] = REVISIONS.map(schemaBinding);
export const latest = bindings[bindings.length - 1]!;
export const byRevision = (rev: string): ProtocolBinding => {
  const b = bindings.find((x) => x.revision === rev);
  if (!b) throw new Error(`no test binding for ${rev}`);
  return b;
};
