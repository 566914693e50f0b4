/**
 * `client.ts`: a typed view of `createMcpClient` for one manifest: `client.tools.<member>(input)`
 * resolving to the typed structured output, `client.prompts.<member>(args)`,
 * `client.resources.<member>()` / `(vars)` (templates are expanded), and completion helpers.
 * The interface is the whole of it; the runtime builds the objects from the definition.
 */
import type { EmittedFile } from "../model/ir.js";
import { indentTs } from "./indent.js";
import type { ServerModel } from "../model/server-ir.js";
import { FACADES, doc, inputOptional, serverBaseName, str } from "./manifest-facade.js";

function section(name: string, members: string[]): string {
  return members.length === 0 ? `readonly ${name}: {};\n` : `readonly ${name}: {\n${members.join("\n")}\n};\n`;
}

export function emitClient(model: ServerModel): EmittedFile {
  const base = serverBaseName(model);
  const tools = model.tools.map((t) => {
    const result = t.outputType ? `ToolCallResult<T.${t.outputType}>` : "ContentCallResult";
    const opt = inputOptional(t) ? "?" : "";
    return `${doc(`Calls tool ${str(t.name)}.`, t.definition.description as string | undefined)}${t.ids.member}(input${opt}: T.${t.inputType}, options?: CallOptions): Promise<${result}>;`;
  });
  const prompts = model.prompts.map((p) => {
    const opt = p.arguments.some((a) => a.required) ? "" : "?";
    return `${doc(`Gets prompt ${str(p.name)}.`, p.definition.description as string | undefined)}${p.ids.member}(args${opt}: T.${p.argsType}, options?: CallOptions): Promise<GetPromptResult>;`;
  });
  const resources = [
    ...model.resources.map((r) => `${doc(`Reads ${str(r.uri)}.`, r.definition.description as string | undefined)}${r.ids.member}(options?: CallOptions): Promise<ReadResourceResult>;`),
    ...model.resourceTemplates.map((t) => {
      const opt = t.variables.some((v) => !v.optional) ? "" : "?";
      return `${doc(`Reads the resource ${str(t.uriTemplate)} expands to.`, t.definition.description as string | undefined)}${t.ids.member}(vars${opt}: T.${t.varsType}, options?: CallOptions): Promise<ReadResourceResult>;`;
    }),
  ];
  const completer = (what: string, type: string) =>
    `(argument: keyof T.${type} & string, value: string, context?: { [name: string]: string }, options?: CallOptions): Promise<Completion>;`.replace("(", `${what}(`);
  const cp = model.prompts.filter((p) => p.arguments.length > 0).map((p) => completer(p.ids.member, p.argsType));
  const cr = model.resourceTemplates.filter((t) => t.variables.length > 0).map((t) => completer(t.ids.member, t.varsType));
  const withCompletions = model.capabilities.completions !== undefined;
  const types = ["type CallOptions", "type McpClientOptions", "type DefinedMcpClient", "type Transport"];
  if (model.tools.some((t) => t.outputType)) types.push("type ToolCallResult");
  if (model.tools.some((t) => !t.outputType)) types.push("type ContentCallResult");
  if (prompts.length) types.push("type GetPromptResult");
  if (resources.length) types.push("type ReadResourceResult");
  if (withCompletions) types.push("type CompleteResult");
  types.sort((a, b) => (a.slice(5) < b.slice(5) ? -1 : 1));
  const needsTypes = tools.length + prompts.length + model.resourceTemplates.length > 0;

  const contents = `import { createMcpClient, ${types.join(", ")} } from ${str(FACADES)};
import { definition } from "./definition.js";
${needsTypes ? 'import type * as T from "./types.js";\n' : ""}${withCompletions ? '\ntype Completion = CompleteResult["completion"];\n' : ""}
${doc(`A client of the MCP server ${str(model.identity.name)}: every tool, prompt and resource as a typed method, plus the generic calls (\`listTools\`, \`callTool\`, ...).`, "Tool calls resolve to `{ isError, structured, content }`; `structured` is checked against the tool's outputSchema (`ToolOutputError` when it does not match).")}export interface ${base}Client extends Omit<DefinedMcpClient, "tools" | "prompts" | "resources" | "completions"> {
${section("tools", tools)}${section("prompts", prompts)}${section("resources", resources)}${withCompletions ? `readonly completions: {\n${section("prompts", cp)}${section("resources", cr)}};\n` : ""}}

${doc(`Connects to the MCP server ${str(model.identity.name)} over \`transport\` and runs the handshake.`)}export async function create${base}Client(transport: Transport, options: McpClientOptions): Promise<${base}Client> {
return (await createMcpClient(definition, transport, options)) as unknown as ${base}Client;
}
`;
  return { path: "client.ts", contents: indentTs(contents) };
}
