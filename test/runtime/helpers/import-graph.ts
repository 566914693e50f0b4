/**
 * The import graph of a TypeScript source tree, read from the files' own import and export
 * statements (type-only ones and `import("...")` types included, since those tie files together
 * for a reader just as much), and its cycles.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** File (relative to the root, "/"-separated) -> the files it imports, in the order found. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const IMPORT =
  /(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

/** Every relative import of every `.ts` file below `root`; a target that is no file there is kept as written. */
export function importGraph(root: string): ImportGraph {
  const all = files(root).map((f) => relative(root, f).split("\\").join("/"));
  const known = new Set(all);
  const graph = new Map<string, string[]>();
  for (const file of all.sort()) {
    const out: string[] = [];
    for (const m of readFileSync(join(root, file), "utf8").matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (!spec.startsWith(".")) continue;
      const target = relative(root, join(root, file, "..", spec))
        .split("\\")
        .join("/");
      const ts = target.replace(/\.js$/, ".ts");
      const resolved = known.has(ts)
        ? ts
        : known.has(target.replace(/\.js$/, ".d.ts"))
          ? target.replace(/\.js$/, ".d.ts")
          : target;
      if (resolved !== file && !out.includes(resolved)) out.push(resolved);
    }
    graph.set(file, out);
  }
  return graph;
}

/** The import cycles: every strongly connected set of more than one file, each sorted, smallest file first. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  // Iterative Tarjan: a deep chain of imports must not overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; edge: number }[] = [{ file: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = graph.get(top.file) ?? [];
      if (top.edge < targets.length) {
        const to = targets[top.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.file;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.file)!));
      }
      if (low.get(top.file) !== index.get(top.file)) continue;
      const component: string[] = [];
      for (;;) {
        const f = stack.pop()!;
        onStack.delete(f);
        component.push(f);
        if (f === top.file) break;
      }
      if (component.length > 1) out.push(component.sort());
    }
  }
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
