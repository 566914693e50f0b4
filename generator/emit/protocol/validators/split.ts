/**
 * Splits one revision's ajv standalone code into modules that load per method: one module per
 * validator a method uses (its "entry"), and the definitions several entries call in shared
 * modules, grouped by exactly which entries reach them (what a bundler's code splitting does).
 * A connection that has seen `initialize` and `tools/call` then loads those two entries and the
 * shared modules they import, nothing else, and a bundler puts each module in its own chunk.
 *
 * Two declarations land in the same module only when the same entries reach them, so an import
 * always goes from a module to one reached by strictly more entries: the module graph has no
 * cycles, whatever recursion the schema has.
 */
import { createHash } from "node:crypto";
import { runtimeImports } from "../../runtime-imports.js";

/** A top-level declaration of ajv's code: `function validateN(…){…}` or `const schemaN = …;`. */
export interface Declaration {
  name: string;
  code: string;
  /** Other declarations it names. */
  uses: string[];
}

export interface SplitInput {
  /** ajv standalone code as `standaloneCode` returns it (helper `fail`, typed exports). */
  code: string;
  /** Local name of the runtime ABI namespace the code refers to. */
  abi: string;
  /** Name of the error helper each module that needs it gets its own copy of. */
  helper: string;
  /** The validators methods use, by module name; several names may share a function. */
  entries: ReadonlyArray<{ module: string; exportName: string }>;
}

export interface SplitModule {
  /** File name without extension, relative to the validators folder. */
  name: string;
  contents: string;
}

export interface SplitOutput {
  modules: SplitModule[];
  /** Every export of ajv's code (definition and method validators) -> [module, exported name]. */
  located: Map<string, [module: string, local: string]>;
}

const STRING = /"(?:[^"\\\n]|\\.)*"/g;
const IDENT = /[A-Za-z_$][\w$]*/g;
/** Modules of declarations no entry reaches (definitions only the typed facade exports). */
export const UNREACHED_MODULE = "definitions";

