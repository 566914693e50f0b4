/**
 * Splits the ajv standalone code of several revisions together, so that a validator identical in
 * two revisions is one module both import (mcpgen's bundled revisions, which ship side by side in
 * @mcpgen/runtime). Each declaration is named by its content: a hash of its code with every
 * declaration it calls replaced by that one's hash (a mutually recursive group is hashed as a
 * whole), so identical code with identical callees gets the same name in every revision.
 * Declarations are then grouped as split.ts groups one revision's, by exactly which entries (now:
 * distinct entry validators, whatever revision uses them) reach them; imports still go from a
 * module to one reached by strictly more entries, so the module graph has no cycles. Declarations
 * no entry reaches (the typed facade's definitions) are grouped by which revisions declare them
 * (`definitions` of one revision, `definitions-<hash>` of several), so the eager binding of one
 * revision loads none of another's.
 *
 * A module one revision uses lives in that revision's folder; a module several use lives in the
 * shared folder (`shared/validators/`, beside the revisions' folders), which every one of them
 * imports it from (`../shared/validators/<name>.js`), so a revision's folder imports only its own
 * files and the shared folder's. Names in the shared folder are derived from content alone: an
 * entry module is its first user's module name with the hash of its validator
 * (`CancelledNotificationParams-<hash>`: two revisions' different validators of one name do not
 * meet), a group of definitions the hash of the entries that reach it (`shared-<hash>`) or of the
 * revisions that declare it (`definitions-<hash>`). A module imports only modules reached by
 * strictly more entries (or declared by more revisions), so a shared module never imports one of a
 * revision's folder.
 */
import { createHash } from "node:crypto";
import { SHARED_FOLDER } from "../../../paths.js";
import { runtimeImports } from "../../runtime-imports.js";
import {
  type Declaration,
  parseStandalone,
  type ParsedStandalone,
  type SplitModule,
  UNREACHED_MODULE,
} from "./split.js";

export interface ShareRevision {
  revision: string;
  /** ajv standalone code as `standaloneCode` returns it. */
  code: string;
  /** The validators methods use, by entry module name (as split.ts names them). */
  entries: ReadonlyArray<{ module: string; exportName: string }>;
}

export interface ShareInput {
  /** Local name of the runtime ABI namespace the code refers to. */
  abi: string;
  /** Name of the error helper each module that needs it gets its own copy of. */
  helper: string;
  /** Oldest first: the order of each module's declarations and of the revisions that name entries. */
  revisions: readonly ShareRevision[];
}

export interface SharedRevision {
  /** Modules this revision's `validators/` folder holds. */
  modules: SplitModule[];
  /** Every export of the revision's ajv code -> [import specifier from the revision folder, exported name]. */
  located: Map<string, [specifier: string, local: string]>;
  /** Entry module name -> import specifier of its module from the revision folder. */
  entries: Map<string, string>;
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");
/** Owner of a module in the shared folder (other owners are revision indexes). */
const SHARED = -1;
/** Characters of a hash in a name: 48 bits, and a collision stops generation (checked below). */
const SHORT = 12;
const STRING = /"(?:[^"\\\n]|\\.)*"/g;
const IDENT = /[A-Za-z_$][\w$]*/g;

/** `code` with every identifier outside string literals that `rename` maps replaced. */
function renameOutsideStrings(code: string, rename: (name: string) => string | undefined): string {
  let out = "";
  let from = 0;
  const edit = (part: string) => part.replace(IDENT, (id) => rename(id) ?? id);
  for (const m of code.matchAll(STRING)) {
    out += edit(code.slice(from, m.index)) + m[0];
    from = m.index + m[0].length;
  }
  return out + edit(code.slice(from));
}

/** Strongly connected components of the call graph, callees before callers (Tarjan). */
function components(declarations: Map<string, Declaration>, order: readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of declarations.get(v)!.uses) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      out.push(component);
    }
  };
  for (const name of order) if (!index.has(name)) visit(name);
  return out;
}

