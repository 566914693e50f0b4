/**
 * `bindings.ts` of a manifest's output: the protocol bindings its server and client speak,
 * imported from the installed runtime (`@mcpgen/runtime/protocol/<rev>`, built from mcpgen's
 * `generated/<rev>/`), so they ship once instead of being copied into every project. Every
 * bundled revision can be spoken: the runtime serves the legacy era (initialize, sessions) and
 * 2026-07-28 (per-request `_meta`). The module states the runtime ABI it was generated for and
 * fails at start, with a message saying what to do, when the installed runtime has another one.
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

/**
 * The runtime ABI (`ABI_VERSION` of `@mcpgen/runtime/abi`) generated code is written for; a test
 * keeps it equal to the runtime's.
 */
export const RUNTIME_ABI = 1;

/** Unbannered, laid out as prettier prints it (a handful of short lines). */
export function bindingsModule(spoken: readonly string[]): EmittedFile {
  const id = (rev: string) => `b${rev.replaceAll("-", "_")}`;
  const contents =
    `import { ABI_VERSION, type ProtocolBinding } from "@mcpgen/runtime/abi";\n` +
    spoken.map((rev) => `import { binding as ${id(rev)} } from "@mcpgen/runtime/protocol/${rev}";\n`).join("") +
    `\n/** The @mcpgen/runtime ABI this output was generated for. */\n` +
    `export const abiVersion = ${RUNTIME_ABI};\n` +
    `if (ABI_VERSION !== abiVersion) {\n` +
    `  throw new Error(\n` +
    `    \`this code was generated for @mcpgen/runtime ABI \${abiVersion}, but the installed @mcpgen/runtime has ABI \${ABI_VERSION}: \` +\n` +
    `      "install the @mcpgen/runtime that matches your mcpgen, or regenerate with the mcpgen that matches your runtime",\n` +
    `  );\n` +
    `}\n` +
    `\n/** The protocol revisions this server and client speak, preferred first. */\n` +
    `export const bindings: readonly ProtocolBinding[] = [${spoken.map(id).join(", ")}];\n`;
  return { path: "bindings.ts", contents };
}