/** Top-level statements of `code`, cut at `;` or a function body's closing brace at depth 0. */
function statements(code: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) {
        if (i >= code.length) throw new Error("unterminated string in ajv's standalone code");
        if (code[i] === "\\") i++;
      }
    } else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      depth--;
      if (depth < 0) throw new Error("unbalanced brackets in ajv's standalone code");
      if (depth === 0 && c === "}" && /^\s*function\b/.test(code.slice(start, i))) {
        out.push(code.slice(start, i + 1).trim());
        start = i + 1;
      }
    } else if (c === ";" && depth === 0) {
      out.push(code.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  if (code.slice(start).trim() !== "") throw new Error("ajv's standalone code ends in an unterminated statement");
  return out.filter((s) => s !== "" && s !== ";");
}

/** Identifiers `code` names outside string literals. */
function identifiers(code: string): Set<string> {
  return new Set(code.replace(STRING, '""').match(IDENT) ?? []);
}

/** ajv's standalone code taken apart: its declarations, exports and error helper. */
export interface ParsedStandalone {
  declarations: Map<string, Declaration>;
  /** Export name -> name of the declaration it exports. */
  exported: Map<string, string>;
  /** Declaration names in ajv's order. */
  order: string[];
  helperCode: string | undefined;
}

/** Parses `standaloneCode`'s output; refuses any top-level statement it does not recognise. */
export function parseStandalone(input: Pick<SplitInput, "code" | "abi" | "helper">): ParsedStandalone {
  const declarations = new Map<string, Declaration>();
  const exported = new Map<string, string>();
  const order: string[] = [];
  let helperCode: string | undefined;
  const exportLine = new RegExp(
    String.raw`^export const ([A-Za-z_$][\w$]*): ${input.abi}\.Validator = ([A-Za-z_$][\w$]*);$`,
  );
  for (const s of statements(input.code)) {
    const ex = exportLine.exec(s);
    const declared = ex ? undefined : /^(?:function\s+([A-Za-z_$][\w$]*)\s*\(|const\s+([A-Za-z_$][\w$]*)\s*=)/.exec(s);
    if (ex) exported.set(ex[1]!, ex[2]!);
    else if (declared) {
      const name = declared[1] ?? declared[2]!;
      if (name === input.helper) helperCode = s;
      else {
        if (declarations.has(name)) throw new Error(`ajv's standalone code declares ${name} twice`);
        declarations.set(name, { name, code: s, uses: [] });
        order.push(name);
      }
    } else throw new Error(`unexpected top-level statement in ajv's standalone code: ${s.slice(0, 80)}`);
  }
  for (const d of declarations.values())
    d.uses = [...identifiers(d.code)].filter((n) => n !== d.name && declarations.has(n));
  for (const [name, fn] of exported) {
    if (!declarations.has(fn)) throw new Error(`export ${name} names ${fn}, which ajv's code does not declare`);
    if (name === "validate" || declarations.has(name))
      throw new Error(`export ${name} clashes with a name of the split modules`);
  }
  return { declarations, exported, order, helperCode };
}

export function splitStandalone(input: SplitInput): SplitOutput {
  const { declarations, exported, order, helperCode } = parseStandalone(input);

  // Which entries reach each declaration.
  const reach = new Map<string, Set<string>>();
  const entryRoot = new Map<string, string>();
  for (const { module, exportName } of input.entries) {
    const root = exported.get(exportName);
    if (root === undefined) throw new Error(`no export ${exportName} in ajv's standalone code`);
    entryRoot.set(module, root);
    const stack = [root];
    while (stack.length > 0) {
      const name = stack.pop()!;
      let set = reach.get(name);
      if (set === undefined) reach.set(name, (set = new Set()));
      if (set.has(module)) continue;
      set.add(module);
      stack.push(...declarations.get(name)!.uses);
    }
  }
  const moduleOf = new Map<string, string>();
  for (const name of order) {
    const set = reach.get(name);
    if (set === undefined || set.size === 0) moduleOf.set(name, UNREACHED_MODULE);
    else if (set.size === 1) moduleOf.set(name, [...set][0]!);
    else
      moduleOf.set(
        name,
        `shared-${createHash("sha256")
          .update([...set].sort().join("\n"))
          .digest("hex")
          .slice(0, 10)}`,
      );
  }

  // Names other modules import (the facade imports each ajv export under its own name).
  const needed = new Set<string>();
  for (const d of declarations.values())
    for (const u of d.uses) if (moduleOf.get(u) !== moduleOf.get(d.name)) needed.add(u);

  const members = new Map<string, string[]>();
  for (const name of order) {
    const m = moduleOf.get(name)!;
    let list = members.get(m);
    if (list === undefined) members.set(m, (list = []));
    list.push(name);
  }
  for (const module of entryRoot.keys()) if (!members.has(module)) members.set(module, []);
  const lower = new Map<string, string>();
  for (const m of members.keys()) {
    const other = lower.get(m.toLowerCase());
    if (other !== undefined) throw new Error(`validator modules ${other} and ${m} differ only in case`);
    lower.set(m.toLowerCase(), m);
  }

  const modules: SplitModule[] = [];
  for (const [module, names] of [...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const body = names.map((n) => declarations.get(n)!.code);
    const imports = new Map<string, Set<string>>();
    const importName = (name: string) => {
      const from = moduleOf.get(name)!;
      if (from === module) return;
      let set = imports.get(from);
      if (set === undefined) imports.set(from, (set = new Set()));
      set.add(name);
    };
    for (const n of names) for (const u of declarations.get(n)!.uses) importName(u);
    const root = entryRoot.get(module);
    if (root !== undefined) importName(root);
    const text = body.join("\n");
    const lines: string[] = [];
    const usesAbi = new RegExp(String.raw`\b${input.abi}\.`).test(text.replace(STRING, '""'));
    const typed = root !== undefined || [...exported.values()].some((fn) => moduleOf.get(fn) === module);
    lines.push(
      usesAbi || typed ? `import ${usesAbi ? "" : "type "}* as ${input.abi} from "${runtimeImports.abi}";` : "",
    );
    for (const [from, set] of [...imports].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      lines.push(`import { ${[...set].sort().join(", ")} } from "./${from}.js";`);
    }
    if (helperCode !== undefined && new RegExp(String.raw`\b${input.helper}\(`).test(text)) lines.push(helperCode);
    lines.push(...body);
    const own = names.filter((n) => needed.has(n));
    if (own.length > 0) lines.push(`export { ${own.join(", ")} };`);
    for (const [name, fn] of exported)
      if (moduleOf.get(fn) === module) lines.push(`export const ${name}: ${input.abi}.Validator = ${fn};`);
    if (root !== undefined)
      lines.push(
        `/** What this method's messages are checked with. */`,
        `export const validate: ${input.abi}.Validator = ${root};`,
      );
    modules.push({ name: module, contents: lines.filter((l) => l !== "").join("\n") + "\n" });
  }
  const located = new Map<string, [string, string]>();
  for (const [name, fn] of exported) located.set(name, [moduleOf.get(fn)!, name]);
  return { modules, located };
}
