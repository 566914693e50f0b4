/**
 * `mcpgen init`: scaffolds a project that builds and serves, in an empty directory or an existing
 * npm project. New files come from `templates/init/`: the manifest (with `$schema`), handlers, a
 * stdio entry point and a Streamable HTTP one, `mcpgen.config.json`, and a tsconfig when there is
 * none. package.json gets `"type": "module"` and the npm scripts; .gitignore gets its entries.
 * Never overwrites: if a file it would create exists, or package.json cannot take the additions,
 * nothing is written and the error lists every conflict.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { toTypeName } from "./names/index.js";
import { InputError, type Diagnostic } from "./load/diagnostics.js";
import { usageError } from "./errors.js";
import { mcpgenVersion } from "./paths.js";
import { renderTemplate } from "./templates.js";
import { planGitignore, planPackageJson, type PackagePlan } from "./init-package.js";

export interface InitOptions {
  /** Project directory (created if missing). */
  dir: string;
  /** Server name in the manifest (default: package.json's name, else "my-server"). */
  name?: string;
  /** `$schema` value (default: the schema shipped in the installed mcpgen package). */
  schemaRef?: string;
  /** Where `mcpgen generate` writes, relative to `dir` (default "src/mcp"). */
  out?: string;
}

export interface InitResult {
  /** Files created, relative to `dir`. */
  written: string[];
  /** Existing files changed (package.json, .gitignore), with what was added. */
  updated: string[];
  /** Things left as they were that the user may want to look at (an existing tsconfig, a kept script). */
  notes: string[];
  /** The commands to run next, in order. */
  next: string[];
}

export const DEFAULT_SCHEMA_REF = "./node_modules/mcpgen/schema/manifest.schema.json";
export const MANIFEST_FILE = "mcp.manifest.json";
export const CONFIG_FILE = "mcpgen.config.json";
export const HANDLERS_FILE = "src/handlers.ts";
export const STDIO_ENTRY = "src/server.ts";
export const HTTP_ENTRY = "src/http.ts";
export const TSCONFIG_FILE = "tsconfig.json";

/** Names that are safe inside the JS string literals and JSON the templates put them in. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The starter manifest, as `mcpgen init` writes it. */
export function starterManifest(name: string, schemaRef: string): string {
  return renderTemplate("init/mcp.manifest.json", { name: JSON.stringify(name), schemaRef: JSON.stringify(schemaRef) });
}

export function initProject(options: InitOptions): InitResult {
  const out = (options.out ?? "src/mcp").replace(/\/$/, "");
  if (!/^src\/[\w.-]+(\/[\w.-]+)*$/.test(out) || out.split("/").some((s) => s === ".." || s === ".")) {
    throw usageError(`init: --out must be a directory under src/ (got ${JSON.stringify(options.out)})`);
  }
  const pkg = planPackageJson(options.dir, defaultName(options.dir));
  const name = options.name ?? pkg.serverName;
  if (!NAME.test(name)) {
    throw usageError(`init: --name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})`);
  }
  const data = {
    manifest: MANIFEST_FILE,
    out,
    serverName: name,
    typeName: toTypeName(name),
    importDir: `./${out.slice("src/".length)}`,
  };
  const files: [string, string][] = [
    [MANIFEST_FILE, starterManifest(name, options.schemaRef ?? DEFAULT_SCHEMA_REF)],
    [CONFIG_FILE, renderTemplate("init/mcpgen.config.json", { manifest: JSON.stringify(MANIFEST_FILE), out: JSON.stringify(out) })],
    [HANDLERS_FILE, renderTemplate("init/handlers.ts", data)],
    [STDIO_ENTRY, renderTemplate("init/server.ts", data)],
    [HTTP_ENTRY, renderTemplate("init/http.ts", data)],
  ];
  const notes: string[] = [];
  if (existsSync(join(options.dir, TSCONFIG_FILE))) notes.push(`kept your ${TSCONFIG_FILE}: \`npm run build\` expects it to compile src/ into dist/ (see mcpgen's templates/init/tsconfig.json.hbs)`);
  else files.push([TSCONFIG_FILE, renderTemplate("init/tsconfig.json", {})]);

  const conflicts: Diagnostic[] = files
    .filter(([rel]) => existsSync(join(options.dir, rel)))
    .map(([rel]) => ({ severity: "error", file: rel, pointer: "", message: "already exists; mcpgen init never overwrites (nothing was written)" }));
  conflicts.push(...pkg.conflicts);
  if (conflicts.length) throw new InputError(conflicts[0]!.file, conflicts);

  const gitignore = planGitignore(options.dir);
  for (const [rel, text] of files) {
    const path = join(options.dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { flag: "wx" }); // wx: fail rather than clobber a file created meanwhile
  }
  const written = files.map(([rel]) => rel);
  const updated: string[] = [];
  for (const plan of [pkg, gitignore]) {
    if (plan.text === undefined) continue;
    writeFileSync(join(options.dir, plan.file), plan.text, plan.created ? { flag: "wx" } : {});
    if (plan.created) written.push(plan.file);
    else updated.push(`${plan.file} (${plan.summary})`);
  }
  notes.push(...pkg.notes);
  return { written, updated, notes, next: nextCommands(pkg) };
}

/** Install only what the project does not list yet, then build (which generates) and run. */
function nextCommands(pkg: PackagePlan): string[] {
  const next: string[] = [];
  if (!pkg.has("@mcpgen/runtime")) next.push(`npm i @mcpgen/runtime@^${mcpgenVersion}`);
  const dev = [["mcpgen", `mcpgen@^${mcpgenVersion}`], ["typescript", "typescript"], ["@types/node", "@types/node"]].filter(([n]) => !pkg.has(n!)).map(([, spec]) => spec);
  if (dev.length) next.push(`npm i -D ${dev.join(" ")}`);
  next.push("npm run build    # mcpgen generate && tsc", "npm start        # stdio; `npm run start:http` serves http://127.0.0.1:3000/mcp");
  return next;
}

/** The directory's name as an npm-style name ("My Project" -> "my-project"). */
function defaultName(dir: string): string {
  const n = basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[^a-z0-9]+|-+$/g, "");
  return NAME.test(n) ? n : "my-server";
}
