import { loadSchema } from "../../../generator/load/index.js";
import { buildModel, type ProtocolModel } from "../../../generator/model/index.js";

/** The five bundled revisions, oldest first. */
export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type Revision = (typeof REVISIONS)[number];

/** The protocol model of a bundled revision, as the pipeline builds it. */
export function revisionModel(revision: Revision): ProtocolModel {
  return buildModel(loadSchema(revision));
}
