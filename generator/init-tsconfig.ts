/**
 * What `mcpgen init` needs of a tsconfig.json the project already has, so that `npm run build`
 * (`mcpgen generate && tsc`) compiles the starter with TypeScript 5.9 and 7 into a folder that
 * `npm start` runs, and never into src/ (where compiler output next to the generated files stops
 * the next generate). What `npx tsc --init` writes today fails three ways: `"types": []` hides
 * Node.js's types (TS2591 on `process`), and without "outDir" and "rootDir" tsc writes next to
 * the sources (TypeScript 7 refuses an outDir without rootDir, TS5011).
 *
 * Every change needed is planned in one pass, as an edit that keeps the file's comments
 * (tsconfig-edit.ts); init applies them with --yes and otherwise lists them. The options checked
 * are the effective ones, `extends` followed, read with the TypeScript that ts-morph ships (the
 * project's own may not be installed yet); a change is written into tsconfig.json itself.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { ts as Ts } from "ts-morph";
import type { Diagnostic } from "./load/diagnostics.js";
import { CANNOT_TELL, findFirstFile } from "./init-scan.js";
import { json, TsconfigEditor } from "./tsconfig-edit.js";
import { matchesAny } from "./tsconfig-include.js";

type Typescript = typeof Ts;

export const TSCONFIG_FILE = "tsconfig.json";
/** A tsconfig larger than this is not read (tsc --init writes under 2 KiB). */
const MAX_TSCONFIG_BYTES = 1024 * 1024;

export interface TsconfigPlan {
  /** The file with the changes made, undefined when none is needed. */
  text: string | undefined;
  /** The changes needed: what is wrong and the edit (init makes them with --yes, else lists them). */
  changes: Diagnostic[];
  /** The changes, short, for `updated tsconfig.json (...)`. */
  summary: string;
  /** What no edit of init fixes (an unreadable file, src/ outside rootDir, src/ excluded). */
  conflicts: Diagnostic[];
  notes: string[];
  /** Where tsc writes what it compiles from src/, relative to the project with "/" ("dist", "dist/src"). */
  emitDir: string;
  /** The output folder relative to the project, undefined when outside it. */
  outDir: string | undefined;
}

let typescript: Typescript | undefined;

/** ts-morph's TypeScript, loaded on first use only: an npm project without a tsconfig never pays for it. */
function loadTypescript(): Typescript {
  typescript ??= (createRequire(import.meta.url)("ts-morph") as { ts: Typescript }).ts;
  return typescript;
}

/**
 * Plans the changes to `dir`/tsconfig.json. `sources` are the starter's TypeScript files (relative
 * to `dir`, all under src/) that the config must compile; `typesPackages` the `@types/*` packages
 * package.json lists (without the prefix), kept visible when init has to set "types". `uses` is
 * what the starter's code needs declared: Node.js's globals (`process`), or only the web platform's
 * (a Worker: `Request`, `Response`, `console`).
 */
