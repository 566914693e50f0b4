/**
 * `server.ts`: the typed handler interface of a manifest (one handler per tool, prompt, resource
 * and template; inputs and outputs typed from the manifest's schemas, so a handler returning the
 * wrong shape is a compile error) and `create<Name>Server`, which hands them with the
 * definition to the runtime's `createMcpServer`. No behaviour lives here.
 */
import type { EmittedFile } from "../model/ir.js";
import { indentTs } from "./indent.js";
import type { ServerModel } from "../model/server-ir.js";
import { propertyKey } from "../names/index.js";
import { FACADES, doc, serverBaseName, str } from "./manifest-facade.js";

function section(name: string, members: string[], optional = false): string {
  if (members.length === 0) return "";
  return `${name}${optional ? "?" : ""}: {\n${members.join("\n")}\n};\n`;
}

export function emitServer(model: ServerModel): EmittedFile {
  const base = serverBaseName(model);
  const tools = model.tools.map((t) => {
    const ret = t.outputType ? `ToolReturn<T.${t.outputType}>` : "ContentReturn";
    return `${doc(`Tool ${str(t.name)}.`, t.definition.description as string | undefined)}${t.ids.member}: (input: T.${t.inputType}, ctx: HandlerContext) => ${ret};`;
  });
  const prompts = model.prompts.map(
    (p) => `${doc(`Prompt ${str(p.name)}.`, p.definition.description as string | undefined)}${p.ids.member}: (args: T.${p.argsType}, ctx: HandlerContext) => PromptReturn;`,
  );
  const resources = [
    ...model.resources.map((r) => `${doc(`Resource ${str(r.uri)}.`, r.definition.description as string | undefined)}${r.ids.member}: (ctx: HandlerContext) => ResourceReturn;`),
    ...model.resourceTemplates.map(
      (t) => `${doc(`Resource template ${str(t.uriTemplate)}: called with the variables of the URI it matched.`, t.definition.description as string | undefined)}${t.ids.member}: (vars: T.${t.varsType}, ctx: HandlerContext) => ResourceReturn;`,
    ),
  ];
  let completions = "";
  if (model.capabilities.completions) {
    const completers = (names: string[]) => `{\n${names.map((n) => `${propertyKey(n)}?: Completer;`).join("\n")}\n}`;
    const cp = model.prompts.filter((p) => p.arguments.length > 0).map((p) => `${p.ids.member}?: ${completers(p.arguments.map((a) => a.name))};`);
    const cr = model.resourceTemplates.filter((t) => t.variables.length > 0).map((t) => `${t.ids.member}?: ${completers(t.variables.map((v) => v.name))};`);
    const body = section("prompts", cp, true) + section("resources", cr, true);
    if (body) completions = `${doc("Completion of prompt arguments and template variables (`completion/complete`); values beyond 100 are cut and flagged `hasMore`.")}completions?: {\n${body}};\n`;
  }
  const runtimeTypes = ["type McpServer", "type McpServerHandlers", "type McpServerOptions"];
  const used = (name: string, when: boolean) => when && runtimeTypes.push(`type ${name}`);
  used("HandlerContext", tools.length + prompts.length + resources.length > 0);
  used("ToolReturn", model.tools.some((t) => t.outputType));
  used("ContentReturn", model.tools.some((t) => !t.outputType));
  used("PromptReturn", prompts.length > 0);
  used("ResourceReturn", resources.length > 0);
  used("Completer", completions !== "");
  runtimeTypes.sort((a, b) => (a.slice(5) < b.slice(5) ? -1 : 1));
  const needsTypes = tools.length + prompts.length + model.resourceTemplates.length > 0;

  const contents = `import { createMcpServer, ${runtimeTypes.join(", ")} } from ${str(FACADES)};
import { definition } from "./definition.js";
${needsTypes ? 'import type * as T from "./types.js";\n' : ""}
${doc(`Handlers of the MCP server ${str(model.identity.name)}, one per manifest entry.`, "Tool handlers return the structured output itself (checked against outputSchema at compile time and before sending), `toolResult(...)` for extra content blocks, or `toolError(...)` for an error the model should see.")}export interface ${base}Handlers {
${section("tools", tools)}${section("prompts", prompts)}${section("resources", resources)}${completions}}

${doc(`The MCP server ${str(model.identity.name)}: \`server.connect(transport)\` serves one connection (call it once per stdio pipe or HTTP session).`)}export function create${base}Server(handlers: ${base}Handlers, options: McpServerOptions): McpServer {
return createMcpServer(definition, handlers as McpServerHandlers, options);
}
`;
  return { path: "server.ts", contents: indentTs(contents) };
}
