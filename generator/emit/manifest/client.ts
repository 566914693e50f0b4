/**
 * `client.ts`: a typed view of `createMcpClient` for one manifest: `client.tools.<member>(input)`
 * resolving to the typed structured output, `client.prompts.<member>(args)`,
 * `client.resources.<member>()` / `(vars)` (templates are expanded), and completion helpers.
 * The interface is the whole of it; the runtime builds the objects from the definition. The
 * file's skeleton is `templates/facades/client.ts.hbs`; this computes its view model.
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel } from "../../model/server-ir.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";
import { toolUiUri } from "../../load/apps.js";
import { facadeHead } from "./bindings.js";
import { servedRevisions } from "../../model/served-revisions.js";
import { describe, doc, inputOptional, str } from "./definition.js";

/** `spoken`: the revisions the output links (default: the manifest's that the runtime serves). */
export function clientView(
  model: ServerModel,
  spoken: readonly string[] = servedRevisions(model.revisions, "manifest"),
) {
  // A task-capable tool is a TaskTool: the same call plus `.start` / `.resume` (task handles).
  const tools = model.tools.map((t) => {
    const task = t.taskSupport !== "forbidden";
    const summary = task
      ? `Calls tool ${str(t.name)} (may run as a task: \`.start\` returns a handle).`
      : `Calls tool ${str(t.name)}.`;
    const ui = toolUiUri(t.definition);
    const view = ui !== undefined && typeof ui.uri === "string" ? ui.uri : undefined;
    return {
      doc: doc(
        summary,
        describe(t.definition),
        view === undefined ? undefined : `Its MCP App view (${view}): \`.ui()\`.`,
      ),
      member: t.ids.member,
      optional: inputOptional(t),
      inputType: t.inputType,
      outputType: t.outputType ?? false,
      task,
      ui: view !== undefined,
    };
  });
  const prompts = model.prompts.map((p) => ({
    doc: doc(`Gets prompt ${str(p.name)}.`, describe(p.definition)),
    member: p.ids.member,
    optional: !p.arguments.some((a) => a.required),
    argsType: p.argsType,
  }));
  const resources = model.resources.map((r) => ({
    doc: doc(`Reads ${str(r.uri)}.`, describe(r.definition)),
    member: r.ids.member,
  }));
  const resourceTemplates = model.resourceTemplates.map((t) => ({
    doc: doc(`Reads the resource ${str(t.uriTemplate)} expands to.`, describe(t.definition)),
    member: t.ids.member,
    optional: !t.variables.some((v) => !v.optional),
    varsType: t.varsType,
  }));
  const withCompletions = model.capabilities.completions !== undefined;
  const types = ["CallOptions", "McpClientBase", "McpClientOptions", "Transport"];
  if (model.tools.some((t) => t.outputType)) types.push("ToolCallResult");
  if (model.tools.some((t) => !t.outputType)) types.push("ContentCallResult");
  if (model.tools.some((t) => t.taskSupport !== "forbidden")) types.push("TaskTool");
  if (tools.some((t) => t.ui)) types.push("AppView");
  if (prompts.length > 0) types.push("GetPromptResult");
  if (resources.length + resourceTemplates.length > 0) types.push("ReadResourceResult");
  if (withCompletions) types.push("CompleteResult", "CompletionArguments");
  return {
    ...facadeHead(model, spoken, "client-side", types),
    tools,
    prompts,
    resources,
    resourceTemplates,
    skills: model.skills.length > 0,
    skillUris: model.skills.map((s) => str(s.uri)).join(" | "),
    skillsClient: runtimeImports.skillsClient,
    staticImports: model.staticImports === true,
    completions: withCompletions && {
      prompts: model.prompts
        .filter((p) => p.arguments.length > 0)
        .map((p) => ({ member: p.ids.member, type: p.argsType })),
      resources: model.resourceTemplates
        .filter((t) => t.variables.length > 0)
        .map((t) => ({ member: t.ids.member, type: t.varsType })),
    },
  };
}

export function emitClient(model: ServerModel, spoken?: readonly string[]): EmittedFile {
  return renderFile("manifest", "client.ts", clientView(model, spoken));
}
