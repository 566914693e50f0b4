/**
 * `bindings.ts` of a manifest's output: the protocol bindings its server and client speak, which
 * generate() writes next to it under `protocol/<rev>/`. Every bundled revision can be spoken: the
 * runtime serves the legacy era (initialize, sessions) and 2026-07-28 (per-request `_meta`).
 */
import { McpgenError } from "../errors.js";
import { bundledRevisions } from "../load/schema-manifest.js";
import type { EmittedFile } from "../model/ir.js";
import { readOverlay } from "../model/overlay.js";

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

/** Unbannered, laid out as prettier prints it (a handful of short lines). */
export function bindingsModule(spoken: readonly string[]): EmittedFile {
  const id = (rev: string) => `b${rev.replaceAll("-", "_")}`;
  const contents =
    `import type { ProtocolBinding } from "@mcpgen/runtime/abi";\n` +
    spoken.map((rev) => `import { binding as ${id(rev)} } from "./protocol/${rev}/index.js";\n`).join("") +
    `\n/** The protocol revisions this server and client speak, preferred first. */\n` +
    `export const bindings: readonly ProtocolBinding[] = [${spoken.map(id).join(", ")}];\n`;
  return { path: "bindings.ts", contents };
}