/** Content hash of every declaration of one revision's code. */
function contentHashes(parsed: ParsedStandalone): Map<string, string> {
  const hash = new Map<string, string>();
  const orderIndex = new Map(parsed.order.map((n, i) => [n, i]));
  for (const component of components(parsed.declarations, parsed.order)) {
    const inside = new Set(component);
    const text = (name: string, local: (n: string) => string) =>
      renameOutsideStrings(parsed.declarations.get(name)!.code, (id) => {
        if (id === name) return "$self";
        if (inside.has(id)) return local(id);
        const h = hash.get(id);
        return h === undefined ? undefined : `$${h}`;
      });
    if (component.length === 1) {
      hash.set(component[0]!, sha(text(component[0]!, () => "$self")));
      continue;
    }
    // Members in an order that does not depend on ajv's numbering (ties: ajv's order, which can
    // only cost sharing, never merge different code).
    const generic = new Map(component.map((n) => [n, text(n, () => "$member")]));
    const members = [...component].sort((a, b) => {
      const ga = generic.get(a)!;
      const gb = generic.get(b)!;
      return ga < gb ? -1 : ga > gb ? 1 : orderIndex.get(a)! - orderIndex.get(b)!;
    });
    const position = new Map(members.map((n, i) => [n, i]));
    const group = sha(members.map((n) => text(n, (m) => `$member${position.get(m)}`)).join("\n\0"));
    for (const n of members) hash.set(n, sha(`${group}:${position.get(n)}`));
  }
  return hash;
}

interface Node {
  /** Code with every declaration named `f<short hash>`. */
  code: string;
  uses: string[];
  /** Index of the first revision declaring it, then its position in that revision's code. */
  first: [revision: number, position: number];
  /** Indexes of the revisions declaring it. */
  declaredIn: number[];
}

