/**
 * Emits `lists.ts`: what the server publishes, precomputed per protocol revision as plain data
 * (generated files hold data, behaviour stays in the runtime): `serverInfo`, capabilities,
 * instructions and the `tools/list`, `resources/list`, `resources/templates/list` and
 * `prompts/list` entries in declaration order, each object reduced to the fields its revision
 * defines. Tool schemas are emitted once and shared by every revision.
 *
 * The skeleton is `templates/facades/lists.ts.hbs`. The file grows with the manifest's schemas, so
 * it skips prettier: its values are laid out by printData as prettier would at the print stage's
 * width, and the template's fixed text is written in that layout (a test holds the file a prettier
 * fixpoint).
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel } from "../../model/server-ir.js";
import { pick, wireFields, type WireFields } from "../../model/wire-fields.js";
import { renderFile } from "../files.js";
import { printData } from "../../print/print-data.js";
import { PRINT_WIDTH } from "../../print/width.js";
import { quotedForDoc } from "./definition.js";
import { SKILLS_EXTENSION } from "../../model/build-server.js";
import { APPS_EXTENSION } from "../../load/apps.js";

const MANIFEST_LISTS_FILE = "lists.ts";

/** Columns the template puts before each value (printData fits the value's first line after them). */
const column = {
  schema: (name: string) => `const ${name}: JsonObject = `.length,
  revisions: "export const revisions: readonly string[] = ".length,
  published: "export const published: { readonly [revision: string]: Published } = ".length,
};

export interface ManifestListsOptions {
  /** Field sets per revision (default: read from the bundled schemas). */
  fields?: (revision: string) => WireFields;
}

/** The extensions of the manifest that mcpgen's runtime implements, as declared; undefined when none. */
function implementedExtensions(model: ServerModel): { [id: string]: unknown } | undefined {
  const declared = model.capabilities.extensions ?? {};
  const out: { [id: string]: unknown } = {};
  for (const id of [APPS_EXTENSION, SKILLS_EXTENSION])
    if (declared[id] !== undefined && (id === APPS_EXTENSION || model.skills.length > 0)) out[id] = declared[id];
  return Object.keys(out).length > 0 ? out : undefined;
}

const byIndex = <T extends { index: number }>(list: readonly T[]) => [...list].sort((a, b) => a.index - b.index);

export function listsView(model: ServerModel, options: ManifestListsOptions = {}) {
  // the print stage's width, which the template's fixed text is laid out for
  const width = PRINT_WIDTH;
  const fieldsOf = options.fields ?? wireFields;
  const refs = new Map<unknown, string>();
  const schemas: { role: string; tool: string; name: string; value: string }[] = [];

  for (const tool of byIndex(model.tools)) {
    for (const [role, schema] of [
      ["InputSchema", tool.inputSchema],
      ["OutputSchema", tool.outputSchema],
    ] as const) {
      if (schema === null || typeof schema !== "object") continue;
      const name = `${tool.ids.member}${role}`;
      refs.set(schema, name);
      // annotated `JsonObject` in the template: inferring literal types of arbitrary JSON trips TS
      // on keys like "toString"; printed without refs so the constant itself is spelled out
      schemas.push({
        role: role === "InputSchema" ? "inputSchema" : "outputSchema",
        tool: quotedForDoc(tool.name),
        name,
        value: printData(schema, { width }, 0, column.schema(name), 1),
      });
    }
  }

  const published: { [revision: string]: unknown } = {};
  for (const revision of model.revisions) {
    const f = fieldsOf(revision);
    const capabilities = pick(model.capabilities as { [key: string]: unknown }, f.ServerCapabilities);
    // Revisions before 2026-07-28 define no `extensions` capability but admit it: the extensions
    // mcpgen implements (skills, apps) are declared there too, as the official SDKs do in `initialize`.
    const implemented = implementedExtensions(model);
    if (implemented !== undefined && !("extensions" in capabilities) && f.ServerCapabilities.open)
      capabilities.extensions = implemented;
    const entry: { [key: string]: unknown } = {
      serverInfo: pick(model.identity, f.Implementation),
      capabilities,
    };
    if (model.instructions !== null) entry.instructions = model.instructions;
    entry.tools = capabilities.tools ? byIndex(model.tools).map((t) => pick(t.definition, f.Tool)) : [];
    entry.resources = capabilities.resources ? byIndex(model.resources).map((r) => pick(r.definition, f.Resource)) : [];
    entry.resourceTemplates = capabilities.resources
      ? byIndex(model.resourceTemplates).map((t) => pick(t.definition, f.ResourceTemplate))
      : [];
    entry.prompts = capabilities.prompts
      ? byIndex(model.prompts).map((p) => {
          const out = pick(p.definition, f.Prompt);
          if (Array.isArray(out.arguments))
            out.arguments = out.arguments.map((a: { [key: string]: unknown }) => pick(a, f.PromptArgument));
          return out;
        })
      : [];
    published[revision] = entry;
  }

  const view = {
    schemas,
    // annotated in the template, so the module compiles under isolatedDeclarations
    revisions: printData(model.revisions, { width }, 0, column.revisions, 1),
    pageSize: model.pageSize,
    published: printData(published, { width, refs }, 0, column.published, 1),
  };
  return view;
}

export function emitManifestLists(model: ServerModel, options: ManifestListsOptions = {}): EmittedFile {
  return renderFile("manifest", MANIFEST_LISTS_FILE, listsView(model, options));
}
