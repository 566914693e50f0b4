/** Choosing among the legacy revisions a side was given. */
import type { ProtocolBinding } from "../../abi.js";
import { tableLoaded } from "../../lazy-binding.js";

/** Legacy bindings, newest first (revision ids are ISO dates, so they sort as strings). */
export function legacyBindings(bindings: readonly ProtocolBinding[], who: string): ProtocolBinding[] {
  const legacy = bindings
    .filter((b) => b.era === "legacy")
    .sort((a, b) => (a.revision < b.revision ? 1 : a.revision > b.revision ? -1 : 0));
  if (legacy.length === 0) {
    throw new TypeError(
      `${who}: no legacy protocol binding given (bindings: ${bindings.map((b) => b.revision).join(", ") || "none"})`,
    );
  }
  return legacy;
}

export function findBinding(bindings: readonly ProtocolBinding[], revision: unknown): ProtocolBinding | undefined {
  for (const b of bindings) if (b.revision === revision) return b;
  return undefined;
}

/**
 * The method's metadata from the newest revision that defines it (for checks made before
 * negotiation), among those whose method table is loaded (tables load on first use).
 */
export function methodInfoAnyRevision(bindings: readonly ProtocolBinding[], method: string) {
  for (const b of bindings) {
    if (!tableLoaded(b)) continue;
    const info = b.methods[method];
    if (info !== undefined && typeof info === "object") return info;
  }
  return undefined;
}
