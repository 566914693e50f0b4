/**
 * Input/output compatibility decided by the TypeScript checker over the types `generate` emits
 * for each manifest (emit/manifest/types.ts), so the verdict follows the types users compile
 * against: the old input must be assignable to the new input (every call that compiled still
 * compiles), the new output to the old output (every reader of a result still type-checks),
 * and the old prompt arguments to the new ones.
 *
 * Both type sets live in one in-memory ts-morph project as `old.ts` and `new.ts`; one statement
 * per check in `check.ts`, and each diagnostic is mapped back to its check by line.
 */
import { Project, ts } from "ts-morph";
import { emitManifestTypes } from "../../emit/manifest/types.js";
import { InputError } from "../../load/diagnostics.js";
import type { ServerModel } from "../../model/server-ir.js";

export interface CheckVerdict {
  /** `tools/<name>` or `prompts/<name>`. */
  entry: string;
  direction: "input" | "output" | "args";
  assignable: boolean;
  /** The checker's explanation when not assignable (first lines of the diagnostic chain). */
  why?: string;
}

interface Pending {
  entry: string;
  direction: CheckVerdict["direction"];
  source: string;
  target: string;
}

const MAX_WHY_LINES = 6;

/** The manifest's `types.ts`; a manifest `generate` would refuse (clashing type names) fails the same way here. */
function typesOf(model: ServerModel): string {
  const r = emitManifestTypes(model);
  const errors = r.problems.filter((p) => p.severity === "error");
  if (errors.length)
    throw new InputError(
      model.source.display,
      errors.map((p) => ({ ...p, file: model.source.display })),
    );
  return r.file.contents;
}

export function checkAssignability(a: ServerModel, b: ServerModel): CheckVerdict[] {
  const pending: Pending[] = [];
  const toolsB = new Map(b.tools.map((t) => [t.name, t]));
  for (const ta of a.tools) {
    const tb = toolsB.get(ta.name);
    if (!tb) continue;
    pending.push({
      entry: `tools/${ta.name}`,
      direction: "input",
      source: `Old.${ta.inputType}`,
      target: `New.${tb.inputType}`,
    });
    if (ta.outputType && tb.outputType)
      pending.push({
        entry: `tools/${ta.name}`,
        direction: "output",
        source: `New.${tb.outputType}`,
        target: `Old.${ta.outputType}`,
      });
  }
  const promptsB = new Map(b.prompts.map((p) => [p.name, p]));
  for (const pa of a.prompts) {
    const pb = promptsB.get(pa.name);
    if (pb)
      pending.push({
        entry: `prompts/${pa.name}`,
        direction: "args",
        source: `Old.${pa.argsType}`,
        target: `New.${pb.argsType}`,
      });
  }
  if (pending.length === 0) return [];

  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      strict: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true,
      lib: ["lib.es2022.d.ts"],
    },
  });
  project.createSourceFile("/old.ts", typesOf(a));
  project.createSourceFile("/new.ts", typesOf(b));
  // Line i+4 (1-based) of check.ts holds check i. The source side is seen through `Plain`: the
  // emitted interfaces have no implicit index signature, so without it an object type that was
  // closed would never be assignable to one that became open (additionalProperties: true),
  // though every value of the one is a value of the other.
  const lines = [
    'import type * as Old from "./old";',
    'import type * as New from "./new";',
    "type Plain<T> = T extends object ? { [K in keyof T]: Plain<T[K]> } : T;",
  ];
  pending.forEach((p, i) => lines.push(`export const check${i} = (v: Plain<${p.source}>): ${p.target} => v;`));
  const check = project.createSourceFile("/check.ts", lines.join("\n") + "\n");

  const failures = new Map<number, string>();
  // Only check.ts is checked (the lib and the two type files are checked through what it uses):
  // checking lib.d.ts too costs a second per run.
  for (const d of check.getPreEmitDiagnostics()) {
    const index = (d.getLineNumber() ?? 0) - 4;
    if (index < 0 || index >= pending.length)
      throw new Error(
        `unexpected diagnostic in the assignability checks: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, "\n")}`,
      );
    const text = ts
      .flattenDiagnosticMessageText(d.compilerObject.messageText, "\n")
      .replace(/\bimport\("\/(old|new)"\)\./g, (_m, w: string) => (w === "old" ? "Old." : "New."));
    failures.set(
      index,
      text
        .split("\n")
        .slice(0, MAX_WHY_LINES)
        .map((l) => l.trim())
        .join(" / "),
    );
  }
  return pending.map((p, i) => {
    const why = failures.get(i);
    return why === undefined
      ? { entry: p.entry, direction: p.direction, assignable: true }
      : { entry: p.entry, direction: p.direction, assignable: false, why };
  });
}
