/**
 * What `mcpgen init` adds to files the project may already have: package.json (`"type":
 * "module"`, npm scripts) and .gitignore (entries). Planned before anything is written, so a
 * conflict (a CommonJS package with code of its own, unparsable JSON) leaves the directory
 * untouched. Existing values are never replaced, with two exceptions: `"type": "commonjs"` in a
 * project without JavaScript of its own yet (what `npm init -y` writes since npm 11) becomes
 * "module", since nothing can depend on it; any other "type" becomes "module" when the user
 * says so (`--yes`), else it is a change listed for them. A script the project already defines
 * differently is kept, with a note.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "./load/diagnostics.js";
import { renderTemplate } from "./templates.js";
import { CANNOT_TELL, findFirstFile } from "./init-scan.js";

export const PACKAGE_FILE = "package.json";
export const GITIGNORE_FILE = ".gitignore";

/**
 * The npm scripts of a starter project whose compiled src/ is in `emitDir` (relative to the
 * project). `build` generates first, so a fresh clone builds in one step.
 */
export function starterScripts(emitDir: string): Readonly<Record<string, string>> {
  return {
    generate: "mcpgen generate",
    build: "mcpgen generate && tsc",
    start: `node ${emitDir}/server.js`,
    "start:http": `node ${emitDir}/http.js`,
    dev: 'mcpgen watch --with "tsc --watch --preserveWatchOutput"',
  };
}

/** The scripts with init's own tsconfig (src/ -> dist/). */
export const STARTER_SCRIPTS = starterScripts("dist");

interface FilePlan {
  file: string;
  /** New contents; undefined = leave the file alone. */
  text: string | undefined;
  created: boolean;
  summary: string;
}

export interface PackagePlan extends FilePlan {
  conflicts: Diagnostic[];
  /** Changes the user has to agree to (`--yes`) or make: a "type" other than "module" the project's code may depend on. */
  changes: Diagnostic[];
  notes: string[];
  /** Server name suggested by the package name (scope dropped). */
  serverName: string;
  /** Whether the package lists `dep` in dependencies or devDependencies. */
  has(dep: string): boolean;
}

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export interface PackageOptions {
  /** Server name when package.json has no usable one. */
  fallbackName: string;
  /** The scripts to add (starterScripts). */
  scripts: Readonly<Record<string, string>>;
  /** The user agreed to the changes init would otherwise only list. */
  yes: boolean;
}

