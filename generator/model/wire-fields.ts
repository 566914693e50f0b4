/**
 * Which fields each wire object has in a protocol revision, read from the bundled official
 * schema (not restated here): `Tool`, `Resource`, `ResourceTemplate`, `Prompt`,
 * `PromptArgument`, `Implementation` and `ServerCapabilities`. The published list payloads of a
 * server keep the fields its negotiated revision defines, drop those only other revisions define,
 * and keep as given the keys no revision defines wherever the revision's schema admits them (a
 * server's own extras, e.g. `annotations.category` beside the hints).
 */
import { admitsOtherKeys, declaredKeys, definition, mcpDefinitions } from "../load/mcp-definitions.js";
import { bundledRevisions } from "../load/schema-manifest.js";

const WIRE_OBJECTS = [
  "Tool",
  "Resource",
  "ResourceTemplate",
  "Prompt",
  "PromptArgument",
  "Implementation",
  "ServerCapabilities",
] as const;
export type WireObject = (typeof WIRE_OBJECTS)[number];

export interface WireObjectFields {
  /** Keys this revision's schema declares. */
  declared: ReadonlySet<string>;
  /** Keys some bundled revision declares: a field of MCP, published only where declared. */
  known: ReadonlySet<string>;
  /** The revision's schema admits keys it does not declare (no `additionalProperties: false`). */
  open: boolean;
}
export type WireFields = Readonly<Record<WireObject, WireObjectFields>>;

const cache = new Map<string, WireFields>();

export function wireFields(revision: string): WireFields {
  const hit = cache.get(revision);
  if (hit) return hit;
  const known = {} as Record<WireObject, Set<string>>;
  for (const name of WIRE_OBJECTS) {
    known[name] = new Set();
    for (const r of bundledRevisions()) {
      const d = definition(mcpDefinitions(r), name);
      if (d) for (const k of declaredKeys(d)) known[name].add(k);
    }
  }
  const out = {} as Record<WireObject, WireObjectFields>;
  const defs = mcpDefinitions(revision);
  for (const name of WIRE_OBJECTS) {
    const d = definition(defs, name);
    if (!d || declaredKeys(d).length === 0)
      throw new Error(`schema ${revision} has no ${name} definition with properties`);
    out[name] = { declared: new Set(declaredKeys(d)), known: known[name], open: admitsOtherKeys(d) };
  }
  cache.set(revision, out);
  return out;
}

/** A shallow copy of `obj` with what a revision publishes of it (order kept). */
export function pick(obj: { [key: string]: unknown }, fields: WireObjectFields): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const key of Object.keys(obj))
    if (fields.declared.has(key) || (fields.open && !fields.known.has(key))) out[key] = obj[key];
  return out;
}
