/**
 * `mcpgen init`: scaffolds a project that builds and serves, in an empty directory or an existing
 * npm project. New files come from `templates/init/`: the manifest (with `$schema`), handlers, a
 * stdio entry point and a Streamable HTTP one, `mcpgen.config.json`, and a tsconfig when there is
 * none. package.json gets `"type": "module"` and the npm scripts; .gitignore gets its entries.
 * Never overwrites: if a file it would create exists, or package.json cannot take the additions,
 * nothing is written and the error lists every conflict. What an existing project needs changed
 * (package.json's "type", tsconfig.json's options: init-tsconfig.ts) is changed with `yes`, else
 * listed with the conflicts, all in one run.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { toTypeName } from "./names/index.js";
import { formatDiagnostic, InputError, type Diagnostic } from "./load/diagnostics.js";
import { usageError } from "./errors.js";
import { mcpgenVersion } from "./paths.js";
import { renderTemplate } from "./templates.js";
import {
  listedTypesPackages,
  planGitignore,
  planPackageJson,
  starterScripts,
  type PackagePlan,
} from "./init-package.js";
import { planTsconfig, TSCONFIG_FILE } from "./init-tsconfig.js";
import { listFiles } from "./write/compare.js";
import { compilerOutputSuffix, describeStrayFiles, isGeneratedFile } from "./write/stray.js";
import {
  compatibilityDate,
  README_FILE,
  targetEntries,
  targetScripts,
  targetTool,
  WRANGLER_FILE,
} from "./init-targets.js";
import { DEPLOY_TARGETS, type DeployTarget } from "./config.js";

export interface InitOptions {
  /** Project directory (created if missing). */
  dir: string;
  /** Server name in the manifest (default: package.json's name, else "my-server"). */
  name?: string;
  /** `$schema` value (default: the schema shipped in the installed mcpgen package). */
  schemaRef?: string;
  /** Where `mcpgen generate` writes, relative to `dir` (default "src/mcp"). */
  out?: string;
  /**
   * Make the changes an existing project needs (package.json's "type", tsconfig.json's outDir,
   * rootDir, types, module...) instead of refusing with the list of them (default false).
   */
  yes?: boolean;
  /** Where the starter runs (default "node": stdio and node:http; see init-targets.ts). */
  target?: DeployTarget;
}

export interface InitResult {
  /** Files created, relative to `dir`. */
  written: string[];
  /** Existing files changed (package.json, .gitignore, tsconfig.json), with what was changed. */
  updated: string[];
  /** Things left as they were that the user may want to look at (a kept script), and what a change means. */
  notes: string[];
  /** The commands to run next, in order. */
  next: string[];
}

/**
 * init wrote nothing: every conflict, and every change it would make with `yes` (each with its
 * edit or command), with a last line saying what `--yes` would do.
 */
export class InitRefusal extends InputError {
  override name = "InitRefusal";
  constructor(conflicts: Diagnostic[], changes: Diagnostic[]) {
    const all = [...changes, ...conflicts];
    super(all[0]!.file, all);
    const lines = [
      `init: nothing was written (${all.length} problem${all.length === 1 ? "" : "s"}):`,
      ...all.map((d) => `  ${formatDiagnostic(d)}`),
    ];
    if (changes.length) {
      const files = [...new Set(changes.map((d) => d.file))].join(" and ");
      lines.push(
        `\`mcpgen init --yes\` makes the change${changes.length === 1 ? "" : "s"} to ${files} itself${files.includes(TSCONFIG_FILE) ? ` (${TSCONFIG_FILE} keeps its comments)` : ""}` +
          `${conflicts.length ? ", not the rest" : ""}; or make ${changes.length === 1 ? "it" : "them"} yourself, then mcpgen init again`,
      );
    }
    this.message = lines.join("\n");
  }
}

