/**
 * `createMcpClient`: the generic client plus `tools` / `prompts` / `resources` / `completions`
 * objects built from a generated definition. Generated client modules give these objects their
 * precise types (a mapped interface over the manifest); the behaviour is all here.
 */
import type { ValidationIssue, Validator } from "../abi.js";
import type { Transport } from "../transport.js";
import type { CallToolResult, CompleteResult, ContentBlock, GetPromptResult, ReadResourceResult } from "../mcp-types.js";
import { compileUriTemplate, type TemplateVariables } from "../uri-template.js";
import type { McpDefinition, PublishedLists } from "../server/types.js";
import { McpClient, openSession } from "./client.js";
import type { CallOptions, McpClientOptions } from "./types.js";

type Stub = (...args: never[]) => Promise<unknown>;
type Completion = (argument: string, value: string, context?: { [name: string]: string }, options?: CallOptions) => Promise<CompleteResult["completion"]>;

/** The server's structuredContent does not match the tool's outputSchema (or is missing). */
export class ToolOutputError extends Error {
  override name = "ToolOutputError";
  constructor(
    readonly tool: string,
    readonly issues: readonly ValidationIssue[],
    readonly result: CallToolResult,
  ) {
    const first = issues[0];
    super(`Tool ${JSON.stringify(tool)}: structured result does not match its outputSchema${first ? ` at "${first.instancePath || "/"}": ${first.message ?? first.keyword}` : ""}`);
  }
}

export class DefinedMcpClient extends McpClient {
  readonly tools: { [member: string]: Stub } = {};
  readonly prompts: { [member: string]: Stub } = {};
  readonly resources: { [member: string]: Stub } = {};
  readonly completions: { prompts: { [member: string]: Completion }; resources: { [member: string]: Completion } } = { prompts: {}, resources: {} };
}

/** The structured output of a successful call, checked against outputSchema. */
export function structuredOutput(tool: string, validator: Validator, result: CallToolResult): unknown {
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
  if (structured === undefined) throw new ToolOutputError(tool, [{ instancePath: "", schemaPath: "", keyword: "required", params: {}, message: "structuredContent is missing" }], result);
  if (!validator(structured)) throw new ToolOutputError(tool, validator.errors ?? [], result);
  return structured;
}

function lists(definition: McpDefinition): PublishedLists {
  // Entries are the same in every revision (only their fields differ); the first one has them all.
  return definition.published[definition.revisions[0]!]!;
}

/** What a generated `<Name>Client` interface extends (it adds typed `tools`, `prompts`, ...). */
export type McpClientBase = Omit<DefinedMcpClient, "tools" | "prompts" | "resources" | "completions">;

export async function createMcpClient(definition: McpDefinition, transport: Transport, options: McpClientOptions): Promise<DefinedMcpClient> {
  const bindings = options.bindings ?? definition.bindings;
  const client = new DefinedMcpClient(await openSession(transport, bindings === undefined ? options : { ...options, bindings }), options.onerror);
  const { members, toolValidators } = definition;
  const published = lists(definition);
  for (const tool of published.tools) {
    const name = tool.name as string;
    const output = toolValidators[name]?.output ?? null;
    client.tools[members.tools[name]!] = (async (input?: { [key: string]: unknown }, opts?: CallOptions) => {
      const result = await client.callTool(name, input ?? {}, opts);
      const isError = result.isError === true;
      const structured = output === null ? result.structuredContent : isError ? undefined : structuredOutput(name, output, result);
      return result._meta === undefined
        ? { isError, structured, content: result.content }
        : { isError, structured, content: result.content, _meta: result._meta };
    }) as Stub;
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
    client.resources[members.resources[resource.name as string]!] = ((opts?: CallOptions): Promise<ReadResourceResult> =>
      client.readResource(uri, opts)) as Stub;
  }
  for (const t of published.resourceTemplates) {
    const uriTemplate = t.uriTemplate as string;
    const template = compileUriTemplate(uriTemplate);
    const member = members.resourceTemplates[t.name as string]!;
    client.resources[member] = ((vars: TemplateVariables | undefined, opts?: CallOptions): Promise<ReadResourceResult> =>
      client.readResource(template.expand(vars ?? {}), opts)) as Stub;
    client.completions.resources[member] = (argument, value, context, opts) =>
      client.complete({ type: "ref/resource", uri: uriTemplate }, { name: argument, value }, context && { arguments: context }, opts);
  }
  return client;
}
