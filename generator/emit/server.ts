/**
 * `server.ts`: the typed handler interface of a manifest (one handler per tool, prompt, resource
 * and template; inputs and outputs typed from the manifest's schemas, so a handler returning the
 * wrong shape is a compile error) and `create<Name>Server`, which hands them with the
 * definition to the runtime's `createMcpServer`. No behaviour lives here.
 */
import type { ServerModel } from "../model/server-ir.js";
import { propertyKey } from "../names/index.js";
import { PRINT_WIDTH } from "./indent.js";
import { FACADES, byName, describe, doc, fits, importLine, interfaceBlock, serverBaseName, signature, str, type FacadeFile, type FacadeOptions } from "./manifest-facade.js";

function section(depth: number, name: string, members: string, optional = false): string {
  if (members === "") return "";
  const pad = "  ".repeat(depth);
  return `${pad}${name}${optional ? "?" : ""}: {\n${members}${pad}};\n`;
}

export function emitServer(model: ServerModel, options: FacadeOptions = {}): FacadeFile {
  const width = options.printWidth ?? PRINT_WIDTH;
  const name = serverBaseName(model);
  const ctx = "ctx: HandlerContext";
  const tools = model.tools
    .map((t) => {
      const ret = t.outputType ? `ToolReturn<T.${t.outputType}>` : "ContentReturn";
      const scopes = t.scopes.length > 0 ? `Requires OAuth scope ${t.scopes.map((s) => `\`${s}\``).join(", ")} on a protected HTTP endpoint (\`ctx.auth.scopes\`).` : undefined;
      return doc(2, `Tool ${str(t.name)}.`, ...[describe(t.definition), scopes].filter((x) => x !== undefined)) + signature(2, `${t.ids.member}: (`, [`input: T.${t.inputType}`, ctx], `) => ${ret};`, width);
    })
    .join("");
  const prompts = model.prompts
    .map((p) => doc(2, `Prompt ${str(p.name)}.`, describe(p.definition)) + signature(2, `${p.ids.member}: (`, [`args: T.${p.argsType}`, ctx], ") => PromptReturn;", width))
    .join("");
  const resources =
    model.resources.map((r) => doc(2, `Resource ${str(r.uri)}.`, describe(r.definition)) + signature(2, `${r.ids.member}: (`, [ctx], ") => ResourceReturn;", width)).join("") +
    model.resourceTemplates
      .map(
        (t) =>
          doc(2, `Resource template ${str(t.uriTemplate)}: called with the variables of the URI it matched.`, describe(t.definition)) +
          signature(2, `${t.ids.member}: (`, [`vars: T.${t.varsType}`, ctx], ") => ResourceReturn;", width),
      )
      .join("");
  let completions = "";
  if (model.capabilities.completions) {
    const completers = (member: string, names: string[]) => `      ${member}?: {\n${names.map((n) => `        ${propertyKey(n)}?: Completer;\n`).join("")}      };\n`;
    const cp = model.prompts.filter((p) => p.arguments.length > 0).map((p) => completers(p.ids.member, p.arguments.map((a) => a.name)));
    const cr = model.resourceTemplates.filter((t) => t.variables.length > 0).map((t) => completers(t.ids.member, t.variables.map((v) => v.name)));
    const body = section(2, "prompts", cp.join(""), true) + section(2, "resources", cr.join(""), true);
    if (body) {
      completions = doc(1, "Completion of prompt arguments and template variables (`completion/complete`); values beyond 100 are cut and flagged `hasMore`.") + `  completions?: {\n${body}  };\n`;
    }
  }
  const runtime = ["createMcpServer", "type McpServer", "type McpServerHandlers", "type McpServerOptions"];
  const use = (n: string, when: boolean) => when && runtime.push(`type ${n}`);
  use("HandlerContext", tools !== "" || prompts !== "" || resources !== "");
  use("ToolReturn", model.tools.some((t) => t.outputType));
  use("ContentReturn", model.tools.some((t) => !t.outputType));
  use("PromptReturn", prompts !== "");
  use("ResourceReturn", resources !== "");
  use("Completer", completions !== "");
  const names = [runtime[0]!, ...runtime.slice(1).sort(byName)];
  const needsTypes = model.tools.length + model.prompts.length + model.resourceTemplates.length > 0;

  const contents =
    importLine(names, FACADES, width) +
    'import { definition } from "./definition.js";\n' +
    (needsTypes ? 'import type * as T from "./types.js";\n' : "") +
    "\n" +
    doc(
      0,
      `Handlers of the MCP server ${str(model.identity.name)}, one per manifest entry.`,
      "Tool handlers return the structured output itself (checked against outputSchema at compile time and before sending), `toolResult(...)` for extra content blocks, or `toolError(...)` for an error the model should see.",
    ) +
    interfaceBlock(`export interface ${name}Handlers`, section(1, "tools", tools) + section(1, "prompts", prompts) + section(1, "resources", resources) + completions) +
    "\n" +
    doc(0, `The MCP server ${str(model.identity.name)}: \`server.connect(transport)\` serves one connection in every era the manifest offers (call it once per stdio pipe; Streamable HTTP calls it per session and per 2026-07-28 POST).`) +
    signature(0, `export function create${name}Server(`, [`handlers: ${name}Handlers`, "options: McpServerOptions = {}"], "): McpServer {", width) +
    "  return createMcpServer(definition, handlers as McpServerHandlers, options);\n}\n";
  return { file: { path: "server.ts", contents }, preformatted: fits(contents, width) };
}
