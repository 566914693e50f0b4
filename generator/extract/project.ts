/**
 * Loads the source module into a ts-morph project with the type checker. The author's
 * tsconfig.json (nearest above the file) supplies compiler options such as `paths` and
 * `strict`, but only the module and what it imports are loaded, never the whole project, so
 * extraction stays fast on large code bases.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { Project, ts, type SourceFile } from "ts-morph";
import { McpgenError } from "../errors.js";

export interface LoadedSource {
  project: Project;
  file: SourceFile;
}

export function loadSource(abs: string, display: string): LoadedSource {
  if (!existsSync(abs)) throw new McpgenError("file not found", { file: display });
  if (!statSync(abs).isFile())
    throw new McpgenError("is not a file", { file: display, expected: "a TypeScript module" });
  if (!/\.(c|m)?tsx?$/.test(abs) || abs.endsWith(".d.ts"))
    throw new McpgenError("is not a TypeScript source file", { file: display, expected: "a .ts module" });
  const project = newProject(findUp(dirname(abs), "tsconfig.json"), dirname(abs));
  const file = project.addSourceFileAtPath(abs);
  project.resolveSourceFileDependencies();
  // syntax only: a full type check of the module costs more than the extraction itself, and
  // type errors elsewhere in the handlers are the compiler's business, not the manifest's
  const syntax = project.getProgram().getSyntacticDiagnostics(file);
  if (syntax.length > 0) {
    const d = syntax[0]!;
    const where = d.getLineNumber() === undefined ? display : `${display}:${d.getLineNumber()}`;
    throw new McpgenError(
      `${where}: syntax error: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, " ")}`,
    );
  }
  return { project, file };
}

/**
 * A project with the checker: the author's tsconfig options when there is one, else ES2022 +
 * NodeNext with @types/node when installed (ts-morph does not discover type roots on its own).
 */
export function newProject(tsconfig: string | undefined, sourceDir: string): Project {
  const nodeTypes = !tsconfig && findUp(sourceDir, join("node_modules", "@types", "node")) !== undefined;
  return new Project({
    ...(tsconfig ? { tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true } : {}),
    // strict null checks decide optionality; the rest of the author's options stay theirs,
    // `types` included: return types inferred from `node:` APIs need @types/node to resolve
    compilerOptions: {
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      ...(tsconfig
        ? {}
        : {
            types: nodeTypes ? ["node"] : [],
            lib: ["lib.es2022.d.ts"],
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.NodeNext,
            moduleResolution: ts.ModuleResolutionKind.NodeNext,
          }),
    },
  });
}

export function findUp(dir: string, name: string): string | undefined {
  for (let d = dir, i = 0; i < 64; i++) {
    const candidate = join(d, name);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(d);
    if (parent === d) return undefined;
    d = parent;
  }
  return undefined;
}
