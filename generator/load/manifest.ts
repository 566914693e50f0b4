/**
 * Loads `mcp.manifest.json`: read, parse (syntax errors with line and column), validate against
 * `schema/manifest.schema.json` reporting every error, then the semantic and tool-schema checks.
 * Any error throws `InputError` carrying all diagnostics; warnings come back with the manifest.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { InputError, type Diagnostic } from "./diagnostics.js";
import { JsonSyntaxError, parseJsonWithPositions, positionAt, type ParsedJson } from "./json-positions.js";
import { KNOWN_REVISIONS, type Manifest } from "./manifest-format.js";
import { checkManifestSemantics } from "./manifest-checks.js";
import { checkToolSchema } from "./tool-schema-check.js";
import { isPlainObject } from "../json-schema/walk.js";
import { didYouMean } from "./did-you-mean.js";
import { mcpDefinitions } from "./mcp-definitions.js";
import { bundledRevisions } from "./schema-manifest.js";
import { checkWireKeys } from "./wire-keys.js";
import { loadSkills, type SkillModel } from "./skills.js";
import { checkApps, type ResourceFiles } from "./apps.js";
import type { ManifestNames } from "../names/index.js";
import { schemaDir } from "../paths.js";

export interface LoadedManifest {
  /** The file as the caller named it (used in diagnostics and banners). */
  file: string;
  sha256: string;
  manifest: Manifest;
  /** Warnings (errors throw). */
  diagnostics: Diagnostic[];
  names: ManifestNames;
  /** Pointers of tool schemas typed as `Record<string, unknown>` (broken or empty). */
  fallbackSchemas: Set<string>;
  /** The declared skills, read from their folders or inline files. */
  skills: SkillModel[];
  /** Content of the resources served from a `file`, by index in `resources`. */
  resourceFiles: ResourceFiles;
  /** The manifest declares MCP App views (`ui://` resources) or links a tool to one. */
  apps: boolean;
  /** Line and column of the value at a JSON pointer (nearest enclosing value when absent). */
  locate(pointer: string): { line?: number; column?: number };
}

export function manifestSchemaPath(): string {
  return join(schemaDir, "manifest.schema.json");
}

interface Validators {
  manifest: ValidateFunction;
  meta: ValidateFunction;
  /** The manifest schema itself (the wire-key check reads which keys mcpgen's format lists). */
  schema: { [key: string]: unknown };
}
let compiled: Validators | undefined; // compiled once per process: the schema is a package file

function validators(): Validators {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, verbose: true });
  const schema = JSON.parse(readFileSync(manifestSchemaPath(), "utf8")) as {
    definitions: { Tool: { properties: Record<string, { allOf?: unknown }> } };
  };
  // The meta-schema reference on tool schemas is for editors' completion; here checkToolSchema
  // checks them, in their own dialect and with --lenient, so the manifest pass skips them.
  for (const role of ["inputSchema", "outputSchema"]) delete schema.definitions.Tool.properties[role]!.allOf;
  const manifest = ajv.compile(schema);
  const meta = ajv.getSchema("http://json-schema.org/draft-07/schema");
  if (!meta) throw new Error("ajv draft-07 meta-schema missing");
  compiled = { manifest, meta, schema };
  return compiled;
}