/** Per revision its modules and where its validators are; under SHARED_FOLDER the shared folder's modules (nothing else). */
export function shareStandalone(input: ShareInput): Map<string, SharedRevision> {
  const revisions = input.revisions;
  if (revisions.some((r) => r.revision === SHARED_FOLDER))
    throw new Error(`no revision may be named ${SHARED_FOLDER}: that is the shared validators' folder`);
  const parsed = revisions.map((r) => parseStandalone({ code: r.code, abi: input.abi, helper: input.helper }));
  const helpers = new Set(parsed.map((p) => p.helperCode).filter((h) => h !== undefined));
  if (helpers.size > 1) throw new Error("the revisions' ajv code declares different error helpers");
  const helperCode = [...helpers][0];

  const nodes = new Map<string, Node>();
  const shortOf = new Map<string, string>();
  const local = (hash: string) => `f${hash.slice(0, SHORT)}`;
  const hashes = parsed.map((p, r) => {
    const hash = contentHashes(p);
    p.order.forEach((name, position) => {
      const h = hash.get(name)!;
      const short = h.slice(0, SHORT);
      const other = shortOf.get(short);
      if (other !== undefined && other !== h)
        throw new Error(`two validators share the name ${local(h)}; lengthen SHORT`);
      shortOf.set(short, h);
      const code = renameOutsideStrings(p.declarations.get(name)!.code, (id) =>
        p.declarations.has(id) ? local(hash.get(id)!) : undefined,
      );
      const known = nodes.get(h);
      if (known === undefined)
        nodes.set(h, {
          code,
          uses: [...new Set(p.declarations.get(name)!.uses.map((u) => hash.get(u)!))],
          first: [r, position],
          declaredIn: [r],
        });
      else if (known.code !== code)
        throw new Error(`${revisions[r]!.revision}: ${name} hashes like an earlier validator with other code`);
      else if (!known.declaredIn.includes(r)) known.declaredIn.push(r);
    });
    return hash;
  });

  // Entry validators, each with the revisions whose methods use it.
  const rootOf = (r: number, exportName: string): string => {
    const fn = parsed[r]!.exported.get(exportName);
    if (fn === undefined) throw new Error(`no export ${exportName} in ${revisions[r]!.revision}'s ajv code`);
    return hashes[r]!.get(fn)!;
  };
  const rootUsers = new Map<string, number[]>();
  const rootName = new Map<string, string>();
  revisions.forEach((rev, r) => {
    for (const { module, exportName } of rev.entries) {
      const root = rootOf(r, exportName);
      const users = rootUsers.get(root) ?? [];
      if (!users.includes(r)) users.push(r);
      rootUsers.set(root, users);
      // Named as the first revision using it names its module, in that revision's folder: the
      // revision's entry modules have distinct names, so no other root of the folder has it.
      if (!rootName.has(root)) rootName.set(root, module);
    }
  });
  const roots = [...rootUsers.keys()].sort();

  const reach = new Map<string, Set<string>>();
  for (const root of roots) {
    const stack = [root];
    while (stack.length > 0) {
      const h = stack.pop()!;
      let set = reach.get(h);
      if (set === undefined) reach.set(h, (set = new Set()));
      if (set.has(root)) continue;
      set.add(root);
      stack.push(...nodes.get(h)!.uses);
    }
  }

  /** The folder of a module the revisions `users` use: theirs when one, else the shared one. */
  const ownerOf = (users: Iterable<number>): number => {
    const set = new Set(users);
    return set.size === 1 ? [...set][0]! : SHARED;
  };
  /** Where an entry validator's module is: named as its first user names it, with its hash when shared. */
  const entryPlace = (root: string): [number, string] => {
    const owner = ownerOf(rootUsers.get(root)!);
    return [owner, owner === SHARED ? `${rootName.get(root)!}-${root.slice(0, 10)}` : rootName.get(root)!];
  };
  /** Module of each declaration: [owner (revision index, or SHARED), module name]. */
  const moduleOf = new Map<string, [number, string]>();
  for (const [h, node] of nodes) {
    const set = reach.get(h);
    if (set === undefined || set.size === 0) {
      // Grouped by which revisions declare them, so a revision's facade loads no other's: a
      // callee is declared wherever its caller is, so imports go to strictly larger sets.
      const by = node.declaredIn;
      moduleOf.set(h, [
        ownerOf(by),
        by.length === 1
          ? UNREACHED_MODULE
          : `${UNREACHED_MODULE}-${sha(by.map((r) => revisions[r]!.revision).join("\n")).slice(0, 10)}`,
      ]);
    } else if (set.size === 1) {
      moduleOf.set(h, entryPlace([...set][0]!));
    } else {
      const owner = ownerOf([...set].flatMap((root) => rootUsers.get(root)!));
      moduleOf.set(h, [owner, `shared-${sha([...set].sort().join("\n")).slice(0, 10)}`]);
    }
  }
  const key = ([owner, name]: [number, string]) => `${owner}/${name}`;
  const modules = new Map<string, { owner: number; name: string; members: string[]; root?: string }>();
  const moduleAt = (where: [number, string]) => {
    let m = modules.get(key(where));
    if (m === undefined) modules.set(key(where), (m = { owner: where[0], name: where[1], members: [] }));
    return m;
  };
  const byFirst = [...nodes].sort(([, a], [, b]) => a.first[0] - b.first[0] || a.first[1] - b.first[1]);
  for (const [h] of byFirst) moduleAt(moduleOf.get(h)!).members.push(h);
  const folder = (owner: number) => (owner === SHARED ? SHARED_FOLDER : revisions[owner]!.revision);
  for (const root of roots) {
    const m = moduleAt(entryPlace(root));
    if (m.root !== undefined || m.name.startsWith(UNREACHED_MODULE) || m.name.startsWith("shared-")) {
      throw new Error(`the validator module ${m.name} of ${folder(m.owner)} would hold two entries`);
    }
    m.root = root;
  }
  const lower = new Map<string, string>();
  for (const m of modules.values()) {
    const k = `${m.owner}/${m.name.toLowerCase()}`;
    const other = lower.get(k);
    if (other !== undefined)
      throw new Error(
        `validator modules ${other} and ${m.name} of ${folder(m.owner)} have the same file name (up to case)`,
      );
    lower.set(k, m.name);
  }

  // Typed exports each module offers the facades: every revision's exported functions it holds.
  const typed = new Map<string, Set<string>>();
  parsed.forEach((p, r) => {
    for (const fn of p.exported.values()) {
      const h = hashes[r]!.get(fn)!;
      const k = key(moduleOf.get(h)!);
      let set = typed.get(k);
      if (set === undefined) typed.set(k, (set = new Set()));
      set.add(h);
    }
  });
  const needed = new Set<string>();
  for (const [h, node] of nodes)
    for (const u of node.uses) if (key(moduleOf.get(u)!) !== key(moduleOf.get(h)!)) needed.add(u);

  /** Specifier of module `to` from a module in `fromOwner`'s validators folder. */
  const fromModule = (fromOwner: number, to: { owner: number; name: string }) =>
    to.owner === fromOwner ? `./${to.name}.js` : `../../${folder(to.owner)}/validators/${to.name}.js`;
  /** Specifier of module `to` from revision `r`'s folder. */
  const fromRevision = (r: number, to: { owner: number; name: string }) =>
    to.owner === r ? `./validators/${to.name}.js` : `../${folder(to.owner)}/validators/${to.name}.js`;

  const out = new Map<string, SharedRevision>(
    [...revisions.map((r) => r.revision), SHARED_FOLDER].map((f) => [
      f,
      { modules: [], located: new Map(), entries: new Map() },
    ]),
  );
  const sorted = [...modules.values()].sort(
    (a, b) => a.owner - b.owner || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  for (const m of sorted) {
    const body = m.members.map((h) => nodes.get(h)!.code);
    const imports = new Map<string, { spec: string; names: Set<string> }>();
    const importName = (h: string) => {
      const from = modules.get(key(moduleOf.get(h)!))!;
      if (from === m) return;
      const spec = fromModule(m.owner, from);
      let entry = imports.get(spec);
      if (entry === undefined) imports.set(spec, (entry = { spec, names: new Set() }));
      entry.names.add(local(h));
    };
    for (const h of m.members) for (const u of nodes.get(h)!.uses) importName(u);
    if (m.root !== undefined) importName(m.root);
    const text = body.join("\n");
    const offered = [...(typed.get(key([m.owner, m.name])) ?? [])].sort();
    const usesAbi = new RegExp(String.raw`\b${input.abi}\.`).test(text.replace(STRING, '""'));
    const lines: string[] = [];
    lines.push(
      usesAbi || offered.length > 0 || m.root !== undefined
        ? `import ${usesAbi ? "" : "type "}* as ${input.abi} from "${runtimeImports.abi}";`
        : "",
    );
    for (const { spec, names } of [...imports.values()].sort((a, b) =>
      a.spec < b.spec ? -1 : a.spec > b.spec ? 1 : 0,
    )) {
      lines.push(`import { ${[...names].sort().join(", ")} } from "${spec}";`);
    }
    if (helperCode !== undefined && new RegExp(String.raw`\b${input.helper}\(`).test(text)) lines.push(helperCode);
    lines.push(...body);
    const own = m.members.filter((h) => needed.has(h)).map(local);
    if (own.length > 0) lines.push(`export { ${own.join(", ")} };`);
    for (const h of offered) lines.push(`export const v${h.slice(0, SHORT)}: ${input.abi}.Validator = ${local(h)};`);
    if (m.root !== undefined)
      lines.push(
        `/** What this method's messages are checked with. */`,
        `export const validate: ${input.abi}.Validator = ${local(m.root)};`,
      );
    out.get(folder(m.owner))!.modules.push({ name: m.name, contents: lines.filter((l) => l !== "").join("\n") + "\n" });
  }
  revisions.forEach((rev, r) => {
    const result = out.get(rev.revision)!;
    for (const [exportName, fn] of parsed[r]!.exported) {
      const h = hashes[r]!.get(fn)!;
      result.located.set(exportName, [fromRevision(r, modules.get(key(moduleOf.get(h)!))!), `v${h.slice(0, SHORT)}`]);
    }
    for (const { module, exportName } of rev.entries) {
      const root = rootOf(r, exportName);
      result.entries.set(module, fromRevision(r, modules.get(key(entryPlace(root)))!));
    }
  });
  return out;
}
