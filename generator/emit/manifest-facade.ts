/**
 * Shared by the server and client emitters: the module's base name, the `definition.ts` data
 * module both import (identifier tables + lists + validators, the ABI object of
 * `McpDefinition`), and small printing helpers.
 */
import type { EmittedFile } from "../model/ir.js";
import { indentTs } from "./indent.js";
import type { ServerModel, ToolModel } from "../model/server-ir.js";
import { propertyKey, toTypeName } from "../names/index.js";
import { jsDoc } from "./schema-to-ts.js";

/** Where generated facades import the runtime from (the generated-code ABI of the facades). */
export const FACADES = "@mcpgen/runtime/facades";

/** `weather-example` → `WeatherExample` (`createWeatherExampleServer`); `Mcp` when the name has no letters. */
export function serverBaseName(model: ServerModel): string {
  return toTypeName(model.identity.name) || "Mcp";
}

export function doc(...lines: (string | null | undefined)[]): string {
  return jsDoc(lines.map((l) => l ?? undefined));
}

export function str(s: string): string {
  return JSON.stringify(s);
}

/** Whether callers may omit a tool's arguments: its input schema requires nothing we can see. */
export function inputOptional(tool: ToolModel): boolean {
  if (tool.inputFallback) return true;
  const s = tool.inputSchema as { [k: string]: unknown };
  if (typeof s !== "object" || s === null) return true;
  if (Array.isArray(s.required) && s.required.length > 0) return false;
  return !["$ref", "allOf", "anyOf", "oneOf", "if", "dependentRequired", "minProperties"].some((k) => k in s);
}

function table(entries: { name: string; member: string }[]): string {
  if (entries.length === 0) return "{}";
  return `{\n${entries.map((e) => `${propertyKey(e.name)}: ${str(e.member)},`).join("\n")}\n}`;
}

export function emitDefinition(model: ServerModel): EmittedFile {
  const m = (list: { name: string; ids: { member: string } }[]) => table(list.map((e) => ({ name: e.name, member: e.ids.member })));
  const contents = `import type { McpDefinition } from ${str(FACADES)};
import { pageSize, published, revisions } from "./lists.js";
import { toolValidators } from "./validators.js";

${doc(`What the generated server and client of ${str(model.identity.name)} hand to the runtime: the published lists, the tool validators, and the identifier of every entry by MCP name.`)}export const definition: McpDefinition = {
revisions,
pageSize,
published,
toolValidators,
members: {
tools: ${m(model.tools)},
prompts: ${m(model.prompts)},
resources: ${m(model.resources)},
resourceTemplates: ${m(model.resourceTemplates)},
},
};
`;
  return { path: "definition.ts", contents: indentTs(contents) };
}
