import { format, type Options } from "prettier";
import { PRINT_WIDTH } from "./width.js";

/**
 * Fixed prettier options: generated output must not depend on any prettier config found around
 * the output directory, or two machines would disagree about what "fresh" means. A wide line
 * costs prettier far less work on the large generated validator files (see bench/generate.ts).
 */
export const prettierOptions: Options = {
  printWidth: PRINT_WIDTH,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  endOfLine: "lf",
};

const parsers: Record<string, string> = {
  // babel-ts prints our generated TypeScript identically to the `typescript` parser, faster.
  ts: "babel-ts",
  mts: "babel-ts",
  cts: "babel-ts",
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

/** Formats one file in this thread; throws prettier's error (the caller names the file). */
export async function formatSource(path: string, contents: string): Promise<string> {
  const parser = parserFor(path);
  if (parser === null) return contents;
  return format(contents, { ...prettierOptions, parser });
}