export function planPackageJson(dir: string, { fallbackName, scripts: starter, yes }: PackageOptions): PackagePlan {
  const path = join(dir, PACKAGE_FILE);
  const conflict = (pointer: string, message: string): PackagePlan => ({
    file: PACKAGE_FILE,
    text: undefined,
    created: false,
    summary: "",
    notes: [],
    changes: [],
    serverName: fallbackName,
    has: () => false,
    conflicts: [{ severity: "error", file: PACKAGE_FILE, pointer, message: `${message} (nothing was written)` }],
  });
  if (!existsSync(path)) {
    const pkg = { name: fallbackName, version: "0.1.0", private: true, type: "module", scripts: { ...starter } };
    return {
      file: PACKAGE_FILE,
      text: JSON.stringify(pkg, null, 2) + "\n",
      created: true,
      summary: 'created: "type": "module", scripts',
      conflicts: [],
      changes: [],
      notes: [],
      serverName: fallbackName,
      has: () => false,
    };
  }
  const raw = readFileSync(path, "utf8");
  let pkg: unknown;
  try {
    pkg = JSON.parse(raw);
  } catch (e) {
    return conflict("", `invalid JSON: ${(e as Error).message}`);
  }
  if (!isObject(pkg)) return conflict("", "expected a JSON object");
  const added: string[] = [];
  const notes: string[] = [];
  const changes: Diagnostic[] = [];
  if (pkg.scripts !== undefined && !isObject(pkg.scripts)) return conflict("/scripts", "expected an object");
  const next: Json = { ...pkg };
  const changed: string[] = [];
  if (pkg.type === undefined) {
    next.type = "module";
    added.push('"type": "module"');
  } else if (pkg.type !== "module") {
    const own = pkg.type === "commonjs" ? findOwnModuleCode(dir) : null;
    const code =
      own === null
        ? ""
        : own === CANNOT_TELL
          ? "mcpgen init cannot tell whether the project has code of its own"
          : `the project has code of its own (${own})`;
    if (pkg.type === "commonjs" && own === null) {
      notes.push(
        'package.json said "type": "commonjs" (`npm init -y` writes it) and the project has no JavaScript or TypeScript yet, so init made it "module" (the starter is an ES module)',
      );
    } else if (yes) {
      const files =
        own === null
          ? ""
          : own === CANNOT_TELL
            ? "; if the project's .js and .ts files use require() or module.exports, rename them to .cjs (.cts)"
            : `; your own .js and .ts files (${own} among them) are ES modules from now on: rename those that use require() or module.exports to .cjs (.cts)`;
      notes.push(`package.json's "type" is "module" now (was ${JSON.stringify(pkg.type)})${files}`);
    } else {
      changes.push({
        severity: "error",
        file: PACKAGE_FILE,
        pointer: "/type",
        message:
          pkg.type === "commonjs"
            ? `is "commonjs" and ${code}; the starter is an ES module (top-level await), so mcpgen init needs "type": "module": run \`npm pkg set type=module\` ` +
              "(rename files that use require() or module.exports to .cjs first), then mcpgen init again"
            : `is ${JSON.stringify(pkg.type)}; expected "module" (the starter is an ES module with top-level await): run \`npm pkg set type=module\`, then mcpgen init again`,
      });
    }
    next.type = "module";
    changed.push(`set "type": "module" (was ${JSON.stringify(pkg.type)})`);
  }
  const scripts: Json = { ...pkg.scripts };
  for (const [key, command] of Object.entries(starter)) {
    if (scripts[key] === undefined) {
      scripts[key] = command;
      added.push(`scripts.${key}`);
    } else if (scripts[key] !== command) {
      notes.push(
        `kept your scripts.${key} (${JSON.stringify(scripts[key])}); the starter's is ${JSON.stringify(command)}`,
      );
    }
  }
  next.scripts = scripts;
  const deps = [pkg.dependencies, pkg.devDependencies].filter(isObject);
  const indent = /^[ \t]+/m.exec(raw)?.[0] ?? "  ";
  const name = typeof pkg.name === "string" ? pkg.name.replace(/^@[^/]+\//, "") : "";
  return {
    file: PACKAGE_FILE,
    text:
      added.length + changed.length ? JSON.stringify(next, null, indent) + (raw.endsWith("\n") ? "\n" : "") : undefined,
    created: false,
    summary: [...changed, ...(added.length ? [`added ${added.join(", ")}`] : [])].join("; "),
    conflicts: [],
    changes,
    notes,
    serverName: /^[a-z0-9][a-z0-9._-]*$/i.test(name) ? name : fallbackName,
    has: (dep) => deps.some((d) => d[dep] !== undefined),
  };
}

/** Files whose module system follows package.json's `type` (.cjs/.mjs/.cts/.mts say theirs; declarations hold no code). */
const TYPE_DEPENDENT = /(?<!\.d)\.(js|jsx|ts|tsx)$/;

/** The first file whose meaning changes with package.json's `type`; null when there is none. */
function findOwnModuleCode(dir: string): string | typeof CANNOT_TELL | null {
  return findFirstFile(dir, (rel) => TYPE_DEPENDENT.test(rel));
}

/** The `@types/*` packages package.json lists, without the prefix; [] when it cannot be read. */
export function listedTypesPackages(dir: string): string[] {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(join(dir, PACKAGE_FILE), "utf8"));
  } catch {
    return [];
  }
  if (!isObject(pkg)) return [];
  const names = [pkg.dependencies, pkg.devDependencies].filter(isObject).flatMap((d) => Object.keys(d));
  return [...new Set(names.filter((n) => n.startsWith("@types/")).map((n) => n.slice("@types/".length)))];
}

/** `outDir` is the compiler's output folder relative to the project (undefined: outside it), ignored instead of dist/. */
export function planGitignore(dir: string, outDir: string | undefined = "dist"): FilePlan {
  const path = join(dir, GITIGNORE_FILE);
  const wanted = renderTemplate("init/gitignore", {})
    .split("\n")
    .filter((l) => l !== "" && (l !== "dist/" || outDir !== undefined))
    .map((l) => (l === "dist/" ? `${outDir}/` : l));
  const entries = wanted.filter((l) => !l.startsWith("#"));
  if (!existsSync(path))
    return {
      file: GITIGNORE_FILE,
      text: wanted.join("\n") + "\n",
      created: true,
      summary: `created: ${entries.join(" ")}`,
    };
  const text = readFileSync(path, "utf8");
  // "dist" and "/dist/" ignore the same thing here as "dist/"
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim().replace(/^\//, "").replace(/\/$/, "")));
  const missing = entries.filter((e) => !present.has(e.replace(/\/$/, "")));
  if (missing.length === 0) return { file: GITIGNORE_FILE, text: undefined, created: false, summary: "" };
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  return {
    file: GITIGNORE_FILE,
    text: `${text}${sep}${[wanted[0], ...missing].join("\n")}\n`,
    created: false,
    summary: `added ${missing.join(" ")}`,
  };
}
