/**
 * ProtocolBindings for runtime tests: the generated bindings checked in under generated/, so the
 * runtime is tested against exactly what users link.
 */
import type { ProtocolBinding } from "@mcpgen/runtime";
import { binding as b20241105 } from "@mcpgen/runtime/protocol/2024-11-05";
import { binding as b20250326 } from "@mcpgen/runtime/protocol/2025-03-26";
import { binding as b20250618 } from "@mcpgen/runtime/protocol/2025-06-18";
import { binding as b20251125 } from "@mcpgen/runtime/protocol/2025-11-25";
import { binding as b20260728 } from "@mcpgen/runtime/protocol/2026-07-28";

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export const bindings: ProtocolBinding[] = [b20241105, b20250326, b20250618, b20251125];
export const latest = bindings[bindings.length - 1]!;
export const byRevision = (rev: string): ProtocolBinding => {
  const b = bindings.find((x) => x.revision === rev);
  if (!b) throw new Error(`no test binding for ${rev}`);
  return b;
};

/** The 2026-07-28 binding (kept out of `bindings`, which the legacy-era tests use as "every legacy revision"). */
export const modern: ProtocolBinding = b20260728;
/** What a dual-era client is given: 2026-07-28 plus every legacy revision. */
export const dual: ProtocolBinding[] = [b20260728, ...bindings];
