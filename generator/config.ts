import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { McpgenError, pointer, usageError } from "./errors.js";
import { parseJson } from "./load/json.js";
import { bundledRevisions } from "./load/schema-manifest.js";
import { packageRoot } from "./paths.js";

/** One schema (or one server manifest) -> one output directory. */
export interface Target {
  /** Bundled revision id or path (relative to cwd) of a schema.json; "" for a manifest target. */
  schema: string;
  /** Path (relative to cwd) of an `mcp.manifest.json`: the target is that server's bindings. */
  manifest?: string;
  /** Absolute output directory. */
  out: string;
  /** Revision id for an unbundled schema whose directory does not name it. */
  revision?: string;
}

export interface TargetOptions {
  schema?: string;
  /** Server manifest (`mcp.manifest.json`) to generate typed server/client bindings from. */
  manifest?: string;
  out?: string;
  revision?: string;
  cwd?: string;
  /** Config file to read; default `mcpgen.config.json` in cwd when it exists; false = none. */
  config?: string | false;
}

export const configFileName = "mcpgen.config.json";

interface ConfigTarget {
  schema?: string;
  manifest?: string;
  out?: string;
  revision?: string;
}

interface ConfigFile extends ConfigTarget {
  targets?: ConfigTarget[];
}

/**
 * Which schemas go where: flags override the config file; with neither, every bundled revision
 * goes into `generated/<revision>/` of the mcpgen package (how this repository's own bindings are
 * built and checked).
 */
export function resolveTargets(options: TargetOptions): Target[] {
  const cwd = options.cwd ?? process.cwd();
  const config = readConfig(cwd, options.config);
  const flagsGiven =
    options.schema !== undefined || options.manifest !== undefined || options.out !== undefined || options.revision !== undefined;
  let targets: Target[];
  if (flagsGiven || (config && !config.file.targets)) {
    if (options.schema !== undefined && options.manifest !== undefined) throw usageError("give --schema or --manifest, not both");
    // a flag chooses the kind of target; the config fills in the rest
    const manifest = options.schema !== undefined ? undefined : (options.manifest ?? config?.file.manifest);
    const schema = manifest !== undefined ? "" : (options.schema ?? config?.file.schema);
    const out = options.out ?? config?.file.out;
    if (config?.file.targets && ((options.schema === undefined && options.manifest === undefined) || options.out === undefined)) {
      throw usageError(`${configFileName} lists targets; give both --schema and --out to override them (or --manifest and --out)`);
    }
    if (schema === undefined) throw usageError(`missing --schema or --manifest (or "schema"/"manifest" in ${configFileName})`);
    if (out === undefined) throw usageError(`missing --out (or "out" in ${configFileName})`);
    const revision = options.revision ?? config?.file.revision;
    if (manifest !== undefined && options.revision !== undefined) throw usageError("--revision applies to --schema, not --manifest");
    targets = [
      manifest !== undefined
        ? { schema: "", manifest, out: resolve(cwd, out) }
        : { schema, out: resolve(cwd, out), ...(revision === undefined ? {} : { revision }) },
    ];
  } else if (config?.file.targets) {
    targets = config.file.targets.map((t) =>
      t.manifest !== undefined
        ? { schema: "", manifest: t.manifest, out: resolve(cwd, t.out!) }
        : { schema: t.schema!, out: resolve(cwd, t.out!), ...(t.revision === undefined ? {} : { revision: t.revision }) },
    );
  } else {
    targets = bundledRevisions().map((r) => ({ schema: r, out: join(packageRoot, "generated", r) }));
  }
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(t.out)) throw usageError(`two targets write to the same directory ${displayPath(cwd, t.out)}`);
    seen.add(t.out);
  }
  return targets;
}

export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return (rel === "" ? "." : isAbsolute(rel) ? abs : rel).split(sep).join("/");
}

function readConfig(cwd: string, option: string | false | undefined): { file: ConfigFile; name: string } | undefined {
  if (option === false) return undefined;
  const path = resolve(cwd, option ?? configFileName);
  const name = displayPath(cwd, path);
  if (!existsSync(path)) {
    if (option === undefined) return undefined;
    throw new McpgenError("config file not found", { file: name });
  }
  const raw = parseJson(readFileSync(path, "utf8"), name);
  return { file: checkConfig(raw, name), name };
}

function checkConfig(raw: unknown, file: string): ConfigFile {
  const bad = (ptr: string, expected: string): never => {
    throw new McpgenError("invalid config", { file, pointer: ptr, expected });
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(raw)) return bad("", "an object");
  const checkTarget = (t: Record<string, unknown>, at: string[], allowTargets: boolean) => {
    for (const [k, v] of Object.entries(t)) {
      if (k === "$schema" && allowTargets) continue;
      if (k === "targets" && allowTargets) continue;
      if (k === "breaking" && allowTargets) continue; // `mcpgen breaking` reads and checks its own section
      if (k !== "schema" && k !== "manifest" && k !== "out" && k !== "revision") {
        bad(pointer(...at, k), `only "schema", "manifest", "out", "revision"${allowTargets ? ', "targets"' : ""}`);
      }
      if (typeof v !== "string" || v === "") bad(pointer(...at, k), "a non-empty string");
    }
  };
  checkTarget(raw, [], true);
  if (raw.schema !== undefined && raw.manifest !== undefined) bad("/manifest", 'either "schema" or "manifest", not both');
  if (raw.targets !== undefined) {
    if (!Array.isArray(raw.targets) || raw.targets.length === 0) bad("/targets", "a non-empty array of {schema, out}");
    if (raw.schema !== undefined || raw.manifest !== undefined || raw.out !== undefined) {
      bad("/targets", 'either "targets" or "schema"/"manifest"/"out", not both');
    }
    (raw.targets as unknown[]).forEach((t, i) => {
      if (!isObject(t)) return bad(pointer("targets", String(i)), "an object");
      checkTarget(t, ["targets", String(i)], false);
      if (t.schema === undefined && t.manifest === undefined) bad(pointer("targets", String(i), "schema"), "a bundled revision id or a path (or \"manifest\")");
      if (t.schema !== undefined && t.manifest !== undefined) bad(pointer("targets", String(i), "manifest"), 'either "schema" or "manifest", not both');
      if (t.out === undefined) bad(pointer("targets", String(i), "out"), "an output directory");
    });
  }
  return raw as ConfigFile;
}
