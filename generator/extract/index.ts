/**
 * Code-first authoring: a TypeScript module of typed handlers → `mcp.manifest.json`.
 * Stages: load (project.ts) → find the entries (entries.ts) → types to schemas (schema.ts,
 * keywords.ts, jsdoc.ts) → manifest objects (manifest.ts) → checked by the same manifest loader
 * `generate --manifest` uses, so what `extract` writes always generates.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Project, SourceFile } from "ts-morph";
import { McpgenError } from "../errors.js";
import { InputError, type Diagnostic } from "../load/diagnostics.js";
import { parseManifest } from "../load/manifest.js";
import { findEntries } from "./entries.js";
import { buildSections } from "./manifest.js";
import { layoutJson } from "./json-layout.js";
import { findUp, loadSource } from "./project.js";
import { Problems } from "./problems.js";

export interface ExtractOptions {
  /** Working directory (default process.cwd()); paths and messages are relative to it. */
  cwd?: string;
  /** Server name; default: the `name` of the nearest package.json above the source (scope dropped). */
  name?: string;
  /** Server version; default: that package.json's `version`, else 0.0.0. */
  version?: string;
}

export interface ExtractResult {
  manifest: { [key: string]: unknown };
  /** The manifest as written: JSON as prettier prints it (width 120), ending in a newline. */
  text: string;
  warnings: Diagnostic[];
  /** Absolute paths of the project's own source files the extraction read (watch mode watches them). */
  sources: string[];
}

export async function extractManifest(source: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  const cwd = options.cwd ?? process.cwd();
  const abs = resolve(cwd, source);
  const display = relative(cwd, abs).split("\\").join("/") || abs;
  const { project, file } = loadSource(abs, display);
  return extractFrom(project, file, { ...options, cwd });
}

/** Extraction from a module already loaded (tests load many modules into one project). */
export async function extractFrom(
  project: Project,
  file: SourceFile,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  const cwd = options.cwd ?? process.cwd();
  const abs = file.getFilePath();
  const display = relative(cwd, abs).split("\\").join("/") || abs;
  const problems = new Problems(cwd);
  const found = findEntries(file, project.getTypeChecker(), problems);
  const sections = buildSections(found.entries, problems);
  problems.throwIfErrors(display);
  const manifest: { [key: string]: unknown } = { ...serverInfo(abs, display, options) };
  for (const key of ["tools", "resources", "resourceTemplates", "prompts"] as const)
    if (sections[key].length > 0) manifest[key] = sections[key];
  if (found.completions) manifest.capabilities = { completions: {} };
  const text = layoutJson(manifest);
  try {
    parseManifest(text, `${display} (extracted manifest)`);
  } catch (e) {
    if (e instanceof InputError)
      throw new McpgenError(`the extracted manifest is invalid: ${e.message}`, { file: display });
    throw e;
  }
  const sources = project
    .getSourceFiles()
    .map((f) => f.getFilePath() as string)
    .filter((f) => !f.includes("/node_modules/") && !f.endsWith(".d.ts"))
    .sort();
  return { manifest, text, warnings: problems.warnings, sources };
}

function serverInfo(
  abs: string,
  display: string,
  options: ExtractOptions,
): { name: string; version: string; description?: string } {
  const pkgPath = findUp(dirname(abs), "package.json");
  let pkg: { name?: unknown; version?: unknown; description?: unknown } = {};
  if (pkgPath) {
    try {
      pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as typeof pkg;
    } catch {
      pkg = {};
    }
  }
  const pkgName = typeof pkg.name === "string" ? pkg.name.replace(/^@[^/]+\//, "") : undefined;
  const name = options.name ?? pkgName;
  if (!name)
    throw new McpgenError("no server name: pass --name, or put the source under a package.json with a name", {
      file: display,
    });
  const version = options.version ?? (typeof pkg.version === "string" ? pkg.version : "0.0.0");
  const out: { name: string; version: string; description?: string } = { name, version };
  if (options.name === undefined && typeof pkg.description === "string" && pkg.description)
    out.description = pkg.description;
  return out;
}

/** Writes `text` to `path` through a temporary sibling (never half-written); false when unchanged. */
export function writeManifest(path: string, text: string): boolean {
  if (existsSync(path) && readFileSync(path, "utf8") === text) return false;
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return true;
}
