// Every value exported by generator/, bin/ and runtime/src is imported by another module (the
// sources, the tests, bench/ or examples/) or is public API: what generator/index.ts (the "mcpgen"
// package) and the runtime package's entry points export. An exported value nothing imports is
// either dead code or a name that belongs to its own file; both are found here, from the sources'
// syntax alone. Types are left out: an exported function's option and result types are exported so
// callers can name them.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import ts from "typescript-5";
import { repoRoot } from "../helpers.js";

// Found when this check was written: the runtime's are left to the restructuring of runtime/src,
// init's to the work on `mcpgen init`, each of which removes its own.
const RUNTIME_RESTRUCTURE = "runtime/src is being restructured on another branch";
const INIT = "generator/init*.ts is being changed on another branch";
const HOST_IMPORT =
  'imported as #http-driver (runtime/package.json "imports", one file per host), which this check does not resolve';
const LEGACY_HTTP_IMPORT =
  'imported as #legacy-http (runtime/package.json "imports": Node\'s build or none), which this check does not resolve';
const ON_FIRST_USE_IMPORT =
  'imported as #on-first-use (runtime/package.json "imports": dynamic on Node, static for bundlers), which this check does not resolve';

/** Exported values nothing imports that stay for now, each with why. */
const ALLOWED: Record<string, string> = {
  "generator/init-package.ts#GITIGNORE_FILE": INIT,
  "generator/init-package.ts#PACKAGE_FILE": INIT,
  "runtime/src/auth/discovery.ts#resourceCovers": RUNTIME_RESTRUCTURE,
  "runtime/src/http-client/default-driver-node.ts#defaultHttpDriver": HOST_IMPORT,
  "runtime/src/http-client/default-driver-web.ts#defaultHttpDriver": HOST_IMPORT,
  "runtime/src/http-server/legacy-http-node.ts#hostLegacyHttp": LEGACY_HTTP_IMPORT,
  "runtime/src/http-server/legacy-http-none.ts#hostLegacyHttp": LEGACY_HTTP_IMPORT,
  "runtime/src/on-first-use/node.ts#loadModernPath": ON_FIRST_USE_IMPORT,
  "runtime/src/server/serve-inputs.ts#serveInputs": `re-exported by on-first-use/node.ts, ${ON_FIRST_USE_IMPORT}`,
  "runtime/src/server/serve-tool-headers.ts#serveToolHeaders": `re-exported by on-first-use/node.ts, ${ON_FIRST_USE_IMPORT}`,
  "runtime/src/on-first-use/node.ts#loadManifestClient": ON_FIRST_USE_IMPORT,
  "runtime/src/on-first-use/bundled.ts#loadModernPath": ON_FIRST_USE_IMPORT,
  "runtime/src/on-first-use/bundled.ts#serveInputs": ON_FIRST_USE_IMPORT,
  "runtime/src/on-first-use/bundled.ts#serveToolHeaders": ON_FIRST_USE_IMPORT,
  "runtime/src/on-first-use/bundled.ts#loadManifestClient": ON_FIRST_USE_IMPORT,
  "runtime/src/on-first-use/node.ts#loadApps": ON_FIRST_USE_IMPORT,
  "runtime/src/on-first-use/bundled.ts#loadApps": ON_FIRST_USE_IMPORT,
  "runtime/src/abi/legacy-era-core.ts#legacyEra":
    "exported by core.ts, Node's file of ./abi/v8, while this check reads the entries by their declarations (abi/v8.ts)",
  "runtime/src/auth/discovery.ts#resourceMetadataUrls": RUNTIME_RESTRUCTURE,
  "runtime/src/auth/discovery.ts#serverMetadataUrls": RUNTIME_RESTRUCTURE,
  "runtime/src/client/client.ts#impliedCapabilities": RUNTIME_RESTRUCTURE,
  "runtime/src/client/tasks.ts#statusChanges": RUNTIME_RESTRUCTURE,
  "runtime/src/framing/ndjson.ts#parseErrorReply": RUNTIME_RESTRUCTURE,
  "runtime/src/http-server/modern.ts#DEFAULT_MODERN_PROTOCOL_VERSIONS": RUNTIME_RESTRUCTURE,
  "runtime/src/http-server/security.ts#isLoopbackAddress": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-probe.ts#isModernRefusal": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-result.ts#INPUT_METHODS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-result.ts#INPUT_REQUEST_METHODS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-result.ts#MAX_INPUT_REQUESTS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-session.ts#pickSupported": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/listen.ts#MAX_LISTENS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/listen.ts#MAX_RESOURCE_SUBSCRIPTIONS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/listen.ts#MAX_TASK_IDS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/meta.ts#requestMeta": RUNTIME_RESTRUCTURE,
  "runtime/src/server/pagination.ts#encodeCursor": RUNTIME_RESTRUCTURE,
  "runtime/src/server/tools.ts#argumentErrorsAsResults": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-tasks.ts#MAX_POLL_MS": RUNTIME_RESTRUCTURE,
  "runtime/src/lifecycle/modern/client-tasks.ts#MIN_POLL_MS": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/handle.ts#TaskCancelledError": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/handle.ts#legacyTaskInfo": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/legacy.ts#RELATED_TASK": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/legacy-server.ts#taskOwner": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/legacy.ts#legacyTask": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/modern.ts#missingExtension": RUNTIME_RESTRUCTURE,
  "runtime/src/tasks/shared.ts#MAX_TASK_ID_LENGTH": RUNTIME_RESTRUCTURE,
};

