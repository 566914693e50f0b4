/**
 * Emits `lists.ts`: what the server publishes, precomputed per protocol revision as plain data
 * (generated files hold data, behaviour stays in the runtime): `serverInfo`, capabilities,
 * instructions and the `tools/list`, `resources/list`, `resources/templates/list` and
 * `prompts/list` entries in declaration order, each object reduced to the fields its revision
 * defines. Tool schemas are emitted once and shared by every revision.
 */
import type { EmittedFile } from "../model/ir.js";
import type { ServerModel } from "../model/server-ir.js";
import { pick, wireFields, type WireFields } from "../model/wire-fields.js";
import { jsDoc } from "./schema-to-ts.js";
import { printData } from "./print-data.js";
import { PRINT_WIDTH, indentTs } from "./indent.js";

export const MANIFEST_LISTS_FILE = "lists.ts";

export interface ManifestListsOptions {
  printWidth?: number;
  /** Field sets per revision (default: read from the bundled schemas). */
  fields?: (revision: string) => WireFields;
}

// unindented; laid out for the target width by indentTs (the file is a prettier fixpoint)
const JSON_TYPES = `/**
 * A JSON value.
 */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * A JSON object.
 */
export type JsonObject = { readonly [key: string]: Json };
`;

const PUBLISHED_INTERFACE = `export interface Published {
readonly serverInfo: JsonObject;
readonly capabilities: JsonObject;
readonly instructions?: string;
readonly tools: readonly JsonObject[];
readonly resources: readonly JsonObject[];
readonly resourceTemplates: readonly JsonObject[];
readonly prompts: readonly JsonObject[];
}
`;

const byIndex = <T extends { index: number }>(list: readonly T[]) => [...list].sort((a, b) => a.index - b.index);

export function emitManifestLists(model: ServerModel, options: ManifestListsOptions = {}): EmittedFile {
  const width = options.printWidth ?? PRINT_WIDTH;
  const fieldsOf = options.fields ?? wireFields;
  const refs = new Map<unknown, string>();
  const chunks: string[] = [indentTs(JSON_TYPES, width)];

  for (const tool of byIndex(model.tools)) {
    for (const [role, schema] of [["InputSchema", tool.inputSchema], ["OutputSchema", tool.outputSchema]] as const) {
      if (schema === null || typeof schema !== "object") continue;
      const name = `${tool.ids.member}${role}`;
      refs.set(schema, name);
      // annotated: inferring literal types of arbitrary JSON trips TS on keys like "toString"
      const head = `const ${name}: JsonObject = `;
      // printed without refs so the constant itself is spelled out
      chunks.push(`${jsDoc([`${role === "InputSchema" ? "inputSchema" : "outputSchema"} of tool ${JSON.stringify(tool.name)}.`])}${head}${printData(schema, { width }, 0, head.length, 1)};\n`);
    }
  }

  const published: { [revision: string]: unknown } = {};
  for (const revision of model.revisions) {
    const f = fieldsOf(revision);
    const capabilities = pick(model.capabilities as { [key: string]: unknown }, f.ServerCapabilities);
    const entry: { [key: string]: unknown } = {
      serverInfo: pick(model.identity, f.Implementation),
      capabilities,
    };
    if (model.instructions !== null) entry.instructions = model.instructions;
    entry.tools = capabilities.tools ? byIndex(model.tools).map((t) => pick(t.definition, f.Tool)) : [];
    entry.resources = capabilities.resources ? byIndex(model.resources).map((r) => pick(r.definition, f.Resource)) : [];
    entry.resourceTemplates = capabilities.resources ? byIndex(model.resourceTemplates).map((t) => pick(t.definition, f.ResourceTemplate)) : [];
    entry.prompts = capabilities.prompts
      ? byIndex(model.prompts).map((p) => {
          const out = pick(p.definition, f.Prompt);
          if (Array.isArray(out.arguments)) out.arguments = out.arguments.map((a: { [key: string]: unknown }) => pick(a, f.PromptArgument));
          return out;
        })
      : [];
    published[revision] = entry;
  }

  chunks.push(indentTs(`${jsDoc(["What the server publishes for one protocol revision."])}${PUBLISHED_INTERFACE}`, width));
  // annotated, so the module compiles under isolatedDeclarations
  const revisionsHead = "export const revisions: readonly string[] = ";
  chunks.push(`${jsDoc(["Revisions the server speaks, preferred first."])}${revisionsHead}${printData(model.revisions, { width }, 0, revisionsHead.length, 1)};\n`);
  chunks.push(`${jsDoc(["Entries per page of every list result."])}export const pageSize = ${model.pageSize};\n`);
  const head = "export const published: { readonly [revision: string]: Published } = ";
  chunks.push(`${jsDoc(["List payloads, serverInfo and capabilities per revision; list entries in manifest order."])}${head}${printData(published, { width, refs }, 0, head.length, 1)};\n`);
  return { path: MANIFEST_LISTS_FILE, contents: chunks.join("\n") };
}
