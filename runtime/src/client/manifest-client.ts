/**
 * `createMcpClient`: the generic client plus `tools` / `prompts` / `resources` / `completions`
 * objects built from a generated definition. Generated client modules give these objects their
 * precise types (a mapped interface over the manifest); the behaviour is all here.
 */
import type { ValidationIssue, Validator } from "../abi.js";
import { ownValue } from "../describe.js";
import { collectIssues, describeIssues, issueReport, type IssueReport } from "../issues.js";
import type { Transport } from "../transport.js";
import type {
  CallToolResult,
  CompleteResult,
  ContentBlock,
  GetPromptResult,
  ReadResourceResult,
} from "../mcp-types.js";
import { compileUriTemplate, type TemplateVariables } from "../uri-template.js";
import type { McpDefinition, PublishedLists, ToolValidators } from "../server/types.js";
import { listPolicy, McpClient, openSession, pollOptions, type ToolCallOptions } from "./client.js";
import type { CallOptions, McpClientOptions } from "./types.js";
import type * as Apps from "./apps.js";
import { taskHandle, type TaskHandle, type TaskWaitOptions } from "../tasks/handle.js";

type Stub = (...args: never[]) => Promise<unknown>;
type Completion = (
  argument: string,
  value: string,
  context?: { [name: string]: string },
  options?: CallOptions,
) => Promise<CompleteResult["completion"]>;

/** The server's structuredContent does not match the tool's outputSchema (or is missing). */
export class ToolOutputError extends Error {
  override name = "ToolOutputError";
  /** The failures, at most MAX_REPORTED_ISSUES (`limits`), each with its JSON pointer inside the structured result. */
  readonly issues: readonly ValidationIssue[];
  /** Failures found beyond `issues` (a lower bound when the all-errors validator stopped collecting). */
  readonly omitted: number;
  constructor(
    readonly tool: string,
    issues: readonly ValidationIssue[] | IssueReport,
    readonly result: CallToolResult,
  ) {
    const report = "issues" in issues ? issues : issueReport(issues);
    super(`Tool ${JSON.stringify(tool)}: structured result does not match its outputSchema: ${describeIssues(report)}`);
    this.issues = report.issues;
    this.omitted = report.omitted;
  }
}

/**
 * A tool that may run as a task (`execution.taskSupport` optional or required): the plain call,
 * which waits for a task transparently, plus `start` (a handle to detach with) and `resume`
 * (reattach by task id, e.g. after a restart). `Args` is the tuple of the tool's input parameter.
 */
export interface TaskTool<Args extends [input?: unknown] | [input: unknown], R> {
  (...args: [...Args, options?: CallOptions]): Promise<R>;
  /** Calls the tool as a task (the client must declare tasks: option `tasks: true`). */
  start(...args: [...Args, options?: CallOptions & { task?: { ttlMs?: number } }]): Promise<TaskHandle<R>>;
  /** A handle on a task `start` returned earlier, by its id. */
  resume(taskId: string, options?: TaskWaitOptions): Promise<TaskHandle<R>>;
}

export class DefinedMcpClient extends McpClient {
  readonly tools: { [member: string]: Stub } = {};
  readonly prompts: { [member: string]: Stub } = {};
  readonly resources: { [member: string]: Stub } = {};
  readonly completions: { prompts: { [member: string]: Completion }; resources: { [member: string]: Completion } } = {
    prompts: {},
    resources: {},
  };
}

/** The structured output of a successful call, as sent: `structuredContent`, else the JSON text block. */
function structuredOf(tool: string, result: CallToolResult): unknown {
  let structured: unknown = result.structuredContent;
  if (structured === undefined) {
    // Before 2025-06-18 (and from servers that omit it) the JSON text block is the only carrier.
    const text = result.content.find((b): b is ContentBlock & { type: "text" } => b.type === "text");
    if (text !== undefined) {
      try {
        structured = JSON.parse(text.text);
      } catch {
        structured = undefined;
      }
    }
  }
  if (structured === undefined)
    throw new ToolOutputError(
      tool,
      [{ instancePath: "", schemaPath: "", keyword: "required", params: {}, message: "structuredContent is missing" }],
      result,
    );
  return structured;
}

/**
 * A structured result `validator` refused (its errors name the first failure): a promise that
 * rejects with every failure (bounded) when `allErrors` imports the validator that finds them,
 * else ToolOutputError with the first.
 */
function refused(
  tool: string,
  validator: Validator,
  structured: unknown,
  result: CallToolResult,
  allErrors: (() => Promise<Validator | undefined>) | undefined,
): Promise<never> {
  const first = validator.errors;
  if (allErrors === undefined) throw new ToolOutputError(tool, first ?? [], result);
  return allErrors().then(
    (all) => {
      throw new ToolOutputError(tool, collectIssues(first, all, structured), result);
    },
    () => {
      throw new ToolOutputError(tool, first ?? [], result);
    },
  );
}

/** A typed tool call's result. */
function shaped(result: CallToolResult, isError: boolean, structured: unknown) {
  return result._meta === undefined
    ? { isError, structured, content: result.content }
    : { isError, structured, content: result.content, _meta: result._meta };
}

