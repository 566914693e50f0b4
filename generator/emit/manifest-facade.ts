/**
 * Shared by the server and client emitters: the module's base name, the `definition.ts` data
 * module both import (identifier tables + lists + validators: the runtime's `McpDefinition`),
 * and a layout that matches prettier's for the few constructs these files use (imports,
 * signatures, interfaces, objects), so the print stage can skip prettier for them.
 */
import type { EmittedFile } from "../model/ir.js";
import type { ServerModel, ToolModel } from "../model/server-ir.js";
import { propertyKey, toTypeName } from "../names/index.js";
import { PRINT_WIDTH } from "./indent.js";
import { printData } from "./print-data.js";
import { jsDoc } from "./schema-to-ts.js";

/** Where generated facades import the runtime from (the generated-code ABI of the facades). */
export const FACADES = "@mcpgen/runtime/facades";

export interface FacadeOptions {
  /** printWidth the layout targets (default 80). */
  printWidth?: number;
}

/** An emitted facade file and whether its layout is final (every code line fits the width). */
export interface FacadeFile {
  file: EmittedFile;
  preformatted: boolean;
}

/** `weather-example` → `WeatherExample` (`createWeatherExampleServer`); `Mcp` when the name has no letters. */
export function serverBaseName(model: ServerModel): string {
  return toTypeName(model.identity.name) || "Mcp";
}

/** JSDoc block at `depth` (two spaces per level). */
export function doc(depth: number, ...lines: (string | null | undefined)[]): string {
  const block = jsDoc(lines.map((l) => l ?? undefined));
  const pad = "  ".repeat(depth);
  return block
    .split("\n")
    .map((l) => (l === "" ? l : pad + l))
    .join("\n");
}

/** The `description` of a manifest entry, when it has one. */
export function describe(d: { [key: string]: unknown }): string | undefined {
  return typeof d.description === "string" ? d.description : undefined;
}

export function str(s: string): string {
  return JSON.stringify(s);
}

/**
 * `head(params)tail` on one line when it fits, else prettier's broken form: one parameter per
 * line with a trailing comma.
 */
export function signature(depth: number, head: string, params: string[], tail: string, width: number): string {
  const pad = "  ".repeat(depth);
  const one = `${pad}${head}${params.join(", ")}${tail}`;
  if (one.length <= width || params.length === 0) return one + "\n";
  return `${pad}${head}\n${params.map((p) => `${pad}  ${p},\n`).join("")}${pad}${tail}\n`;
}

/** `import { a, type B } from "x";`, broken one specifier per line when too long. */
export function importLine(names: string[], from: string, width: number): string {
  const one = `import { ${names.join(", ")} } from ${str(from)};`;
  if (one.length <= width) return one + "\n";
  return `import {\n${names.map((n) => `  ${n},\n`).join("")}} from ${str(from)};\n`;
}

/** Sorted as the emitters list runtime imports: values first in source order is not needed; by name. */
export function byName(a: string, b: string): number {
  const key = (s: string) => s.replace(/^type /, "");
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/** `head {body}`, or `head {}` when empty (as prettier prints it). */
export function interfaceBlock(head: string, body: string): string {
  return body === "" ? `${head} {}\n` : `${head} {\n${body}}\n`;
}

/** Code lines (not JSDoc) all fit: the file is what prettier would print. */
export function fits(contents: string, width: number): boolean {
  return contents.split("\n").every((l) => {
    const t = l.trimStart();
    return l.length <= width || t.startsWith("*") || t.startsWith("/**");
  });
}

/** Whether callers may omit a tool's arguments: its input schema requires nothing we can see. */
export function inputOptional(tool: ToolModel): boolean {
  if (tool.inputFallback) return true;
  const s = tool.inputSchema as { [k: string]: unknown };
  if (typeof s !== "object" || s === null) return true;
  if (Array.isArray(s.required) && s.required.length > 0) return false;
  return !["$ref", "allOf", "anyOf", "oneOf", "if", "dependentRequired", "minProperties"].some((k) => k in s);
}

function table(depth: number, key: string, entries: { name: string; member: string }[]): string {
  const pad = "  ".repeat(depth);
  if (entries.length === 0) return `${pad}${key}: {},\n`;
  return `${pad}${key}: {\n${entries.map((e) => `${pad}  ${propertyKey(e.name)}: ${str(e.member)},\n`).join("")}${pad}},\n`;
}

/** `toolScopes` of the definition: only tools that declare `auth.scopes`, only when some do. */
function toolScopes(model: ServerModel): string {
  const scoped = model.tools.filter((t) => t.scopes.length > 0);
  if (scoped.length === 0) return "";
  return `  toolScopes: {\n${scoped.map((t) => `    ${propertyKey(t.name)}: [${t.scopes.map(str).join(", ")}],\n`).join("")}  },\n`;
}

/**
 * `toolTasks` of the definition: tools that may run as tasks, only when some may. Kept beside the
 * published lists because a revision's Tool may have no `execution` field (2026-07-28 moved tasks
 * to an extension) while the runtime still has to know.
 */
function toolTasks(model: ServerModel): string {
  const tasked = model.tools.filter((t) => t.taskSupport !== "forbidden");
  if (tasked.length === 0) return "";
  return `  toolTasks: {\n${tasked.map((t) => `    ${propertyKey(t.name)}: ${str(t.taskSupport)},\n`).join("")}  },\n`;
}

export function emitDefinition(model: ServerModel, options: FacadeOptions = {}): FacadeFile {
  const width = options.printWidth ?? PRINT_WIDTH;
  const m = (key: string, list: { name: string; ids: { member: string } }[]) => table(2, key, list.map((e) => ({ name: e.name, member: e.ids.member })));
  const contents =
    `import type { McpDefinition } from ${str(FACADES)};\n` +
    `import { bindings } from "./bindings.js";\n` +
    `import { pageSize, published, revisions } from "./lists.js";\n` +
    `import { toolValidators } from "./validators.js";\n\n` +
    doc(0, `What the generated server and client of ${str(model.identity.name)} hand to the runtime: the published lists, the tool validators, the protocol bindings, and the identifier of every entry by MCP name.`) +
    "export const definition: McpDefinition = {\n  revisions,\n  pageSize,\n  published,\n  toolValidators,\n  bindings,\n  members: {\n" +
    m("tools", model.tools) +
    m("prompts", model.prompts) +
    m("resources", model.resources) +
    m("resourceTemplates", model.resourceTemplates) +
    "  },\n" +
    (model.cache === null ? "" : `  cache: ${printData(model.cache, { width }, 2, "  cache: ".length, 1)},\n`) +
    toolScopes(model) +
    toolTasks(model) +
    "};\n";
  return { file: { path: "definition.ts", contents }, preformatted: fits(contents, width) };
}
