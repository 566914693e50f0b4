/**
 * The runtime's MCP wire types (`runtime/src/wire/<era>.ts`), generated from the bundled schemas
 * so the runtime never restates the spec by hand. The runtime cannot import the per-revision
 * bindings (`generated/<rev>/`: they are built after it and link against it), so it gets its own
 * copy of the few definitions it names, emitted by the same code as `types.ts` (identical
 * declarations, JSDoc from the schema).
 *
 * Which revisions: the runtime serves 2024-11-05 … 2026-07-28 with one handler API, so it takes
 * the NEWEST revision of each era. Every legacy revision only ever added optional fields to these
 * definitions (a test proves it for each one listed here), so the newest legacy revision covers
 * the older ones. 2026-07-28 adds protocol machinery the runtime fills in itself (`resultType`,
 * `ttlMs`, `cacheScope`, server identity in `_meta`) and loosens a few fields (`structuredContent`
 * any JSON value, non-object `outputSchema`, no `elicitationId`), so `runtime/src/mcp-types.ts`
 * types each shape the user sees as the superset of the two (every field of either, required only
 * where both require it), keeps results open for what a later revision adds, and takes the
 * 2026-only shapes (`server/discover`) from the modern file. Emitting all five revisions and
 * unioning them would give the same fields with worse error messages; the 2026-07-28 spec examples
 * type-check against the runtime's types (test/runtime/wire-types).
 */
import type { EmittedFile, JSONSchema, ProtocolModel } from "../model/ir.js";
import { renderFile } from "./files.js";
import { emitDefinitions } from "./protocol/types.js";

export interface WireSelection {
  era: "legacy" | "modern";
  /** Definitions the runtime names; their `$ref` closure is emitted. */
  roots: readonly string[];
}

export const RUNTIME_WIRE: readonly WireSelection[] = [
  {
    era: "legacy",
    roots: [
      "Annotations",
      "BlobResourceContents",
      "CallToolResult",
      "CompleteResult",
      "ContentBlock",
      "CreateMessageRequestParams",
      "CreateMessageResult",
      "ElicitRequestFormParams",
      "ElicitRequestURLParams",
      "ElicitResult",
      "EmbeddedResource",
      "GetPromptResult",
      "Implementation",
      "InitializeResult",
      "LoggingLevel",
      "PrimitiveSchemaDefinition",
      "Prompt",
      "PromptMessage",
      "PromptReference",
      "ReadResourceResult",
      "Resource",
      "ResourceLink",
      "ResourceTemplate",
      "ResourceTemplateReference",
      "Root",
      "SamplingMessage",
      "TaskStatus",
      "TextResourceContents",
      "Tool",
    ],
  },
  {
    era: "modern",
    roots: [
      "CallToolResult",
      "CompleteResult",
      "CreateMessageRequestParams",
      "CreateMessageResult",
      "DiscoverResult",
      "ElicitRequestFormParams",
      "ElicitRequestURLParams",
      "ElicitResult",
      "GetPromptResult",
      "Implementation",
      "Prompt",
      "ReadResourceResult",
      "Resource",
      "ResourceTemplate",
      "Tool",
    ],
  },
];

/** Names of every definition `roots` reach through `$ref` (roots included), sorted. */
export function refClosure(model: ProtocolModel, roots: readonly string[]): string[] {
  const prefix = `#/${model.defsKey}/`;
  const byName = new Map(model.types.map((t) => [t.name, t.schema]));
  const seen = new Set<string>();
  const pending = [...roots];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) visit(v);
    else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (k === "$ref" && typeof v === "string" && v.startsWith(prefix))
          pending.push(decodeURIComponent(v.slice(prefix.length)));
        else visit(v);
      }
    }
  };
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    const schema: JSONSchema | undefined = byName.get(name);
    if (schema === undefined)
      throw new Error(`${model.source.display}: ${prefix}${name}: the runtime's wire types need this definition`);
    seen.add(name);
    visit(schema);
  }
  return [...seen].sort();
}

/** The wire-types file of one era (`<era>.ts` in `runtime/src/wire/`), from that era's newest bundled revision (unformatted, no banner). */
export function emitWireTypes(model: ProtocolModel, selection: WireSelection): EmittedFile {
  return renderFile("runtime-wire", `${selection.era}.ts`, wireView(model, selection));
}

export function wireView(model: ProtocolModel, selection: WireSelection) {
  const names = refClosure(model, selection.roots);
  const declarations = emitDefinitions(model, new Set(names));
  return { revision: model.revision, era: selection.era, declarations: declarations.join("\n\n") };
}
