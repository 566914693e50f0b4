/**
 * Imports `mcpgen.config.{ts,js,mjs}` and returns its default export. A `.ts` config is
 * transpiled (types stripped, nothing checked) with the TypeScript compiler that ts-morph bundles,
 * written next to the original so its imports resolve as they would from there, imported, and
 * removed again. Each import gets a fresh URL, so watch mode sees edits.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { McpgenError } from "./errors.js";

export async function importConfigModule(path: string, display: string): Promise<unknown> {
  let url: string;
  let temp: string | undefined;
  if (path.endsWith(".ts")) {
    const { ts } = await import("ts-morph");
    const source = readFileSync(path, "utf8");
    const out = ts.transpileModule(source, {
      fileName: path,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    const syntax = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
    if (syntax) {
      const at =
        syntax.file && syntax.start !== undefined ? syntax.file.getLineAndCharacterOfPosition(syntax.start) : undefined;
      const where = at ? `${display}:${at.line + 1}:${at.character + 1}` : display;
      throw new McpgenError(`cannot load config: ${ts.flattenDiagnosticMessageText(syntax.messageText, " ")}`, {
        file: where,
      });
    }
    temp = join(dirname(path), `.${basename(path, ".ts")}.${process.pid}-${Date.now().toString(36)}.mjs`);
    writeFileSync(temp, out.outputText, { flag: "wx" });
    url = pathToFileURL(temp).href;
  } else {
    url = `${pathToFileURL(path).href}?mtime=${statSync(path).mtimeMs}`;
  }
  try {
    const mod = (await import(url)) as { default?: unknown };
    if (!("default" in mod) || mod.default === undefined) {
      throw new McpgenError("config module has no default export", {
        file: display,
        expected: "export default { manifest, out } (or { targets: [...] })",
      });
    }
    return await mod.default;
  } catch (e) {
    if (e instanceof McpgenError) throw e;
    throw new McpgenError(`cannot load config: ${(e as Error).message.split("\n")[0]}`, { file: display });
  } finally {
    if (temp) rmSync(temp, { force: true });
  }
}
