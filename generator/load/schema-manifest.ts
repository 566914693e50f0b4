import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpgenError, pointer } from "../errors.js";
import { schemaDir } from "../paths.js";

/** `schema/manifest.json`: the vendored upstream files with their sha256 and size. */
export interface SchemaManifest {
  upstream: { repository: string; commit: string; date: string; path: string };
  revisions: string[];
  /** Keyed by path relative to schema/, e.g. `2025-11-25/schema.json`. */
  files: Record<string, { sha256: string; bytes: number }>;
}

const manifestFile = "schema/manifest.json";
let cached: SchemaManifest | undefined;

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function readSchemaManifest(): SchemaManifest {
  if (cached) return cached;
  const parsed = JSON.parse(readFileSync(join(schemaDir, "manifest.json"), "utf8")) as SchemaManifest;
  if (!Array.isArray(parsed.revisions) || typeof parsed.files !== "object" || parsed.files === null) {
    throw new McpgenError("malformed schema manifest", { file: manifestFile, expected: "`revisions` and `files`" });
  }
  cached = parsed;
  return parsed;
}

/** Revision ids bundled with mcpgen, oldest first. */
export function bundledRevisions(): string[] {
  return [...readSchemaManifest().revisions].sort();
}

export function bundledSchemaPath(revision: string): string {
  return join(schemaDir, revision, "schema.json");
}

/** Throws unless `bytes` are exactly the bundled file `relPath` (relative to schema/) the manifest lists. */
export function verifyBundledFile(relPath: string, bytes: Uint8Array): string {
  const entry = readSchemaManifest().files[relPath];
  if (!entry) {
    throw new McpgenError(`${relPath} is not listed`, { file: manifestFile, pointer: pointer("files", relPath) });
  }
  const hash = sha256(bytes);
  if (hash !== entry.sha256 || bytes.length !== entry.bytes) {
    throw new McpgenError(
      `bundled file schema/${relPath} does not match schema/manifest.json: sha256 ${hash} (${bytes.length} bytes)`,
      {
        file: manifestFile,
        pointer: pointer("files", relPath),
        expected: `sha256 ${entry.sha256} (${entry.bytes} bytes)`,
      },
    );
  }
  return hash;
}