export function planTsconfig(
  dir: string,
  sources: readonly string[],
  typesPackages: readonly string[],
  uses: "node" | "web" = "node",
): TsconfigPlan {
  const path = join(dir, TSCONFIG_FILE);
  const fail = (
    message: string,
    at: { line: number; column: number } | undefined = undefined,
    pointer = "",
  ): TsconfigPlan => ({
    text: undefined,
    changes: [],
    summary: "",
    notes: [],
    emitDir: "dist",
    outDir: "dist",
    conflicts: [{ severity: "error", file: TSCONFIG_FILE, pointer, message, ...at }],
  });
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_TSCONFIG_BYTES) return fail(`is ${size} bytes; mcpgen init reads at most ${MAX_TSCONFIG_BYTES}`);
    text = readFileSync(path, "utf8");
  } catch (e) {
    return fail(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const ts = loadTypescript();
  const syntax = ts.parseConfigFileTextToJson(TSCONFIG_FILE, text).error;
  const file = ts.parseJsonText(TSCONFIG_FILE, text);
  if (syntax) {
    const at = syntax.start === undefined ? undefined : file.getLineAndCharacterOfPosition(syntax.start);
    return fail(
      `is not valid JSON with comments: ${ts.flattenDiagnosticMessageText(syntax.messageText, " ")}`,
      at && { line: at.line + 1, column: at.character + 1 },
    );
  }
  const root = file.statements[0]?.expression;
  if (root === undefined || !ts.isObjectLiteralExpression(root)) return fail("expected a JSON object");
  const edit = new TsconfigEditor(ts, file, root);
  const co = edit.compilerOptions();
  if (co === null)
    return fail("expected an object", edit.position(edit.property(root, "compilerOptions")), "/compilerOptions");

  const host: Ts.ParseConfigHost = {
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    readDirectory: () => [],
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  };
  const parsed = ts.parseJsonSourceFileConfigFileContent(file as Ts.TsConfigSourceFile, host, dir, undefined, path);
  const o = parsed.options;
  const raw = parsed.raw as { extends?: unknown; include?: unknown; files?: unknown; exclude?: unknown };
  const notes: string[] = [];
  // TS6053: a config named by "extends" that is not there (yet: npm install not run)
  const unread = parsed.errors.find((e) => e.code === 6053 || e.code === 5083);
  if (unread)
    notes.push(
      `${TSCONFIG_FILE}: cannot read what it extends (${ts.flattenDiagnosticMessageText(unread.messageText, " ")}); init checked its own options only`,
    );

  const changes: Diagnostic[] = [];
  const conflicts: Diagnostic[] = [];
  const set: string[] = [];
  const removed: string[] = [];
  const own = (key: string) => (co ? edit.property(co, key) : undefined);
  const at = (key: string) => (co && edit.locate(co, key)) || edit.position(edit.property(root, "compilerOptions"));
  const textOf = (node: Ts.Node) => node.getText(file).replace(/\s+/g, " ");
  /** How the message names the current value: as written, else as the extended config sets it (JSON text). */
  const was = (key: string, value: string | undefined) => {
    const p = own(key);
    if (p) return `is ${textOf(p.initializer)}`;
    return value === undefined ? "is not set" : `is ${value} (from the config it extends)`;
  };
  const quoted = (name: string | undefined) => (name === undefined ? undefined : JSON.stringify(name));
  const needs = (pointer: string, message: string, position: { line: number; column: number }) =>
    changes.push({ severity: "error", file: TSCONFIG_FILE, pointer, message, ...position });
  const change = (key: string, message: string, value: string | boolean | string[]) => {
    needs(`/compilerOptions/${key}`, message, at(key));
    edit.set(co, key, value);
    set.push(`${JSON.stringify(key)}: ${json(value)}`);
  };
  /** Removes an option the file sets; one set by the config it extends is overridden with `instead`. */
  const drop = (key: string, message: string, instead: string | boolean) => {
    const p = own(key);
    if (p === undefined) return change(key, message, instead);
    needs(`/compilerOptions/${key}`, message, at(key));
    edit.remove(p);
    removed.push(JSON.stringify(key));
  };
  const rel = (abs: string) => relative(dir, abs).split("\\").join("/") || ".";
  const within = (child: string, parent: string) => {
    const r = relative(parent, child);
    return r === "" || (!r.startsWith("..") && !isAbsolute(r));
  };
  const src = join(dir, "src");
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined);
  const include = strings(raw.include);
  const exclude = strings(raw.exclude) ?? [];

  // rootDir and outDir: compiled src/ goes to <outDir>/<src relative to rootDir>, never into src/
  let outDir = o.outDir === undefined ? undefined : resolve(o.outDir);
  let rootDir = o.rootDir === undefined ? undefined : resolve(o.rootDir);
  const emitOf = (out: string, root: string) => join(out, relative(root, src));
  /** Why init sets "rootDir" to the project folder, when it does. */
  let projectRoot: string | undefined;
  if (rootDir === undefined) {
    const skipOut = outDir ?? join(dir, "dist");
    const compiled = o.allowJs ? /(?<!\.d)\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/ : /(?<!\.d)\.(ts|tsx|mts|cts)$/;
    const outside = findFirstFile(
      dir,
      (f) =>
        compiled.test(f) &&
        !f.startsWith("src/") &&
        (include === undefined ? raw.files === undefined : matchesAny(include, "include", f)) &&
        !matchesAny(exclude, "exclude", f),
      (d) => d === "src" || within(join(dir, d), skipOut) || matchesAny(exclude, "exclude", d),
    );
    const value = outside === null ? "./src" : ".";
    rootDir = resolve(dir, value);
    const why =
      outside === null
        ? ""
        : outside === CANNOT_TELL
          ? " (the project is too large to tell whether all its code is in src/)"
          : ` (${outside} is outside src/)`;
    change(
      "rootDir",
      `is not set: with "outDir", TypeScript 7 requires it (TS5011) and 5.9 guesses it from the files it compiles: set "rootDir": ${JSON.stringify(value)}${why}`,
      value,
    );
    if (value === ".") projectRoot = why;
  } else if (!within(src, rootDir)) {
    conflicts.push({
      severity: "error",
      file: TSCONFIG_FILE,
      pointer: "/compilerOptions/rootDir",
      ...at("rootDir"),
      message: `${was("rootDir", quoted(rel(rootDir)))}, which does not hold src/, where the starter goes: make it a folder that holds both (".") and mind where your own output moves, then mcpgen init again`,
    });
  }
  if (outDir === undefined || within(emitOf(outDir, rootDir), src)) {
    const problem =
      outDir === undefined
        ? "is not set: tsc writes each .js and .d.ts next to its .ts"
        : `${was("outDir", quoted(rel(outDir)))}: tsc writes what it compiles from src/ into src/`;
    change(
      "outDir",
      `${problem}, also into src/mcp/, which mcpgen generate owns (the next generate refuses to run): set "outDir": "./dist"`,
      "./dist",
    );
    outDir = join(dir, "dist");
  }
  const emitDir = rel(emitOf(outDir, rootDir));
  if (projectRoot !== undefined)
    notes.push(
      `${TSCONFIG_FILE}: "rootDir" is "."${projectRoot}, so tsc writes src/server.ts to ${emitDir}/server.js and the npm scripts run it from there`,
    );

  // module: the starter is an ES module with top-level await importing @mcpgen/runtime's subpath exports
  const M = ts.ModuleKind;
  const nodeModule = o.module === M.Node16 || o.module === M.Node18 || o.module === M.Node20 || o.module === M.NodeNext;
  const bundler =
    (o.module === M.ES2022 || o.module === M.ESNext || o.module === M.Preserve) &&
    o.moduleResolution === ts.ModuleResolutionKind.Bundler;
  if (!nodeModule && !bundler) {
    change(
      "module",
      `${was("module", o.module === undefined ? undefined : quoted(M[o.module]?.toLowerCase()))}: the starter is an ES module that awaits at top level and imports @mcpgen/runtime's package exports, which takes "module": "nodenext" (what tsc --init sets)`,
      "nodenext",
    );
  }
  // TS5110: a node16/nodenext module resolves imports its own way and takes no other moduleResolution
  const R = ts.ModuleResolutionKind;
  if (
    !bundler &&
    o.moduleResolution !== undefined &&
    o.moduleResolution !== R.Node16 &&
    o.moduleResolution !== R.NodeNext
  ) {
    const module = nodeModule
      ? own("module")
        ? textOf(own("module")!.initializer)
        : quoted(M[o.module!]?.toLowerCase())
      : '"nodenext"';
    drop(
      "moduleResolution",
      `${was("moduleResolution", quoted(R[o.moduleResolution]?.toLowerCase()))}, which "module": ${module} does not allow (TS5110): remove it`,
      "nodenext",
    );
  }
  const T = ts.ScriptTarget;
  if (o.target !== undefined && o.target < T.ES2017) {
    change(
      "target",
      `${was("target", quoted(T[o.target]?.toLowerCase()))}: top-level await needs es2017 or later: set "target": "esnext"`,
      "esnext",
    );
  } else if (o.target === undefined && bundler) {
    change(
      "target",
      `is not set, which TypeScript 5.9 takes as es5 with a "module" other than nodenext: top-level await needs es2017 or later: set "target": "esnext"`,
      "esnext",
    );
  }

  // types: TypeScript 7 loads no @types package unless named here (5.9 loaded them all)
  if (uses === "web") {
    // A Worker's web globals come from a "lib" (dom, webworker; the default lib has dom) or from
    // what "types" names (wrangler types' worker-configuration.d.ts, @cloudflare/workers-types).
    const web = o.lib === undefined || o.lib.some((l) => /^lib\.(dom|webworker)\.d\.ts$/.test(l));
    if (!web && !(o.types && o.types.length > 0)) {
      const libs = (o.lib ?? []).map((l) => l.replace(/^lib\.|\.d\.ts$/g, ""));
      const p = own("lib");
      const message = `${was("lib", JSON.stringify(libs))}, without "dom" or "webworker", and "types" names no Worker types: the Worker starter uses the web platform's \`Request\`, \`Response\` and \`console\` (TS2304): add "webworker" (or name the output of \`wrangler types\` in "types")`;
      if (p && ts.isArrayLiteralExpression(p.initializer)) {
        needs("/compilerOptions/lib", message, at("lib"));
        edit.append(p.initializer, "webworker");
        set.push(`"lib": ${json([...libs, "webworker"])}`);
      } else change("lib", message, [...libs, "webworker"]);
    }
  } else if (o.types === undefined) {
    const types = ["node", ...typesPackages.filter((t) => t !== "node")];
    change(
      "types",
      `is not set: TypeScript 7 then loads no @types package (5.9 loaded every one), and the starter uses Node.js's \`process\` (TS2591): set "types": ${JSON.stringify(types)} (node, and the @types packages package.json lists)`,
      types,
    );
  } else if (!o.types.includes("node")) {
    const p = own("types");
    const message = `${was("types", JSON.stringify(o.types))}, without "node": the starter uses Node.js's \`process\` (TS2591): add "node"`;
    if (p && ts.isArrayLiteralExpression(p.initializer)) {
      needs("/compilerOptions/types", message, at("types"));
      edit.append(p.initializer, "node");
      set.push(`"types": ${json([...o.types, "node"])}`);
    } else change("types", message, [...o.types, "node"]);
  }

  for (const key of ["noEmit", "emitDeclarationOnly"] as const) {
    if (o[key] === true)
      drop(key, `${was(key, "true")}: tsc would write no JavaScript for \`npm start\` to run: remove it`, false);
  }

  // the starter's files must be compiled: "include" (or "files" alone) may leave src/ out
  const left = sources.filter((f) =>
    include === undefined ? raw.files !== undefined : !matchesAny(include, "include", f),
  );
  if (left.length) {
    const p = edit.property(root, "include");
    const current =
      include === undefined
        ? 'is not set, and "files" lists only some files'
        : p
          ? `is ${textOf(p.initializer)}`
          : `is ${JSON.stringify(include)} (from the config it extends)`;
    needs("/include", `${current}, which leaves out ${left.join(", ")}: add "src"`, edit.position(p));
    if (p && ts.isArrayLiteralExpression(p.initializer)) edit.append(p.initializer, "src");
    else edit.set(root, "include", [...(include ?? []), "src"]);
    set.push(`"include": ${json([...(include ?? []), "src"])}`);
  }
  const excluded = sources.filter((f) => matchesAny(exclude, "exclude", f));
  if (excluded.length) {
    conflicts.push({
      severity: "error",
      file: TSCONFIG_FILE,
      pointer: "/exclude",
      ...edit.position(edit.property(root, "exclude")),
      message: `leaves out ${excluded.join(", ")}, which the starter needs compiled: narrow it, then mcpgen init again`,
    });
  }

  return {
    text: changes.length ? edit.apply() : undefined,
    changes,
    summary: [
      ...(set.length ? [`set ${set.join(", ")}`] : []),
      ...(removed.length ? [`removed ${removed.join(", ")}`] : []),
    ].join("; "),
    conflicts,
    notes,
    emitDir,
    outDir: within(outDir, dir) && outDir !== dir ? rel(outDir) : undefined,
  };
}
