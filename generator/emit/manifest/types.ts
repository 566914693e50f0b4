/**
 * Emits `types.ts` for a server manifest: the input and output type of every tool (nested
 * types named by tool and property path), the argument set of every prompt, the variables of
 * every resource template, and name-keyed maps tying them together for the server and client
 * emitters. Collisions of derived names are errors naming both schema locations.
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel } from "../../model/server-ir.js";
import { propertyKey } from "../../names/identifiers.js";
import { NameRegistry, describeCollision } from "../../names/registry.js";
import { jsDoc, schemaToTypes, type Problem } from "./schema-to-ts.js";
import { indentTs } from "../../print/indent.js";

export interface ManifestTypesResult {
  file: EmittedFile;
  /** Errors (name collisions) and warnings; the caller fails the run on errors. */
  problems: Problem[];
}

export const MANIFEST_TYPES_FILE = "types.ts";

export interface ManifestTypesOptions {
  /** Width the layout targets; the output is a prettier fixpoint for this printWidth. */
  printWidth?: number;
}

/**
 * The file is laid out as prettier would (see indent.ts), so formatting it again is a no-op;
 * a test holds that for every fixture.
 */
export function emitManifestTypes(model: ServerModel, options: ManifestTypesOptions = {}): ManifestTypesResult {
  const registry = new NameRegistry("type");
  const problems: Problem[] = [];
  const chunks: string[] = [];

  for (const tool of model.tools) {
    const what = `tool ${JSON.stringify(tool.name)}`;
    const description = typeof tool.definition.description === "string" ? tool.definition.description : undefined;
    const input = schemaToTypes(
      {
        schema: tool.inputSchema,
        rootName: tool.inputType,
        pointer: `${tool.pointer}/inputSchema`,
        ownerName: tool.name,
        fallback: tool.inputFallback,
        rootDoc: jsDoc([`Arguments of ${what}.`, description]),
        ...(tool.inputDefaults === null
          ? {}
          : {
              defaults: {
                plan: tool.inputDefaults,
                rootDoc: jsDoc([
                  `Arguments of ${what} as its handler gets them: the inputSchema's defaults filled in where a property is absent.`,
                  description,
                ]),
              },
            }),
      },
      registry,
    );
    chunks.push(...input.declarations);
    problems.push(...input.problems);
    if (tool.outputSchema !== null && tool.outputType) {
      const output = schemaToTypes(
        {
          schema: tool.outputSchema,
          rootName: tool.outputType,
          pointer: `${tool.pointer}/outputSchema`,
          ownerName: tool.name,
          fallback: tool.outputFallback,
          rootDoc: jsDoc([`Structured result (\`structuredContent\`) of ${what}.`]),
        },
        registry,
      );
      chunks.push(...output.declarations);
      problems.push(...output.problems);
    }
  }

  for (const prompt of model.prompts) {
    registry.claim(prompt.argsType, { pointer: `${prompt.pointer}/name`, name: prompt.name });
    const members = prompt.arguments.map(
      (a) => `${jsDoc([a.description ?? undefined])}${propertyKey(a.name)}${a.required ? "" : "?"}: string;`,
    );
    const doc = jsDoc([`Arguments of prompt ${JSON.stringify(prompt.name)} (values are strings on the wire).`]);
    chunks.push(
      members.length
        ? `${doc}export interface ${prompt.argsType} {\n${members.join("\n")}\n}\n`
        : `${doc}export type ${prompt.argsType} = Record<string, never>;\n`,
    );
  }

  for (const t of model.resourceTemplates) {
    registry.claim(t.varsType, { pointer: `${t.pointer}/name`, name: t.name });
    const members = t.variables.map(
      (v) => `${propertyKey(v.name)}${v.optional ? "?" : ""}: ${v.explode ? "string | string[]" : "string"};`,
    );
    const doc = jsDoc([`Variables of resource template ${JSON.stringify(t.name)}: \`${t.uriTemplate}\`.`]);
    chunks.push(
      members.length
        ? `${doc}export interface ${t.varsType} {\n${members.join("\n")}\n}\n`
        : `${doc}export type ${t.varsType} = Record<string, never>;\n`,
    );
  }

  // name-keyed maps: the server/client emitters (and users' generic code) index these
  const map = (name: string, doc: string, rows: string[]) =>
    chunks.push(`${jsDoc([doc])}export interface ${name} ${rows.length ? `{\n${rows.join("\n")}\n}` : "{}"}\n`);
  map(
    "ToolTypes",
    "Input and output type of every tool, by MCP tool name (`output` is undefined for tools without outputSchema).",
    model.tools.map(
      (t) => `${propertyKey(t.name)}: {\ninput: ${t.inputType};\noutput: ${t.outputType ?? "undefined"};\n};`,
    ),
  );
  map(
    "PromptTypes",
    "Argument type of every prompt, by MCP prompt name.",
    model.prompts.map((p) => `${propertyKey(p.name)}: ${p.argsType};`),
  );
  map(
    "ResourceTemplateTypes",
    "Variable type of every resource template, by template name.",
    model.resourceTemplates.map((t) => `${propertyKey(t.name)}: ${t.varsType};`),
  );

  for (const c of registry.collisions)
    problems.push({
      severity: "error",
      pointer: c.second.pointer,
      message: `generated type names clash: ${describeCollision(c)}`,
    });
  return { file: { path: MANIFEST_TYPES_FILE, contents: indentTs(chunks.join("\n"), options.printWidth) }, problems };
}
