/**
 * `server.ts`: the typed handler interface of a manifest (one handler per tool, prompt, resource
 * and template; inputs and outputs typed from the manifest's schemas, so a handler returning the
 * wrong shape is a compile error) and `create<Name>Server`, which hands them with the
 * definition to the runtime's `createMcpServer`. No behaviour lives here. The file's skeleton is
 * `templates/facades/server.ts.hbs`; this computes its view model.
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel } from "../../model/server-ir.js";
import { propertyKey } from "../../names/index.js";
import { renderFile } from "../files.js";
import { runtimeImports, SERVER_SIDE_TABLE, serverLoaderName, serverSideFile } from "../runtime-imports.js";
import { facadeHead } from "./bindings.js";
import { servedRevisions } from "../../model/served-revisions.js";
import { servedMethods } from "../../model/served-methods.js";
import { describe, doc, str } from "./definition.js";

/** `spoken`: the revisions the output links (default: the manifest's that the runtime serves). */
export function serverView(
  model: ServerModel,
  spoken: readonly string[] = servedRevisions(model.revisions, "manifest"),
) {
  const tools = model.tools.map((t) => {
    const scopes =
      t.scopes.length > 0
        ? `Requires OAuth scope ${t.scopes.map((s) => `\`${s}\``).join(", ")} on a protected HTTP endpoint (\`ctx.auth.scopes\`).`
        : undefined;
    return {
      doc: doc(`Tool ${str(t.name)}.`, describe(t.definition), scopes),
      member: t.ids.member,
      inputType: t.handlerInputType,
      outputType: t.outputType ?? false,
    };
  });
  const prompts = model.prompts.map((p) => ({
    doc: doc(`Prompt ${str(p.name)}.`, describe(p.definition)),
    member: p.ids.member,
    argsType: p.argsType,
  }));
  // A resource served from a file needs no handler: the server reads the generated resource-files.ts.
  const resources = model.resources
    .filter((r) => r.file === null)
    .map((r) => ({ doc: doc(`Resource ${str(r.uri)}.`, describe(r.definition)), member: r.ids.member }));
  const fileResources = model.resources
    .filter((r) => r.file !== null)
    .map((r) => ({ member: r.ids.member, uri: str(r.uri) }));
  const resourceTemplates = model.resourceTemplates.map((t) => ({
    doc: doc(
      `Resource template ${str(t.uriTemplate)}: called with the variables of the URI it matched.`,
      describe(t.definition),
    ),
    member: t.ids.member,
    varsType: t.varsType,
  }));
  // completers per prompt argument and template variable; the section is left out when nothing can be completed
  const completers = {
    prompts: model.prompts
      .filter((p) => p.arguments.length > 0)
      .map((p) => ({ member: p.ids.member, keys: p.arguments.map((a) => propertyKey(a.name)) })),
    resources: model.resourceTemplates
      .filter((t) => t.variables.length > 0)
      .map((t) => ({ member: t.ids.member, keys: t.variables.map((v) => propertyKey(v.name)) })),
  };
  const completions =
    model.capabilities.completions && completers.prompts.length + completers.resources.length > 0 ? completers : false;
  const hasResources = resources.length + resourceTemplates.length > 0;
  const types = ["McpServer", "McpServerHandlers", "McpServerOptions"];
  const use = (n: string, when: boolean) => when && types.push(n);
  use("HandlerContext", tools.length + prompts.length > 0 || hasResources);
  use(
    "ToolReturn",
    model.tools.some((t) => t.outputType),
  );
  use(
    "ContentReturn",
    model.tools.some((t) => !t.outputType),
  );
  use("PromptReturn", prompts.length > 0);
  use("ResourceReturn", hasResources);
  use("Completer", completions !== false);
  const taskTools = model.tools.some((t) => t.taskSupport !== "forbidden");
  // The handler context offers `ctx.client` requests of the kinds the manifest declares (all by default).
  const kinds = model.clientRequests;
  const ctx =
    kinds === null
      ? "HandlerContext"
      : `HandlerContext<${kinds.length === 0 ? "never" : kinds.map((k) => JSON.stringify(k)).join(" | ")}>`;
  const skills = model.skills.length > 0;
  use("McpDefinition", taskTools || skills);
  const head = facadeHead(model, spoken, "server-side", types);
  // Telling connections and listens of changes, by the runtime's own test (announcesChanges,
  // runtime/src/server/features.ts), which refuses a server lacking the feature it needs; the
  // legacy era's code (`legacyEra`) brings it along.
  const caps = model.capabilities;
  const changes =
    !head.revisions.some((r) => r.era === "legacy") &&
    (taskTools ||
      [caps.tools?.listChanged, caps.prompts?.listChanged, caps.resources?.listChanged, caps.resources?.subscribe].some(
        (v) => v !== undefined && v !== null && v !== false,
      ));
  // The Mcp-Param-* check of 2026-07-28 tools/calls, when a tool's input schema names x-mcp-header
  // anywhere: the runtime's own test (mirrorsHeaders, runtime/src/server/features.ts), which
  // refuses a server lacking the feature its tools need.
  const toolHeaders =
    head.revisions.some((r) => r.era === "modern") &&
    model.tools.some((t) => JSON.stringify(t.inputSchema ?? null).includes('"x-mcp-header"'));
  return {
    ...head,
    // The legacy era's code reaches the runtime from here alone (ABI 8): a server of 2026-07-28
    // alone, and its bundle, never carry it.
    legacy: head.revisions.some((r) => r.era === "legacy"),
    // So do the server features the manifest uses (prompts; resources, templates and skills read
    // through the resource router; completion): the runtime refuses a server that declares a
    // feature it was not given, and a bundle of one that does not carries none of its code.
    promptsFeature: model.capabilities.prompts !== undefined,
    resourcesFeature: model.capabilities.resources !== undefined,
    completionFeature: model.capabilities.completions !== undefined,
    // The MRTR code unless the manifest says the handlers ask the client nothing; task tools gather
    // input through it too.
    inputsFeature: model.clientRequests === null || model.clientRequests.length > 0 || taskTools,
    toolHeadersFeature: toolHeaders,
    changesFeature: changes,
    ctx,
    featureList:
      [
        model.capabilities.prompts !== undefined && "prompts",
        model.capabilities.resources !== undefined && "resources",
        model.capabilities.completions !== undefined && "completion",
        (model.clientRequests === null || model.clientRequests.length > 0 || taskTools) && "client input",
        toolHeaders && "tool headers",
        changes && "changes",
      ]
        .filter(Boolean)
        .join(", ") || "none",
    // Per revision its method table and the validators of what this server serves, each its own entry.
    // Through `@mcpgen/runtime/protocol/server-load`: one loader each, import thunks on Node and
    // static imports for bundlers (which then have no dynamic import to wrap the runtime in glue for).
    serverLoad: runtimeImports.serverLoad,
    revisions: head.revisions.map(({ revision, era, batching }) => {
      const served = servedMethods(model, revision);
      const loaders = (what: "params" | "results", methods: string[]) =>
        methods.map((m) => ({ method: str(m), loader: `load.${serverLoaderName(revision, serverSideFile(what, m))}` }));
      return {
        revision,
        era,
        batching,
        table: `load.${serverLoaderName(revision, SERVER_SIDE_TABLE)}`,
        params: loaders("params", served.params),
        results: loaders("results", served.results),
      };
    }),
    tools,
    prompts,
    // one `resources` section holds resources and templates
    hasResources,
    resources,
    resourceTemplates,
    completions,
    taskTools,
    tasksServer: runtimeImports.tasksServer,
    skills,
    skillsServer: runtimeImports.skillsServer,
    fileResources,
    ownDefinition: taskTools || skills,
    staticImports: model.staticImports === true,
  };
}

export function emitServer(model: ServerModel, spoken?: readonly string[]): EmittedFile {
  return renderFile("manifest", "server.ts", serverView(model, spoken));
}
