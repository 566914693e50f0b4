/**
 * Which fields each wire object has in a protocol revision, read from the bundled official
 * schema (not restated here): `Tool`, `Resource`, `ResourceTemplate`, `Prompt`,
 * `PromptArgument`, `Implementation` and `ServerCapabilities`. The published list payloads of a
 * server keep only the fields its negotiated revision defines.
 */
import { loadSchema } from "../load/load.js";

export const WIRE_OBJECTS = ["Tool", "Resource", "ResourceTemplate", "Prompt", "PromptArgument", "Implementation", "ServerCapabilities"] as const;
export type WireObject = (typeof WIRE_OBJECTS)[number];
export type WireFields = Readonly<Record<WireObject, ReadonlySet<string>>>;

export function wireFields(revision: string): WireFields {
  const loaded = loadSchema(revision);
  const defs = loaded.document[loaded.defsKey] as { [name: string]: { properties?: { [key: string]: unknown } } };
  const out = {} as Record<WireObject, ReadonlySet<string>>;
  for (const name of WIRE_OBJECTS) {
    const props = defs[name]?.properties;
    if (!props) throw new Error(`schema ${revision} has no ${name} definition with properties`);
    out[name] = new Set(Object.keys(props));
  }
  return out;
}

/** A shallow copy of `obj` with only `fields` (order kept). */
export function pick(obj: { [key: string]: unknown }, fields: ReadonlySet<string>): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const key of Object.keys(obj)) if (fields.has(key)) out[key] = obj[key];
  return out;
}