/** The `ui://` view a tool names (`_meta.ui.resourceUri`, or the deprecated `_meta["ui/resourceUri"]`). */
function uiOf(tool: { readonly [key: string]: unknown }): string | undefined {
  const meta = tool._meta as { ui?: { resourceUri?: unknown }; "ui/resourceUri"?: unknown } | undefined;
  const uri = meta?.ui?.resourceUri ?? meta?.["ui/resourceUri"];
  return typeof uri === "string" ? uri : undefined;
}

function lists(definition: McpDefinition): PublishedLists {
  // Entries are the same in every revision (only their fields differ); the first one has them all.
  return definition.published[definition.revisions[0]!]!;
}

/** What a generated `<Name>Client` interface extends (it adds typed `tools`, `prompts`, ...). */
export type McpClientBase = Omit<
  DefinedMcpClient,
  "tools" | "prompts" | "resources" | "completions" | "learnTaskSupport" | "startTask" | "reattach" | "callToolAs"
>;

export async function createMcpClient(
  definition: McpDefinition,
  transport: Transport,
  options: McpClientOptions,
  /**
   * The MCP Apps view reader (apps.ts), through `#on-first-use` (facades.ts): a dynamic import here
   * would have a bundler wrap what it reaches in lazy-init glue even in a server's bundle, which
   * drops this module but not the glue.
   */
  loadApps: () => Promise<typeof Apps>,
): Promise<DefinedMcpClient> {
  const bindings = options.bindings ?? definition.bindings;
  // A generated definition imports its tool validators: a client checks outputs from the first call.
  const toolValidators =
    typeof definition.toolValidators === "function" ? await definition.toolValidators() : definition.toolValidators;
  // Imported the first time a structured result fails (a failed import is tried again next time).
  const given = definition.allErrorsValidators;
  let loading: Promise<ToolValidators> | undefined;
  const allErrorsOf = (tool: string) =>
    given === undefined
      ? undefined
      : () =>
          (loading ??= (typeof given === "function" ? given() : Promise.resolve(given)).catch((e: unknown) => {
            loading = undefined;
            throw e;
          })).then((v) => ownValue(v, tool)?.output ?? undefined);
  const client = new DefinedMcpClient(
    await openSession(transport, bindings === undefined ? options : { ...options, bindings }),
    listPolicy(options),
    pollOptions(options),
  );
  const { members } = definition;
  const tasked = definition.toolTasks ?? {};
  const published = lists(definition);
  client.learnTaskSupport(
    Object.fromEntries(published.tools.map((t) => [t.name as string, tasked[t.name as string] ?? "forbidden"])),
  );
  for (const tool of published.tools) {
    const name = tool.name as string;
    const output = toolValidators[name]?.output ?? null;
    const allErrors = allErrorsOf(name);
    const typed = (result: CallToolResult) => {
      const isError = result.isError === true;
      if (output === null || isError)
        return shaped(result, isError, output === null ? result.structuredContent : undefined);
      const structured = structuredOf(name, result);
      return output(structured)
        ? shaped(result, false, structured)
        : refused(name, output, structured, result, allErrors);
    };
    // No async frame: the typed result is made as the response is read (one promise per call).
    const call = (input?: { [key: string]: unknown }, opts?: CallOptions) => {
      try {
        return client.callToolAs(name, input ?? {}, opts, typed);
      } catch (e) {
        return Promise.reject(e);
      }
    };
    if (tasked[name] !== undefined) {
      Object.assign(call, {
        start: async (input?: { [key: string]: unknown }, opts?: ToolCallOptions) =>
          taskHandle(await client.startTask(name, { name, arguments: input ?? {} }, opts), (r) =>
            typed(r as CallToolResult),
          ),
        resume: async (taskId: string, opts?: TaskWaitOptions) =>
          taskHandle(await client.reattach(taskId, opts), (r) => typed(r as CallToolResult)),
      });
    }
    const ui = uiOf(tool);
    // MCP Apps: the view the tool names; the code reading it loads on the first call.
    if (ui !== undefined)
      Object.assign(call, {
        ui: (opts?: CallOptions) => loadApps().then((m) => m.readAppView(client, ui, opts)),
      });
    client.tools[members.tools[name]!] = call as Stub;
  }
  for (const prompt of published.prompts) {
    const name = prompt.name as string;
    const member = members.prompts[name]!;
    client.prompts[member] = ((args?: { [key: string]: string }, opts?: CallOptions): Promise<GetPromptResult> =>
      client.getPrompt(name, args ?? {}, opts)) as Stub;
    client.completions.prompts[member] = (argument, value, context, opts) =>
      client.complete({ type: "ref/prompt", name }, { name: argument, value }, context && { arguments: context }, opts);
  }
  for (const resource of published.resources) {
    const uri = resource.uri as string;
    client.resources[members.resources[resource.name as string]!] = ((
      opts?: CallOptions,
    ): Promise<ReadResourceResult> => client.readResource(uri, opts)) as Stub;
  }
  for (const t of published.resourceTemplates) {
    const uriTemplate = t.uriTemplate as string;
    const template = compileUriTemplate(uriTemplate);
    const member = members.resourceTemplates[t.name as string]!;
    client.resources[member] = ((
      vars: TemplateVariables | undefined,
      opts?: CallOptions,
    ): Promise<ReadResourceResult> => client.readResource(template.expand(vars ?? {}), opts)) as Stub;
    client.completions.resources[member] = (argument, value, context, opts) =>
      client.complete(
        { type: "ref/resource", uri: uriTemplate },
        { name: argument, value },
        context && { arguments: context },
        opts,
      );
  }
  return client;
}
