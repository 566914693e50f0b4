/**
 * Which of a manifest's revisions the runtime can serve: the bundled ones of an era it speaks (the
 * legacy lifecycle, 2024-11-05 … 2025-11-25, and the stateless 2026-07-28), in the manifest's order.
 */
import { McpgenError } from "../errors.js";
import { bundledRevisions } from "../load/schema-manifest.js";
import { readOverlay } from "./overlay.js";

/** The manifest's revisions (preferred first) that the runtime can serve; an error when none. */
export function servedRevisions(revisions: readonly string[], manifest: string): string[] {
  const served = bundledRevisions().filter((r) => readOverlay(r).era === "legacy" || readOverlay(r).era === "modern");
  const spoken = revisions.filter((r) => served.includes(r));
  if (spoken.length === 0) {
    throw new McpgenError(`none of the revisions ${revisions.join(", ")} is one the runtime can serve`, {
      file: manifest,
      pointer: "/revisions",
      expected: `at least one of ${served.join(", ")}`,
    });
  }
  return spoken;
}
