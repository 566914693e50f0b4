import { format, type Options } from "prettier";
import { McpgenError } from "../errors.js";

/**
 * Fixed prettier options: generated output must not depend on any prettier config found around
 * the output directory, or two machines would disagree about what "fresh" means.
 */
export const prettierOptions: Options = {
  printWidth: 100,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  endOfLine: "lf",
};

const parsers: Record<string, string> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "babel",
  mjs: "babel",
  cjs: "babel",
  json: "json",
};

/** The prettier parser for a generated file, or null when mcpgen does not format that kind of file. */
export function parserFor(path: string): string | null {
  const ext = /\.([a-z]+)$/.exec(path)?.[1] ?? "";
  return parsers[ext] ?? null;
}

export async function formatSource(path: string, contents: string): Promise<string> {
  const parser = parserFor(path);
  if (parser === null) return contents;
  try {
    return await format(contents, { ...prettierOptions, parser });
  } catch (e) {
    // An emitter produced code that does not parse: a generator bug, reported with the file name.
    throw new McpgenError(`emitted code does not parse: ${(e as Error).message.split("\n")[0]}`, { file: path });
  }
}
