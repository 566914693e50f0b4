/**
 * What a code-first module declares, found through its exports:
 *
 * - `export const tools = { ... }`, `export const prompts = { ... }`, `export const resources =
 *   { ... }` (and optionally `completions`): the module has the shape of the generated
 *   `<Name>Handlers`, so `import * as handlers from "./notes.js"` is the handlers object.
 *   Members may be methods, arrow functions, or references to functions declared elsewhere.
 * - Otherwise every exported function is a tool (`import * as tools` is the `tools` object).
 *
 * Each entry carries the node its JSDoc is read from and its one call signature.
 */
import { Node, ts, type Signature, type SourceFile, type Symbol as MorphSymbol, type TypeChecker } from "ts-morph";
import type { Problems } from "./problems.js";

export type Section = "tools" | "prompts" | "resources";

export interface Entry {
  section: Section;
  /** Member key in the handlers object (the identifier the generated types must use). */
  key: string;
  /** Where the entry is written (errors point here). */
  node: Node;
  /** Declaration whose JSDoc describes the entry. */
  docNode: Node;
  signature: Signature;
  /** The function's parameter declarations (for destructuring defaults). */
  parameters: Node[];
}

export interface ModuleEntries {
  entries: Entry[];
  /** The module exports a `completions` object (the server declares the capability). */
  completions: boolean;
}

const SECTIONS: readonly Section[] = ["tools", "prompts", "resources"];

export function findEntries(sf: SourceFile, checker: TypeChecker, problems: Problems): ModuleEntries {
  const exported = [...sf.getExportedDeclarations()]
    .map(([name, decls]) => ({ name, decl: decls[0]! }))
    .filter((e) => e.decl !== undefined);
  const byPosition = (a: { node: Node }, b: { node: Node }) => a.node.getStart() - b.node.getStart();
  const sectionExports = exported.filter((e) => (SECTIONS as readonly string[]).includes(e.name));
  const entries: Entry[] = [];
  if (sectionExports.length > 0) {
    for (const { name, decl } of sectionExports) {
      const section = name as Section;
      const type = checker.getTypeAtLocation(decl);
      if (!type.isObject() || type.getCallSignatures().length > 0) {
        problems.error(decl, `/${section}`, `export ${section} must be an object of handler functions`);
        continue;
      }
      const members = type.getProperties().map((p) => ({ p, node: p.getDeclarations()[0] ?? decl }));
      members.sort(byPosition);
      for (const { p, node } of members) {
        const entry = member(section, p.getName(), p, node, decl, checker, problems);
        if (entry) entries.push(entry);
      }
    }
  } else {
    for (const { name, decl } of exported) {
      if (name === "default") continue;
      const isFunction =
        Node.isFunctionDeclaration(decl) ||
        (Node.isVariableDeclaration(decl) && decl.getType().getCallSignatures().length > 0);
      if (!isFunction) continue;
      const symbol = decl.getSymbol();
      if (!symbol) continue;
      const entry = member("tools", name, symbol, decl, decl, checker, problems);
      if (entry) entries.push(entry);
    }
    entries.sort(byPosition);
    if (entries.length === 0)
      problems.error(sf, "", "exports no function (a tool) and no tools / prompts / resources object");
  }
  return { entries, completions: exported.some((e) => e.name === "completions") };
}

function member(
  section: Section,
  key: string,
  symbol: MorphSymbol,
  node: Node,
  at: Node,
  checker: TypeChecker,
  problems: Problems,
): Entry | undefined {
  const signatures = checker.getTypeOfSymbolAtLocation(symbol, at).getCallSignatures();
  const ptr = `/${section}/${key}`;
  if (signatures.length !== 1) {
    problems.error(
      node,
      ptr,
      signatures.length === 0
        ? `${section}.${key} is not a function`
        : `${section}.${key} has ${signatures.length} overloads; a handler has one signature`,
    );
    return undefined;
  }
  const signature = signatures[0]!;
  const fn = implementation(node, checker) ?? signature.getDeclaration();
  const parameters = signature
    .getParameters()
    .map((p) => p.getValueDeclaration())
    .filter((d): d is Node => d !== undefined);
  return { section, key, node, docNode: docNodeOf(node, fn), signature, parameters };
}

/** `addNote` / `addNote: addNoteImpl` / `addNote: imported`: the function they name. */
function implementation(node: Node, checker: TypeChecker): Node | undefined {
  let symbol: MorphSymbol | undefined;
  if (Node.isShorthandPropertyAssignment(node)) symbol = checker.getShorthandAssignmentValueSymbol(node);
  else if (Node.isPropertyAssignment(node)) {
    const init = node.getInitializer();
    if (init && Node.isIdentifier(init)) symbol = init.getSymbol();
  }
  if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol();
  return symbol?.getDeclarations()[0];
}

/** A member's own JSDoc wins; a member that only names a function uses the function's. */
function docNodeOf(node: Node, fn: Node): Node {
  if (Node.isShorthandPropertyAssignment(node)) return fn;
  if (
    Node.isPropertyAssignment(node) &&
    Node.isIdentifier(node.getInitializerOrThrow()) &&
    ts.getJSDocCommentsAndTags(node.compilerNode).length === 0
  )
    return fn;
  return node;
}
