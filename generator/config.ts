import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { McpgenError, pointer, usageError } from "./errors.js";
import { parseJson } from "./load/json.js";
import { bundledRevisions } from "./load/schema-manifest.js";
import { packageRoot } from "./paths.js";

/**
 * Where the generated code runs, as `mcpgen init --target` names it. `workers` is a bundled
 * deployment (one file): the generated code imports its own parts statically, where on the other
 * hosts it imports them on first use so a server starts without them.
 */
export const DEPLOY_TARGETS = ["node", "workers", "bun", "deno"] as const;
export type DeployTarget = (typeof DEPLOY_TARGETS)[number];
const deployTargetsExpected = DEPLOY_TARGETS.map((t) => JSON.stringify(t)).join(", ");

/** Whether `target` is one of DEPLOY_TARGETS. */
function isDeployTarget(target: unknown): target is DeployTarget {
  return (DEPLOY_TARGETS as readonly unknown[]).includes(target);
}

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
  /** Where the generated code runs (absent: "node"). */
  target?: DeployTarget;
}

export interface TargetOptions {
  schema?: string;
  /** Server manifest (`mcp.manifest.json`) to generate typed server/client bindings from. */
  manifest?: string;
  out?: string;
  revision?: string;
  /** Where the generated code runs (overrides the config's `target`); default "node". */
  target?: DeployTarget;
  cwd?: string;
  /** Config file to read; default the first of `configFileNames` in cwd that exists; false = none. */
  config?: string | false;
  /**
   * Maintainer mode: every bundled revision into mcpgen's own `generated/<rev>/` (how the
   * package's bundled bindings are built and checked). Excludes every other option.
   */
  bundled?: boolean;
}

/** Config files looked up in cwd, in this order (the first that exists wins). */
export const configFileNames = [
  "mcpgen.config.json",
  "mcpgen.config.ts",
  "mcpgen.config.js",
  "mcpgen.config.mjs",
] as const;
export const configFileName = configFileNames[0];
/** The manifest `generate` uses when there are neither flags nor a config file. */
const defaultManifest = { manifest: "mcp.manifest.json", out: "src/mcp" } as const;

/** A config file's contents: one target, or several under `targets`. */
export interface McpgenConfig extends ConfigTarget {
  $schema?: string;
  targets?: ConfigTarget[];
}

export interface ConfigTarget {
  /** Bundled revision id or path of a schema.json (relative to the current directory, as `out`). */
  schema?: string;
  /** Path of an `mcp.manifest.json` (relative to the current directory). */
  manifest?: string;
  out?: string;
  revision?: string;
  /** Where the generated code runs: "workers" (bundled) imports its own parts statically. */
  target?: DeployTarget;
}

type ConfigFile = McpgenConfig;

/** A config file found and read: its contents, how messages name it, and its path. */
export interface LoadedConfig {
  file: ConfigFile;
  name: string;
  path: string;
}

/**
 * Which schemas go where: flags override the config file; with neither, `./mcp.manifest.json`
 * into `src/mcp/`; with none of those, a usage error saying what to do. `bundled` is the
 * maintainer's mode (mcpgen's own `generated/<rev>/`). A `.ts`/`.js` config must have been loaded
 * by `loadConfig` first and passed as `loaded` (importing it is asynchronous).
 */
