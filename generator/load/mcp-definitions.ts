/**
 * The wire-object definitions of the bundled MCP schemas, as the manifest checks and the list
 * payloads need them: which keys an object declares, whether it admits others, and the schema of
 * the objects a key holds. Read once per process: the files are part of the package (checked
 * against schema/manifest.json when loadSchema reads them).
 */
import { loadSchema } from "./load.js";
import { isPlainObject, type SchemaObject } from "../json-schema/walk.js";

export type Definitions = { readonly [name: string]: SchemaObject };

const cache = new Map<string, Definitions>();

/** `definitions` / `$defs` of a bundled revision. */
export function mcpDefinitions(revision: string): Definitions {
  let defs = cache.get(revision);
  if (!defs) {
    const loaded = loadSchema(revision);
    const raw = loaded.document[loaded.defsKey];
    defs = isPlainObject(raw) ? (raw as Definitions) : {};
    cache.set(revision, defs);
  }
  return defs;
}

/** A schema object found in a definition, named for messages (the definition's name, or `Owner.key` when inline). */
export interface WireSchema {
  name: string;
  schema: SchemaObject;
}

/** Follows one local `#/definitions/X` or `#/$defs/X` reference. */
function deref(defs: Definitions, schema: unknown, fallbackName: string): WireSchema | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (typeof schema.$ref !== "string") return { name: fallbackName, schema };
  const m = /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(schema.$ref);
  return m ? definition(defs, m[1]!) : undefined;
}

export function definition(defs: Definitions, name: string): WireSchema | undefined {
  return Object.hasOwn(defs, name) && isPlainObject(defs[name]) ? { name, schema: defs[name] } : undefined;
}

/**
 * The schema of the object(s) property `key` of `owner` holds: the property's own schema, or its
 * `items` when it is an array; undefined when the owner does not declare the key or it holds no
 * object with declared properties (`inputSchema` and `_meta` are declared as objects too, but
 * they are JSON Schema and an open map, which the caller does not descend into).
 */
export function propertySchema(defs: Definitions, owner: WireSchema, key: string): WireSchema | undefined {
  const props = owner.schema.properties;
  if (!isPlainObject(props) || !Object.hasOwn(props, key)) return undefined;
  const fallback = `${owner.name}.${key}`;
  let prop = deref(defs, props[key], fallback);
  if (prop && prop.schema.type === "array") prop = deref(defs, prop.schema.items, fallback);
  return prop && isPlainObject(prop.schema.properties) ? prop : undefined;
}

/** Keys the schema declares. */
export function declaredKeys(s: WireSchema): string[] {
  return isPlainObject(s.schema.properties) ? Object.keys(s.schema.properties) : [];
}

/** Whether the schema admits keys it does not declare (JSON Schema: unless additionalProperties is false). */
export function admitsOtherKeys(s: WireSchema): boolean {
  return s.schema.additionalProperties !== false;
}
