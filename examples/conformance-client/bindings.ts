/** The protocol revisions this client speaks: mcpgen's generated bindings (method tables + validators). */
import type { ProtocolBinding } from "@mcpgen/runtime";
import { binding as rev20250326 } from "@mcpgen/runtime/protocol/2025-03-26";
import { binding as rev20250618 } from "@mcpgen/runtime/protocol/2025-06-18";
import { binding as rev20251125 } from "@mcpgen/runtime/protocol/2025-11-25";
import { binding as rev20260728 } from "@mcpgen/runtime/protocol/2026-07-28";

/** Newest first; 2025-03-26 is needed because 0.1.16's sse-retry mock answers initialize with it. */
export const bindings: readonly ProtocolBinding[] = [rev20251125, rev20250618, rev20250326];

/** For the 2026-07-28 wire: the dual-era client probes with 2026-07-28 and could fall back to the others. */
export const dualBindings: readonly ProtocolBinding[] = [rev20260728, ...bindings];