export const DEFAULT_SCHEMA_REF = "./node_modules/mcpgen/schema/manifest.schema.json";
export const MANIFEST_FILE = "mcp.manifest.json";
export const CONFIG_FILE = "mcpgen.config.json";
export const HANDLERS_FILE = "src/handlers.ts";
export const STDIO_ENTRY = "src/server.ts";
export const HTTP_ENTRY = "src/http.ts";
export { TSCONFIG_FILE };

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
  if (options.name !== undefined && !NAME.test(options.name)) throw badName(options.name);
  const target = options.target ?? "node";
  if (!DEPLOY_TARGETS.includes(target))
    throw usageError(`init: --target must be one of ${DEPLOY_TARGETS.join(", ")} (got ${JSON.stringify(target)})`);
  const entries = targetEntries(target, STDIO_ENTRY, HTTP_ENTRY);
  const yes = options.yes ?? false;
  const tsconfig = existsSync(join(options.dir, TSCONFIG_FILE))
    ? planTsconfig(
        options.dir,
        [HANDLERS_FILE, ...entries.map(([rel]) => rel), `${out}/server.ts`],
        listedTypesPackages(options.dir),
        target === "workers" ? "web" : "node",
      )
    : undefined;
  const emitDir = tsconfig?.emitDir ?? "dist";
  const pkg = planPackageJson(options.dir, {
    fallbackName: defaultName(options.dir),
    scripts: targetScripts(target, emitDir, starterScripts(emitDir)),
    yes,
  });
  const name = options.name ?? pkg.serverName;
  if (!NAME.test(name)) throw badName(name);
  const data = {
    manifest: MANIFEST_FILE,
    out,
    serverName: name,
    typeName: toTypeName(name),
    importDir: `./${out.slice("src/".length)}`,
    emitDir,
  };
  const files: [string, string][] = [
    [MANIFEST_FILE, starterManifest(name, options.schemaRef ?? DEFAULT_SCHEMA_REF)],
    [
      CONFIG_FILE,
      renderTemplate("init/mcpgen.config.json", {
        manifest: JSON.stringify(MANIFEST_FILE),
        out: JSON.stringify(out),
        target: target === "node" ? false : JSON.stringify(target),
      }),
    ],
    [HANDLERS_FILE, renderTemplate("init/handlers.ts", data)],
    ...entries.map(([rel, template]): [string, string] => [rel, renderTemplate(template, data)]),
  ];
  if (target === "workers") {
    files.push([
      WRANGLER_FILE,
      renderTemplate("init/wrangler.jsonc", { name: JSON.stringify(name), emitDir, ...workerdDate(options.dir) }),
    ]);
  }
  if (target !== "node") files.push([README_FILE, renderTemplate(`init/README-${target}.md`, data)]);
  if (!tsconfig) files.push([TSCONFIG_FILE, renderTemplate("init/tsconfig.json", { worker: target === "workers" })]);

  const conflicts: Diagnostic[] = files
    .filter(([rel]) => existsSync(join(options.dir, rel)))
    .map(([rel]) => ({
      severity: "error",
      file: rel,
      pointer: "",
      message: "already exists; mcpgen init never overwrites (nothing was written)",
    }));
  conflicts.push(...pkg.conflicts, ...(tsconfig?.conflicts ?? []));
  const stray = strayOutput(options.dir, out);
  if (stray) conflicts.push(stray);
  const changes = [...pkg.changes, ...(tsconfig?.changes ?? [])];
  if (conflicts.length || (changes.length && !yes)) throw new InitRefusal(conflicts, yes ? [] : changes);

  const gitignore = planGitignore(options.dir, tsconfig ? tsconfig.outDir : "dist");
  for (const [rel, text] of files) {
    const path = join(options.dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { flag: "wx" }); // wx: fail rather than clobber a file created meanwhile
  }
  const written = files.map(([rel]) => rel);
  const updated: string[] = [];
  const tsconfigPlan =
    tsconfig?.text === undefined
      ? []
      : [{ file: TSCONFIG_FILE, text: tsconfig.text, created: false, summary: tsconfig.summary }];
  for (const plan of [pkg, gitignore, ...tsconfigPlan]) {
    if (plan.text === undefined) continue;
    writeFileSync(join(options.dir, plan.file), plan.text, plan.created ? { flag: "wx" } : {});
    if (plan.created) written.push(plan.file);
    else updated.push(`${plan.file} (${plan.summary})`);
  }
  return { written, updated, notes: [...(tsconfig?.notes ?? []), ...pkg.notes], next: nextCommands(pkg, target) };
}

function workerdDate(dir: string): { compatibilityDate: string; dateSource: string } {
  const { date, source } = compatibilityDate(dir);
  return { compatibilityDate: date, dateSource: source };
}

function badName(name: string) {
  return usageError(
    `init: --name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})`,
  );
}

/**
 * Files in the output folder that the first `mcpgen generate` would refuse to replace (typically
 * tsc output of an earlier build without "outDir"), as one conflict naming them all.
 */
function strayOutput(dir: string, out: string): Diagnostic | undefined {
  let onDisk: string[];
  try {
    onDisk = listFiles(join(dir, out));
  } catch {
    return undefined; // not a folder: generate says so
  }
  const foreign = new Set(onDisk.filter((f) => !isGeneratedFile(join(dir, out, f))));
  if (foreign.size === 0) return undefined;
  const sources = new Set(onDisk.filter((f) => /(?<!\.d)\.(ts|tsx|mts|cts)$/.test(f)));
  const stray = onDisk.filter((f) => foreign.has(f) || compilerOutputSuffix(f, sources) !== undefined);
  return {
    severity: "error",
    file: out,
    pointer: "",
    message: `mcpgen generate would refuse to replace this folder: ${describeStrayFiles({ display: out, stray, onDisk, sources })}`,
  };
}

/** Install only what the project does not list yet, then build (which generates) and run. */
function nextCommands(pkg: PackagePlan, target: DeployTarget): string[] {
  const next: string[] = [];
  if (!pkg.has("@mcpgen/runtime")) next.push(`npm i @mcpgen/runtime@^${mcpgenVersion}`);
  const tool = targetTool(target);
  const wanted = [
    ["mcpgen", `mcpgen@^${mcpgenVersion}`],
    ["typescript", "typescript"],
    // A Worker's code uses the web platform's globals, which TypeScript's own lib declares.
    ...(target === "workers" ? [] : [["@types/node", "@types/node"]]),
    ...(tool ? [[tool, tool]] : []),
  ];
  const dev = wanted.filter(([n]) => !pkg.has(n!)).map(([, spec]) => spec);
  if (dev.length) next.push(`npm i -D ${dev.join(" ")}`);
  next.push("npm run build    # mcpgen generate && tsc", `npm start        # ${START[target]}`);
  return next;
}

const START: Record<DeployTarget, string> = {
  node: "stdio; `npm run start:http` serves http://127.0.0.1:3000/mcp",
  workers: "wrangler dev: workerd serves http://127.0.0.1:8787/mcp (PORT picks the port); `npm run deploy` publishes",
  bun: "Bun.serve: http://127.0.0.1:3000/mcp (PORT picks the port); `npm run start:stdio` serves stdio",
  deno: "Deno.serve: http://127.0.0.1:3000/mcp (PORT picks the port); `npm run start:stdio` serves stdio",
};

/** The directory's name as an npm-style name ("My Project" -> "my-project"). */
function defaultName(dir: string): string {
  const n = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+|-+$/g, "");
  return NAME.test(n) ? n : "my-server";
}