const checked = ["generator", "bin", join("runtime", "src")];
const consumers = [...checked, "test", "bench", "examples"];
/** Generated from the schemas (generate-bundled): every definition's type is exported, used or not. */
const generatedDirs = [join("runtime", "src", "wire")];

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === "node_modules" || n === "fixtures" || n === "dist") return [];
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mts)$/.test(n) && !n.endsWith(".d.ts") ? [p] : [];
  });
}

interface ModuleFacts {
  /** Exported names (own declarations and local `export { a as b }`). */
  own: Set<string>;
  /** Those of `own` that are types only (interfaces, type aliases): erased, they are never dead code. */
  types: Set<string>;
  /** `export { a as b } from "x"`: b -> [x, a]. */
  reexports: Map<string, [string, string]>;
  /** `export * from "x"`. */
  stars: string[];
  /** Names this module imports from other modules: [module, name], name "*" for every export. */
  imports: [string, string][];
}

/** A relative specifier of `from` as a source file, or undefined (bare specifiers, assets). */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = join(dirname(from), spec).replace(/\.(m?js)$/, "");
  for (const ext of [".ts", ".mts", "/index.ts"]) if (existsSync(base + ext)) return base + ext;
  return undefined;
}

function factsOf(file: string): ModuleFacts {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const facts: ModuleFacts = { own: new Set(), types: new Set(), reexports: new Map(), stars: [], imports: [] };
  const localTypes = new Set(
    sf.statements
      .filter((st) => ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))
      .map((st) => (st as ts.InterfaceDeclaration).name.text),
  );
  const namespaces = new Map<string, string>();
  const isExported = (n: ts.Node) =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const target = resolveSpecifier(file, st.moduleSpecifier.text);
      const clause = st.importClause;
      if (!target || !clause) continue;
      if (clause.name) facts.imports.push([target, "default"]);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, target);
      else if (bindings)
        for (const el of bindings.elements) facts.imports.push([target, (el.propertyName ?? el.name).text]);
    } else if (ts.isExportDeclaration(st)) {
      const target =
        st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)
          ? resolveSpecifier(file, st.moduleSpecifier.text)
          : undefined;
      if (st.moduleSpecifier && !target) continue;
      if (!st.exportClause) facts.stars.push(target!);
      else if (ts.isNamespaceExport(st.exportClause)) {
        facts.own.add(st.exportClause.name.text);
        facts.imports.push([target!, "*"]);
      } else {
        for (const el of st.exportClause.elements) {
          if (target) facts.reexports.set(el.name.text, [target, (el.propertyName ?? el.name).text]);
          else facts.own.add(el.name.text);
          if (!target && (st.isTypeOnly || el.isTypeOnly || localTypes.has((el.propertyName ?? el.name).text)))
            facts.types.add(el.name.text);
        }
      }
    } else if (ts.isExportAssignment(st)) {
      facts.own.add("default");
    } else if (isExported(st)) {
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) facts.own.add(d.name.text);
      } else if (
        (ts.isFunctionDeclaration(st) ||
          ts.isClassDeclaration(st) ||
          ts.isInterfaceDeclaration(st) ||
          ts.isTypeAliasDeclaration(st) ||
          ts.isEnumDeclaration(st)) &&
        st.name
      ) {
        const isDefault = (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
        facts.own.add(isDefault ? "default" : st.name.text);
        if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) facts.types.add(st.name.text);
      }
    }
  }
  // `ns.name` of a namespace import, names taken from a dynamic import, `import("x").Name` in types
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      namespaces.has(node.expression.text)
    ) {
      facts.imports.push([namespaces.get(node.expression.text)!, node.name.text]);
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left) && namespaces.has(node.left.text)) {
      facts.imports.push([namespaces.get(node.left.text)!, node.right.text]);
    } else if (
      ts.isIdentifier(node) &&
      namespaces.has(node.text) &&
      !ts.isNamespaceImport(node.parent) &&
      !ts.isPropertyAccessExpression(node.parent) &&
      !ts.isQualifiedName(node.parent)
    ) {
      facts.imports.push([namespaces.get(node.text)!, "*"]); // the namespace itself escapes
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const target = resolveSpecifier(file, node.argument.literal.text);
      if (target)
        facts.imports.push([
          target,
          node.qualifier
            ? ts.isIdentifier(node.qualifier)
              ? node.qualifier.text
              : node.qualifier.left.getText()
            : "*",
        ]);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolveSpecifier(file, node.arguments[0].text);
      if (target) for (const name of dynamicNames(node)) facts.imports.push([target, name]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return facts;
}

/** What a dynamic `import()` takes: destructured names, `.then((m) => m.name)`, `(await import()).name`; else everything. */
function dynamicNames(call: ts.CallExpression): string[] {
  let node: ts.Node = call;
  while (ts.isParenthesizedExpression(node.parent) || ts.isAwaitExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) {
    return parent.name.elements.map((e) =>
      e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : (e.name as ts.Identifier).text,
    );
  }
  if (ts.isPropertyAccessExpression(parent) && parent.name.text !== "then") return [parent.name.text];
  if (ts.isPropertyAccessExpression(parent) && parent.name.text === "then" && ts.isCallExpression(parent.parent)) {
    const fn = parent.parent.arguments[0];
    const param = fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? fn.parameters[0]?.name : undefined;
    if (param && ts.isIdentifier(param)) {
      const names: string[] = [];
      const find = (n: ts.Node): void => {
        if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === param.text)
          names.push(n.name.text);
        ts.forEachChild(n, find);
      };
      find(fn!);
      return names;
    }
  }
  return ["*"];
}

