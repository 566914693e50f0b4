/**
 * What `mcpgen init` adds to files the project may already have: package.json (`"type":
 * "module"`, npm scripts) and .gitignore (entries). Planned before anything is written, so a
 * conflict (a CommonJS package with code of its own, unparsable JSON) leaves the directory
 * untouched. Existing values are never replaced, with one exception: `"type": "commonjs"` in a
 * project without JavaScript of its own yet (what `npm init -y` writes since npm 11) becomes
 * "module", since nothing can depend on it. A script the project already defines differently is
 * kept, with a note.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "./load/diagnostics.js";
import { renderTemplate } from "./templates.js";

export const PACKAGE_FILE = "package.json";
export const GITIGNORE_FILE = ".gitignore";

/** The npm scripts of a starter project. `build` generates first, so a fresh clone builds in one step. */
export const STARTER_SCRIPTS: Readonly<Record<string, string>> = {
  generate: "mcpgen generate",
  build: "mcpgen generate && tsc",
  start: "node dist/server.js",
  "start:http": "node dist/http.js",
  dev: 'mcpgen watch --with "tsc --watch --preserveWatchOutput"',
};

interface FilePlan {
  file: string;
  /** New contents; undefined = leave the file alone. */
  text: string | undefined;
  created: boolean;
  summary: string;
}

export interface PackagePlan extends FilePlan {
  conflicts: Diagnostic[];
  notes: string[];
  /** Server name suggested by the package name (scope dropped). */
  serverName: string;
  /** Whether the package lists `dep` in dependencies or devDependencies. */
  has(dep: string): boolean;
}

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function planPackageJson(dir: string, fallbackName: string): PackagePlan {
  const path = join(dir, PACKAGE_FILE);
  const conflict = (pointer: string, message: string): PackagePlan => ({
    file: PACKAGE_FILE, text: undefined, created: false, summary: "", notes: [], serverName: fallbackName, has: () => false,
    conflicts: [{ severity: "error", file: PACKAGE_FILE, pointer, message: `${message} (nothing was written)` }],
  });
  if (!existsSync(path)) {
    const pkg = { name: fallbackName, version: "0.1.0", private: true, type: "module", scripts: { ...STARTER_SCRIPTS } };
    return {
      file: PACKAGE_FILE, text: JSON.stringify(pkg, null, 2) + "\n", created: true, summary: "created: \"type\": \"module\", scripts",
      conflicts: [], notes: [], serverName: fallbackName, has: () => false,
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
  if (pkg.type === "commonjs") {
    const own = findOwnModuleCode(dir);
    if (own !== null) {
      return conflict(
        "/type",
        `is "commonjs" and ${own === CANNOT_TELL ? "mcpgen init cannot tell whether the project has code of its own" : `the project has code of its own (${own})`}; ` +
          'the starter is an ES module (top-level await), so mcpgen init needs "type": "module": run `npm pkg set type=module` ' +
          "(rename files that use require() or module.exports to .cjs first), then mcpgen init again",
      );
    }
    notes.push('package.json said "type": "commonjs" (`npm init -y` writes it) and the project has no JavaScript or TypeScript yet, so init made it "module" (the starter is an ES module)');
  } else if (pkg.type !== undefined && pkg.type !== "module") {
    return conflict("/type", `is ${JSON.stringify(pkg.type)}; expected "module" (the starter is an ES module with top-level await): run \`npm pkg set type=module\`, then mcpgen init again`);
  }
  if (pkg.scripts !== undefined && !isObject(pkg.scripts)) return conflict("/scripts", "expected an object");
  const next: Json = { ...pkg };
  const changed: string[] = [];
  if (pkg.type === undefined) {
    next.type = "module";
    added.push('"type": "module"');
  } else if (pkg.type === "commonjs") {
    next.type = "module";
    changed.push('set "type": "module" (was "commonjs")');
  }
  const scripts: Json = { ...(pkg.scripts ?? {}) };
  for (const [key, command] of Object.entries(STARTER_SCRIPTS)) {
    if (scripts[key] === undefined) {
      scripts[key] = command;
      added.push(`scripts.${key}`);
    } else if (scripts[key] !== command) {
      notes.push(`kept your scripts.${key} (${JSON.stringify(scripts[key])}); the starter's is ${JSON.stringify(command)}`);
    }
  }
  next.scripts = scripts;
  const deps = [pkg.dependencies, pkg.devDependencies].filter(isObject);
  const indent = /^[ \t]+/m.exec(raw)?.[0] ?? "  ";
  const name = typeof pkg.name === "string" ? pkg.name.replace(/^@[^/]+\//, "") : "";
  return {
    file: PACKAGE_FILE,
    text: added.length + changed.length ? JSON.stringify(next, null, indent) + (raw.endsWith("\n") ? "\n" : "") : undefined,
    created: false,
    summary: [...changed, ...(added.length ? [`added ${added.join(", ")}`] : [])].join("; "),
    conflicts: [],
    notes,
    serverName: /^[a-z0-9][a-z0-9._-]*$/i.test(name) ? name : fallbackName,
    has: (dep) => deps.some((d) => d[dep] !== undefined),
  };
}

/** Files and folders findOwnModuleCode looks at before it gives up (a project that large is not new). */
const MAX_ENTRIES_SCANNED = 10_000;
const MAX_DEPTH = 16;
const CANNOT_TELL = Symbol("too many files, or one unreadable");
/** Files whose module system follows package.json's `type` (.cjs/.mjs/.cts/.mts say theirs; declarations hold no code). */
const TYPE_DEPENDENT = /(?<!\.d)\.(js|jsx|ts|tsx)$/;

/**
 * The first file (relative path) below `dir` whose meaning changes with package.json's `type`,
 * skipping node_modules and dot folders; null when there is none, CANNOT_TELL when the tree is too
 * large or a folder unreadable.
 */
function findOwnModuleCode(dir: string): string | typeof CANNOT_TELL | null {
  let seen = 0;
  const walk = (rel: string, depth: number): string | typeof CANNOT_TELL | null => {
    if (depth > MAX_DEPTH) return CANNOT_TELL;
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return CANNOT_TELL;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES_SCANNED) return CANNOT_TELL;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
        const found = walk(path, depth + 1);
        if (found !== null) return found;
      } else if (entry.isFile() && TYPE_DEPENDENT.test(entry.name)) return path;
    }
    return null;
  };
  return walk("", 0);
}

export function planGitignore(dir: string): FilePlan {
  const path = join(dir, GITIGNORE_FILE);
  const wanted = renderTemplate("init/gitignore", {}).split("\n").filter((l) => l !== "");
  const entries = wanted.filter((l) => !l.startsWith("#"));
  if (!existsSync(path)) return { file: GITIGNORE_FILE, text: wanted.join("\n") + "\n", created: true, summary: `created: ${entries.join(" ")}` };
  const text = readFileSync(path, "utf8");
  // "dist" and "/dist/" ignore the same thing here as "dist/"
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim().replace(/^\//, "").replace(/\/$/, "")));
  const missing = entries.filter((e) => !present.has(e.replace(/\/$/, "")));
  if (missing.length === 0) return { file: GITIGNORE_FILE, text: undefined, created: false, summary: "" };
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  return { file: GITIGNORE_FILE, text: `${text}${sep}${[wanted[0], ...missing].join("\n")}\n`, created: false, summary: `added ${missing.join(" ")}` };
}
