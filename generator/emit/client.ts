/**
 * `client.ts`: a typed view of `createMcpClient` for one manifest: `client.tools.<member>(input)`
 * resolving to the typed structured output, `client.prompts.<member>(args)`,
 * `client.resources.<member>()` / `(vars)` (templates are expanded), and completion helpers.
 * The interface is the whole of it; the runtime builds the objects from the definition.
 */
import type { ServerModel } from "../model/server-ir.js";
import { PRINT_WIDTH } from "./indent.js";
import { FACADES, byName, describe, doc, fits, importLine, inputOptional, interfaceBlock, serverBaseName, signature, str, type FacadeFile, type FacadeOptions } from "./manifest-facade.js";

function section(depth: number, name: string, members: string): string {
  const pad = "  ".repeat(depth);
  return members === "" ? `${pad}readonly ${name}: {};\n` : `${pad}readonly ${name}: {\n${members}${pad}};\n`;
}

export function emitClient(model: ServerModel, options: FacadeOptions = {}): FacadeFile {
  const width = options.printWidth ?? PRINT_WIDTH;
  const name = serverBaseName(model);
  const opts = "options?: CallOptions";
  const tools = model.tools
    .map((t) => {
      const result = t.outputType ? `ToolCallResult<T.${t.outputType}>` : "ContentCallResult";
      const input = `input${inputOptional(t) ? "?" : ""}: T.${t.inputType}`;
      // A task-capable tool is a TaskTool: the same call plus `.start` / `.resume` (task handles).
      if (t.taskSupport !== "forbidden") return doc(2, `Calls tool ${str(t.name)} (may run as a task: \`.start\` returns a handle).`, describe(t.definition)) + `    readonly ${t.ids.member}: TaskTool<[${input}], ${result}>;\n`;
      return doc(2, `Calls tool ${str(t.name)}.`, describe(t.definition)) + signature(2, `${t.ids.member}(`, [input, opts], `): Promise<${result}>;`, width);
    })
    .join("");
  const prompts = model.prompts
    .map((p) => {
      const args = `args${p.arguments.some((a) => a.required) ? "" : "?"}: T.${p.argsType}`;
      return doc(2, `Gets prompt ${str(p.name)}.`, describe(p.definition)) + signature(2, `${p.ids.member}(`, [args, opts], "): Promise<GetPromptResult>;", width);
    })
    .join("");
  const resources =
    model.resources.map((r) => doc(2, `Reads ${str(r.uri)}.`, describe(r.definition)) + signature(2, `${r.ids.member}(`, [opts], "): Promise<ReadResourceResult>;", width)).join("") +
    model.resourceTemplates
      .map((t) => {
        const vars = `vars${t.variables.some((v) => !v.optional) ? "" : "?"}: T.${t.varsType}`;
        return doc(2, `Reads the resource ${str(t.uriTemplate)} expands to.`, describe(t.definition)) + signature(2, `${t.ids.member}(`, [vars, opts], "): Promise<ReadResourceResult>;", width);
      })
      .join("");
  const completer = (member: string, type: string) =>
    signature(3, `${member}(`, [`argument: keyof T.${type} & string`, "value: string", "context?: CompletionArguments", opts], "): Promise<Completion>;", width);
  const withCompletions = model.capabilities.completions !== undefined;
  let completions = "";
  if (withCompletions) {
    const cp = model.prompts.filter((p) => p.arguments.length > 0).map((p) => completer(p.ids.member, p.argsType));
    const cr = model.resourceTemplates.filter((t) => t.variables.length > 0).map((t) => completer(t.ids.member, t.varsType));
    completions = `  readonly completions: {\n${section(2, "prompts", cp.join(""))}${section(2, "resources", cr.join(""))}  };\n`;
  }
  const runtime = ["createMcpClient", "type CallOptions", "type McpClientBase", "type McpClientOptions", "type Transport"];
  if (model.tools.some((t) => t.outputType)) runtime.push("type ToolCallResult");
  if (model.tools.some((t) => !t.outputType)) runtime.push("type ContentCallResult");
  if (model.tools.some((t) => t.taskSupport !== "forbidden")) runtime.push("type TaskTool");
  if (prompts) runtime.push("type GetPromptResult");
  if (resources) runtime.push("type ReadResourceResult");
  if (withCompletions) runtime.push("type CompleteResult", "type CompletionArguments");
  const names = [runtime[0]!, ...runtime.slice(1).sort(byName)];
  const needsTypes = model.tools.length + model.prompts.length + model.resourceTemplates.length > 0;

  const contents =
    importLine(names, FACADES, width) +
    'import { definition } from "./definition.js";\n' +
    (needsTypes ? 'import type * as T from "./types.js";\n' : "") +
    "\n" +
    (withCompletions ? 'type Completion = CompleteResult["completion"];\n\n' : "") +
    doc(
      0,
      `A client of the MCP server ${str(model.identity.name)}: every tool, prompt and resource as a typed method, plus the generic calls (\`listTools\`, \`callTool\`, ...).`,
      "Tool calls resolve to `{ isError, structured, content }`; `structured` is checked against the tool's outputSchema (`ToolOutputError` when it does not match).",
    ) +
    interfaceBlock(`export interface ${name}Client extends McpClientBase`, section(1, "tools", tools) + section(1, "prompts", prompts) + section(1, "resources", resources) + completions) +
    "\n" +
    doc(0, `Connects to the MCP server ${str(model.identity.name)} over \`transport\` and runs the handshake.`) +
    signature(0, `export async function create${name}Client(`, ["transport: Transport", "options: McpClientOptions"], `): Promise<${name}Client> {`, width) +
    "  const client: unknown = await createMcpClient(definition, transport, options);\n" +
    `  return client as ${name}Client;\n}\n`;
  return { file: { path: "client.ts", contents }, preformatted: fits(contents, width) };
}
