import { readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { McpgenError } from "../errors.js";
import type { Dialect, SchemaSource } from "../model/ir.js";
import { parseJson } from "./json.js";
import {
  bundledRevisions,
  bundledSchemaPath,
  readSchemaManifest,
  sha256,
  verifyBundledFile,
} from "./schema-manifest.js";

/** A schema document read from disk, checked to be an MCP schema, not yet modelled. */
export interface LoadedSchema {
  source: SchemaSource;
  /** The bundled revision whose bytes these are (also when given by path), else null. */
  bundled: string | null;
  /** The revision the input declares: the bundled id, the `revision` option, or a `YYYY-MM-DD` directory name. */
  revision: string | null;
  dialect: Dialect;
  defsKey: "definitions" | "$defs";
  document: { [key: string]: unknown };
}

export interface LoadOptions {
  /** Resolves relative paths and makes `display` relative; defaults to process.cwd(). */
  cwd?: string;
  /** Revision id to use for an unbundled schema whose directory name does not say it. */
  revision?: string;
}

const revisionPattern = /^\d{4}-\d{2}-\d{2}$/;
const expectedShape = "a `definitions` or `$defs` object containing JSONRPCRequest";

/** Reads `input`: a bundled revision id (`2025-11-25`) or a path to any MCP `schema.json`. */
export function loadSchema(input: string, options: LoadOptions = {}): LoadedSchema {
  const cwd = options.cwd ?? process.cwd();
  const bundled = bundledRevisions();
  let display: string;
  let bytes: Buffer;
  let bundledRevision: string | null = null;
  let pathRevision: string | null = null;

  if (bundled.includes(input)) {
    display = input;
    bytes = readFileSync(bundledSchemaPath(input));
    verifyBundledFile(`${input}/schema.json`, bytes);
    bundledRevision = input;
  } else {
    const abs = resolve(cwd, input);
    display = displayPath(cwd, abs);
    bytes = readInput(abs, display, input, bundled);
    const dir = basename(dirname(abs));
    if (revisionPattern.test(dir)) pathRevision = dir;
    bundledRevision = matchBundled(bytes);
  }

  const hash = sha256(bytes);
  const document = parseJson(bytes.toString("utf8"), display);
  const { dialect, defsKey } = detectDialect(document, display);
  return {
    source: { display, sha256: hash },
    bundled: bundledRevision,
    revision: bundledRevision ?? options.revision ?? pathRevision,
    dialect,
    defsKey,
    document: document as { [key: string]: unknown },
  };
}

function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  // Outside cwd on another drive there is no relative form; the name is still better than nothing.
  const shown = rel === "" ? "." : isAbsolute(rel) ? abs : rel;
  return shown.split(sep).join("/");
}

function readInput(abs: string, display: string, input: string, bundled: string[]): Buffer {
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      const hint = revisionPattern.test(input)
        ? `; ${input} is not a bundled revision (bundled: ${bundled.join(", ")})`
        : "";
      throw new McpgenError(`schema file not found${hint}`, {
        file: display,
        expected: `a bundled revision id (${bundled.join(", ")}) or a path to a schema.json`,
      });
    }
    throw new McpgenError(`cannot read schema file: ${code ?? String(e)}`, { file: display });
  }
  if (isDir) throw new McpgenError("is a directory", { file: display, expected: "a path to a schema.json file" });
  try {
    return readFileSync(abs);
  } catch (e) {
    throw new McpgenError(`cannot read schema file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, {
      file: display,
    });
  }
}

/** A path to a byte-identical copy of a bundled schema gets that revision's reviewed overlay. */
function matchBundled(bytes: Buffer): string | null {
  const hash = sha256(bytes);
  const files = readSchemaManifest().files;
  for (const rev of bundledRevisions()) if (files[`${rev}/schema.json`]?.sha256 === hash) return rev;
  return null;
}

function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function detectDialect(doc: unknown, file: string): { dialect: Dialect; defsKey: "definitions" | "$defs" } {
  if (!isObject(doc)) {
    throw new McpgenError("not an MCP schema: the document is not a JSON object", {
      file,
      pointer: "",
      expected: `a JSON Schema object with ${expectedShape}`,
    });
  }
  const declared = typeof doc.$schema === "string" ? doc.$schema : undefined;
  let defsKey: "definitions" | "$defs";
  if (isObject(doc.$defs) && !isObject(doc.definitions)) defsKey = "$defs";
  else if (isObject(doc.definitions) && !isObject(doc.$defs)) defsKey = "definitions";
  else if (isObject(doc.$defs) && isObject(doc.definitions))
    defsKey = declared?.includes("draft-07") ? "definitions" : "$defs";
  else throw new McpgenError("not an MCP schema: no definitions", { file, pointer: "", expected: expectedShape });

  let dialect: Dialect;
  if (declared === undefined) dialect = defsKey === "$defs" ? "2020-12" : "draft-07";
  else if (declared.includes("2020-12")) dialect = "2020-12";
  else if (declared.includes("draft-07")) dialect = "draft-07";
  else {
    throw new McpgenError(`unsupported JSON Schema dialect ${JSON.stringify(declared)}`, {
      file,
      pointer: "/$schema",
      expected: "draft-07 or 2020-12",
    });
  }
  const defs = doc[defsKey] as { [key: string]: unknown };
  if (!isObject(defs.JSONRPCRequest)) {
    throw new McpgenError("not an MCP schema: JSONRPCRequest is not defined", {
      file,
      pointer: `/${defsKey}`,
      expected: expectedShape,
    });
  }
  return { dialect, defsKey };
}