function describeAjvError(e: ErrorObject): { pointer: string; message: string } {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { pointer: e.instancePath, message: `missing required property ${JSON.stringify(p.missingProperty)}` };
    case "additionalProperties":
      return {
        pointer: `${e.instancePath}/${String(p.additionalProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`,
        message: unknownKeyMessage(e),
      };
    case "enum":
      return {
        pointer: e.instancePath,
        message: `expected one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "type":
      return { pointer: e.instancePath, message: `expected ${String(p.type)}` };
    case "pattern":
      return {
        pointer: e.instancePath,
        message: e.instancePath.endsWith("/uri")
          ? "expected an absolute URI with a scheme (e.g. file:///..., weather://...)"
          : `expected a string matching ${String(p.pattern)}`,
      };
    default:
      return { pointer: e.instancePath, message: `expected: ${e.message ?? e.keyword}` };
  }
}

/** mcpgen's own objects are closed (the MCP wire objects are open: wire-keys.ts). */
function unknownKeyMessage(e: ErrorObject): string {
  const key = String((e.params as { additionalProperty: unknown }).additionalProperty);
  const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const near = didYouMean(key, known);
  return `unknown property ${JSON.stringify(key)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : " (not allowed here)"}`;
}

export interface ParseManifestOptions {
  /** Tool schemas that are not valid JSON Schema are warnings (typed `Record<string, unknown>`), not errors: for schemas captured from servers. */
  lenient?: boolean;
  /** Where the manifest's relative paths (a skill's `dir`, a resource's `file`) start; default the current directory. */
  baseDir?: string;
  /**
   * Read the files the manifest names (skill folders, resource files); default true. Comparing
   * contracts (`breaking`, against a git revision whose folders are not on disk) needs none of them.
   */
  readFiles?: boolean;
}

/** Parses and checks manifest text; `file` is how diagnostics name it. */
export function parseManifest(text: string, file: string, options: ParseManifestOptions = {}): LoadedManifest {
  const diagnostics: Diagnostic[] = [];
  const at = (parsed: ParsedJson | undefined, pointer: string): { line?: number; column?: number } => {
    for (let p = pointer; parsed; p = p.slice(0, p.lastIndexOf("/"))) {
      const offset = parsed.positions.get(p);
      if (offset !== undefined) return positionAt(text, offset);
      if (p === "") break;
    }
    return {};
  };
  let parsed: ParsedJson;
  try {
    parsed = parseJsonWithPositions(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw new InputError(file, [
      { severity: "error", file, pointer: "", message: `invalid JSON: ${e.message}`, ...positionAt(text, e.offset) },
    ]);
  }
  const add = (d: Omit<Diagnostic, "file">) => diagnostics.push({ ...d, file, ...at(parsed, d.pointer) });

  for (const dup of parsed.duplicateKeys)
    add({
      severity: "error",
      pointer: dup.pointer,
      message: "duplicate key in object (JSON.parse would silently keep the last one)",
    });
  if (!isPlainObject(parsed.value)) {
    add({ severity: "error", pointer: "", message: "expected a JSON object (an MCP server manifest)" });
    throw new InputError(file, diagnostics);
  }
  const v = validators();
  if (!v.manifest(parsed.value)) {
    const seen = new Set<string>();
    for (const e of v.manifest.errors ?? []) {
      const { pointer, message } = describeAjvError(e);
      const key = pointer + "\u0000" + message;
      if (seen.has(key)) continue;
      seen.add(key);
      add({ severity: "error", pointer, message });
    }
  }
  const manifest = parsed.value as unknown as Manifest;
  const { problems, names } = checkManifestSemantics(manifest);
  problems.forEach(add);

  const revisions = Array.isArray(manifest.revisions) ? manifest.revisions : [...KNOWN_REVISIONS];
  const bundled = bundledRevisions();
  checkWireKeys({
    manifest: parsed.value,
    manifestSchema: v.schema,
    spoken: bundled.filter((r) => (revisions as string[]).includes(r)),
    bundled,
    definitionsOf: mcpDefinitions,
  }).forEach(add);
  const legacyStructured = revisions.some((r) => r === "2025-06-18" || r === "2025-11-25");
  const fallbackSchemas = new Set<string>();
  (Array.isArray(manifest.tools) ? manifest.tools : []).forEach((tool, i) => {
    if (!isPlainObject(tool)) return;
    for (const role of ["inputSchema", "outputSchema"] as const) {
      if (!(role in tool)) continue;
      const pointer = `/tools/${i}/${role}`;
      const r = checkToolSchema(tool[role], pointer, role, v.meta, legacyStructured, options.lenient ?? false);
      r.diagnostics.forEach(add);
      if (r.fallback) fallbackSchemas.add(pointer);
      if (r.repaired !== undefined) (tool as { [key: string]: unknown })[role] = r.repaired;
    }
  });

  const readFiles = options.readFiles ?? true;
  const skills = readFiles
    ? loadSkills(manifest.skills, options.baseDir ?? process.cwd())
    : { skills: [], problems: [] };
  skills.problems.forEach(add);
  const apps = checkApps(parsed.value, options.baseDir ?? process.cwd(), readFiles);
  apps.problems.forEach(add);

  const errors = diagnostics.filter((d) => d.severity === "error");
  const sorted = sortDiagnostics(diagnostics);
  if (errors.length) throw new InputError(file, sorted);
  return {
    file,
    sha256: createHash("sha256").update(text).digest("hex"),
    manifest,
    diagnostics: sorted,
    names,
    fallbackSchemas,
    skills: skills.skills,
    resourceFiles: apps.files,
    apps: apps.apps,
    locate: (pointer) => at(parsed, pointer),
  };
}

/** Document order (line, then column), so reports read top to bottom. */
function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0),
  );
}

/** Reads and checks a manifest file; `display` names it in diagnostics (default: the path as given). */
export function loadManifest(path: string, display = path, options: ParseManifestOptions = {}): LoadedManifest {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a directory, expected a JSON file"
          : `cannot read (${code ?? String(e)})`;
    throw new InputError(display, [{ severity: "error", file: display, pointer: "", message: why }]);
  }
  return parseManifest(text, display, { baseDir: dirname(path), ...options });
}