export function resolveTargets(options: TargetOptions, loaded?: LoadedConfig): Target[] {
  const cwd = options.cwd ?? process.cwd();
  const flagsGiven =
    options.schema !== undefined ||
    options.manifest !== undefined ||
    options.out !== undefined ||
    options.revision !== undefined;
  if (options.target !== undefined && !isDeployTarget(options.target))
    throw usageError(`--target must be one of ${DEPLOY_TARGETS.join(", ")} (got ${JSON.stringify(options.target)})`);
  if (options.bundled) {
    if (flagsGiven || options.config !== undefined)
      throw usageError("the bundled bindings take no --schema, --manifest, --out, --revision or --config");
    if (options.target !== undefined) throw usageError("the bundled bindings take no --target");
    return bundledRevisions().map((r) => ({ schema: r, out: join(packageRoot, "generated", r) }));
  }
  const config = loaded ?? readConfig(cwd, options.config);
  let targets: Target[];
  if (flagsGiven || (config && !config.file.targets)) {
    if (options.schema !== undefined && options.manifest !== undefined)
      throw usageError("give --schema or --manifest, not both");
    // a flag chooses the kind of target; the config fills in the rest
    const manifest = options.schema !== undefined ? undefined : (options.manifest ?? config?.file.manifest);
    const schema = manifest !== undefined ? "" : (options.schema ?? config?.file.schema);
    const out = options.out ?? config?.file.out;
    if (
      config?.file.targets &&
      ((options.schema === undefined && options.manifest === undefined) || options.out === undefined)
    ) {
      throw usageError(
        `${config.name} lists targets; give both --schema and --out to override them (or --manifest and --out)`,
      );
    }
    if (schema === undefined)
      throw usageError(`missing --schema or --manifest (or "schema"/"manifest" in ${config?.name ?? configFileName})`);
    if (out === undefined) throw usageError(`missing --out (or "out" in ${config?.name ?? configFileName})`);
    const revision = options.revision ?? config?.file.revision;
    if (manifest !== undefined && options.revision !== undefined)
      throw usageError("--revision applies to --schema, not --manifest");
    targets = [
      manifest !== undefined
        ? { schema: "", manifest, out: resolve(cwd, out) }
        : { schema, out: resolve(cwd, out), ...(revision === undefined ? {} : { revision }) },
    ];
    const target = options.target ?? config?.file.target;
    if (target !== undefined) targets[0]!.target = target;
  } else if (config?.file.targets) {
    targets = config.file.targets.map((t) => {
      // a top-level "target" is every listed target's default
      const target = options.target ?? t.target ?? config.file.target;
      return {
        ...(t.manifest !== undefined
          ? { schema: "", manifest: t.manifest, out: resolve(cwd, t.out!) }
          : {
              schema: t.schema!,
              out: resolve(cwd, t.out!),
              ...(t.revision === undefined ? {} : { revision: t.revision }),
            }),
        ...(target === undefined ? {} : { target }),
      };
    });
  } else if (existsSync(join(cwd, defaultManifest.manifest))) {
    targets = [
      {
        schema: "",
        manifest: defaultManifest.manifest,
        out: resolve(cwd, defaultManifest.out),
        ...(options.target === undefined ? {} : { target: options.target }),
      },
    ];
  } else {
    throw usageError(
      `nothing to generate in ${cwd}: no ${configFileNames.join(", ")} or ${defaultManifest.manifest}; ` +
        "run `mcpgen init`, or give --manifest <file> (or --schema <revision>) and --out <dir>",
    );
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

/** The config file `option` names, else the first of `configFileNames` in cwd; undefined when none. */
export function findConfig(cwd: string, option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option !== undefined) {
    const path = resolve(cwd, option);
    if (!existsSync(path)) throw new McpgenError("config file not found", { file: displayPath(cwd, path) });
    return path;
  }
  return configFileNames.map((n) => join(cwd, n)).find((p) => existsSync(p));
}

function readConfig(cwd: string, option: string | false | undefined): LoadedConfig | undefined {
  const path = findConfig(cwd, option);
  if (path === undefined) return undefined;
  const name = displayPath(cwd, path);
  if (!path.endsWith(".json"))
    throw usageError(`${name} is a module config; it is loaded by generate()/check() (loadConfig), not resolveTargets`);
  const raw = parseJson(readFileSync(path, "utf8"), name);
  return { file: checkConfig(raw, name), name, path };
}

/** Finds and reads the config file, importing a `.ts`/`.js`/`.mjs` one (its default export). */
export async function loadConfig(cwd: string, option: string | false | undefined): Promise<LoadedConfig | undefined> {
  const path = findConfig(cwd, option);
  if (path === undefined) return undefined;
  if (path.endsWith(".json")) return readConfig(cwd, path);
  const name = displayPath(cwd, path);
  const { importConfigModule } = await import("./config-module.js");
  return { file: checkConfig(await importConfigModule(path, name), name), name, path };
}

function checkConfig(raw: unknown, file: string): ConfigFile {
  const bad = (ptr: string, expected: string): never => {
    throw new McpgenError("invalid config", { file, pointer: ptr, expected });
  };
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(raw)) return bad("", "an object");
  const checkTarget = (t: Record<string, unknown>, at: string[], allowTargets: boolean) => {
    for (const [k, v] of Object.entries(t)) {
      if (k === "$schema" && allowTargets) continue;
      if (k === "targets" && allowTargets) continue;
      if (k === "breaking" && allowTargets) continue; // `mcpgen breaking` reads and checks its own section
      if (k !== "schema" && k !== "manifest" && k !== "out" && k !== "revision" && k !== "target") {
        bad(
          pointer(...at, k),
          `only "schema", "manifest", "out", "revision", "target"${allowTargets ? ', "targets"' : ""}`,
        );
      }
      if (k === "target" && !isDeployTarget(v)) bad(pointer(...at, k), `one of ${deployTargetsExpected}`);
      if (typeof v !== "string" || v === "") bad(pointer(...at, k), "a non-empty string");
    }
  };
  checkTarget(raw, [], true);
  if (raw.schema !== undefined && raw.manifest !== undefined)
    bad("/manifest", 'either "schema" or "manifest", not both');
  if (raw.targets !== undefined) {
    if (!Array.isArray(raw.targets) || raw.targets.length === 0) bad("/targets", "a non-empty array of {schema, out}");
    if (raw.schema !== undefined || raw.manifest !== undefined || raw.out !== undefined) {
      bad("/targets", 'either "targets" or "schema"/"manifest"/"out", not both');
    }
    (raw.targets as unknown[]).forEach((t, i) => {
      if (!isObject(t)) return bad(pointer("targets", String(i)), "an object");
      checkTarget(t, ["targets", String(i)], false);
      if (t.schema === undefined && t.manifest === undefined)
        bad(pointer("targets", String(i), "schema"), 'a bundled revision id or a path (or "manifest")');
      if (t.schema !== undefined && t.manifest !== undefined)
        bad(pointer("targets", String(i), "manifest"), 'either "schema" or "manifest", not both');
      if (t.out === undefined) bad(pointer("targets", String(i), "out"), "an output directory");
    });
  }
  return raw as ConfigFile;
}