/** Modules whose every export is public: the "mcpgen" package and the runtime package's entry points. */
function entryPoints(): string[] {
  const entries = [join(repoRoot, "generator", "index.ts")];
  const pkg = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as {
    exports: Record<string, string | { types: string }>;
  };
  for (const entry of Object.values(pkg.exports)) {
    if (typeof entry === "string") continue; // ./package.json
    const types = entry.types;
    const src = join(repoRoot, "runtime", types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"));
    if (existsSync(src)) entries.push(src);
  }
  return entries;
}

function deadExports(): string[] {
  const files = consumers.flatMap((d) => sources(join(repoRoot, d)));
  const facts = new Map(files.map((f) => [f, factsOf(f)]));
  const exportsOf = (f: string): Set<string> => {
    const m = facts.get(f);
    if (!m) return new Set();
    return new Set([
      ...m.own,
      ...m.reexports.keys(),
      ...m.stars.flatMap((s) => [...exportsOf(s)].filter((n) => n !== "default")),
    ]);
  };
  const used = new Set<string>();
  const pending: [string, string][] = [];
  const use = (file: string, name: string) => {
    const names = name === "*" ? [...exportsOf(file)] : [name];
    for (const n of names) {
      const key = `${file}#${n}`;
      if (used.has(key)) continue;
      used.add(key);
      pending.push([file, n]);
    }
  };
  for (const entry of entryPoints()) use(entry, "*");
  for (const m of facts.values()) for (const [target, name] of m.imports) use(target, name);
  // a used re-export uses what it re-exports
  while (pending.length > 0) {
    const [file, name] = pending.pop()!;
    const m = facts.get(file);
    if (!m || m.own.has(name)) continue;
    const re = m.reexports.get(name);
    if (re) use(re[0], re[1]);
    else for (const star of m.stars) if (exportsOf(star).has(name)) use(star, name);
  }
  const dead: string[] = [];
  for (const dir of checked) {
    for (const f of sources(join(repoRoot, dir))) {
      if (generatedDirs.some((g) => f.startsWith(join(repoRoot, g)))) continue;
      const m = facts.get(f)!;
      for (const name of m.own) {
        if (!m.types.has(name) && !used.has(`${f}#${name}`))
          dead.push(`${relative(repoRoot, f).split("\\").join("/")}#${name}`);
      }
    }
  }
  return dead.sort();
}

test("every value exported by generator/, bin/ and runtime/src is imported elsewhere or is public API", () => {
  const dead = deadExports();
  assert.equal(
    dead.filter((d) => !(d in ALLOWED)),
    [],
    "unexport these (or delete them); an export that must stay goes in ALLOWED with why",
  );
  assert.equal(
    Object.keys(ALLOWED).filter((d) => !dead.includes(d)),
    [],
    "ALLOWED names an export that is used now: drop it from the list",
  );
});

test("the check sees imports of every kind", () => {
  const facts = factsOf(join(repoRoot, "generator", "generate.ts"));
  const names = new Set(facts.imports.map(([f, n]) => `${relative(repoRoot, f).split("\\").join("/")}#${n}`));
  // static, dynamic destructured, and dynamic through .then
  assert.ok(names.has("generator/emit/files.ts#renderFile"));
  assert.ok(names.has("generator/render/manifest.ts#renderManifest"));
  assert.ok(names.has("generator/render/protocol.ts#bundledSharing"));
});

test.run();
