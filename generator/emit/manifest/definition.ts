/**
 * Shared by the server and client emitters: the module's base name, view-model helpers, and the
 * `definition.ts` data module both import (identifier tables + lists + an import thunk of the tool
 * validators, so a server starts without them: the runtime's `McpDefinition`). The files' skeletons are templates in `templates/facades/`; these emitters
 * only compute what goes into them, and the print stage runs prettier over the result.
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel, ToolModel } from "../../model/server-ir.js";
import { propertyKey, toTypeName } from "../../names/index.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";
import { printData } from "../../print/print-data.js";
import { PRINT_WIDTH } from "../../print/width.js";
import { jsDoc } from "./schema-to-ts.js";

/** `weather-example` → `WeatherExample` (`createWeatherExampleServer`); `Mcp` when the name has no letters. */
export function serverBaseName(model: ServerModel): string {
  return toTypeName(model.identity.name) || "Mcp";
}

/**
 * A JSDoc block for a view model (comment terminators escaped, no trailing newline): the template places it on
 * its own line and prettier indents it.
 */
export function doc(...lines: (string | null | undefined)[]): string {
  return jsDoc(lines.map((l) => l ?? undefined)).trimEnd();
}

/** `name` JSON-quoted for a comment: a comment terminator in a server name cannot end it early. */
export function quotedForDoc(name: string): string {
  return JSON.stringify(name).replace(/\*\//g, "*\\/");
}

/** The `description` of a manifest entry, when it has one. */
export function describe(d: { [key: string]: unknown }): string | undefined {
  return typeof d.description === "string" ? d.description : undefined;
}

export function str(s: string): string {
  return JSON.stringify(s);
}

/** Sorted as the emitters list runtime imports: by name, `type` modifiers ignored. */
export function byName(a: string, b: string): number {
  const key = (s: string) => s.replace(/^type /, "");
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/** Whether callers may omit a tool's arguments: its input schema requires nothing we can see. */
export function inputOptional(tool: ToolModel): boolean {
  if (tool.inputFallback) return true;
  const s = tool.inputSchema as { [k: string]: unknown };
  if (typeof s !== "object" || s === null) return true;
  if (Array.isArray(s.required) && s.required.length > 0) return false;
  return !["$ref", "allOf", "anyOf", "oneOf", "if", "dependentRequired", "minProperties"].some((k) => k in s);
}

/**
 * `definition.ts` from `templates/facades/definition.ts.hbs`. `toolScopes` lists only tools that
 * declare `auth.scopes`, `toolTasks` only tools that may run as tasks (kept beside the published
 * lists because a revision's Tool may have no `execution` field: 2026-07-28 moved tasks to an
 * extension, while the runtime still has to know); each is omitted when empty.
 */
export function definitionView(model: ServerModel) {
  const members = (kind: string, list: readonly { name: string; ids: { member: string } }[]) => ({
    kind,
    entries: list.map((e) => ({ key: propertyKey(e.name), member: str(e.ids.member) })),
  });
  return {
    abi: runtimeImports.abi,
    serverName: quotedForDoc(model.identity.name),
    staticImports: model.staticImports === true,
    members: [
      members("tools", model.tools),
      members("prompts", model.prompts),
      members("resources", model.resources),
      members("resourceTemplates", model.resourceTemplates),
    ],
    // printData lays objects out expanded (prettier keeps that) at the print stage's width
    cache: model.cache === null ? false : printData(model.cache, { width: PRINT_WIDTH }, 2, "  cache: ".length, 1),
    toolScopes: model.tools
      .filter((t) => t.scopes.length > 0)
      .map((t) => ({ key: propertyKey(t.name), scopes: t.scopes.map(str) })),
    toolTasks: model.tools
      .filter((t) => t.taskSupport !== "forbidden")
      .map((t) => ({ key: propertyKey(t.name), taskSupport: str(t.taskSupport) })),
  };
}

export function emitDefinition(model: ServerModel): EmittedFile {
  return renderFile("manifest", "definition.ts", definitionView(model));
}
