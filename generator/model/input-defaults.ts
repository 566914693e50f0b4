/**
 * Which `default`s of a tool's inputSchema the server fills in before the handler runs, shared by
 * the handler's input type (types.ts: the filled properties are required) and the applier that
 * fills them (emit/manifest/default-appliers.ts, tools.defaults.ts), so the two cannot disagree.
 *
 * A default applies where the value it belongs to is known: at the root, in `properties` (filled
 * when the property is absent), in `items` (a single schema: every element), through `allOf`
 * members and local `$ref`s (same value). Not inside `anyOf`/`oneOf`/`not`/`if`/`then`/`else`,
 * tuple positions, `additionalProperties` or `patternProperties`: which branch or key a value
 * takes is not known from the schema alone (ajv's `useDefaults` skips the first group too). A
 * default its own schema rejects (a warning under --lenient) is not applied.
 */
import { escapePointerToken } from "../json-schema/pointer.js";
import { isPlainObject, type SchemaObject } from "../json-schema/walk.js";
import { resolveLocalRef } from "../json-schema/ref.js";
import type { JSONSchema } from "./ir.js";

/** Suffix of the declarations of a handler's input type, which differ where defaults are filled in (`GetForecastInputWithDefaults`). */
export const WITH_DEFAULTS = "WithDefaults";

/** One schema in the applied part of the graph, by its pointer inside the tool's inputSchema. */
export interface DefaultsNode {
  readonly pointer: string;
  readonly schema: SchemaObject;
  /** Properties this schema fills itself: key and default, in `properties` order. */
  readonly fills: { key: string; value: unknown }[];
  /** Applied children holding the property's value. */
  readonly props: { key: string; child: string }[];
  /** The applied child holding every array element (`items` as one schema). */
  items: string | null;
  /** Applied children on the same value (`allOf` members, the `$ref` target). */
  readonly same: string[];
}

export interface InputDefaults {
  /** Whether the value at this schema pointer has defaults filled in at or below it. */
  has(pointer: string): boolean;
  /** Whether `key` of the object at this schema pointer is filled in when absent. */
  fills(pointer: string, key: string): boolean;
  /** The applied graph, for the applier emitter. */
  readonly nodes: ReadonlyMap<string, DefaultsNode>;
}

/**
 * The defaults of `schema` (a tool's inputSchema) the server fills in; null when there are none
 * (the handler gets the arguments as sent, and nothing runs per call). `usable(pointer)` says
 * whether the `default` of the property schema at `pointer` passed the generation check.
 */
export function inputDefaults(
  schema: JSONSchema,
  usable: (pointer: string) => boolean = () => true,
): InputDefaults | null {
  if (!isPlainObject(schema)) return null;
  const nodes = new Map<string, DefaultsNode>();
  const queue: { pointer: string; schema: unknown }[] = [{ pointer: "", schema }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const s = next.schema;
    if (!isPlainObject(s) || nodes.has(next.pointer)) continue;
    const node: DefaultsNode = { pointer: next.pointer, schema: s, fills: [], props: [], items: null, same: [] };
    nodes.set(next.pointer, node);
    const reach = (pointer: string, sub: unknown) => {
      queue.push({ pointer, schema: sub });
      return pointer;
    };
    if (isPlainObject(s.properties)) {
      for (const key of Object.keys(s.properties)) {
        const p = s.properties[key];
        const at = `${next.pointer}/properties/${escapePointerToken(key)}`;
        if (isPlainObject(p) && Object.hasOwn(p, "default") && usable(at)) node.fills.push({ key, value: p.default });
        node.props.push({ key, child: reach(at, p) });
      }
    }
    if (isPlainObject(s.items) && s.prefixItems === undefined) node.items = reach(`${next.pointer}/items`, s.items);
    if (Array.isArray(s.allOf)) s.allOf.forEach((m, i) => node.same.push(reach(`${next.pointer}/allOf/${i}`, m)));
    if (typeof s.$ref === "string") {
      const target = resolveLocalRef(schema, s.$ref);
      if (target !== undefined) node.same.push(reach(target.pointer, target.schema));
    }
  }
  // Whether defaults apply at or below each node: its own fills, then anything reachable (to a fixpoint: $refs make cycles).
  const has = new Set<string>();
  for (const node of nodes.values()) if (node.fills.length > 0) has.add(node.pointer);
  if (has.size === 0) return null;
  for (let changed = true; changed;) {
    changed = false;
    for (const node of nodes.values()) {
      if (has.has(node.pointer)) continue;
      if (
        node.props.some((p) => has.has(p.child)) ||
        (node.items !== null && has.has(node.items)) ||
        node.same.some((p) => has.has(p))
      ) {
        has.add(node.pointer);
        changed = true;
      }
    }
  }
  return {
    has: (pointer) => has.has(pointer),
    fills: (pointer, key) => nodes.get(pointer)?.fills.some((f) => f.key === key) ?? false,
    nodes,
  };
}
