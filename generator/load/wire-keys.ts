/**
 * Keys inside the manifest's MCP wire objects (tools with their annotations and execution,
 * resources, templates, prompts with their arguments, icons) that mcpgen's manifest format does
 * not list. MCP's schema decides, for the revisions the manifest speaks: where a definition
 * admits keys it does not declare (JSON Schema without `additionalProperties: false`), a real
 * server may publish them, so they are accepted and published as given, with a warning only for
 * a near miss of a known key (`"requried"`). A key no spoken revision admits is a warning too,
 * and is left out of what is published. mcpgen's own keys stay strict: the manifest schema closes
 * the top level, `capabilities`, `examples`, `auth` and `cache`, where unknown keys are errors.
 */
import type { Diagnostic } from "./diagnostics.js";
import { didYouMean } from "./did-you-mean.js";
import { escapePointerToken } from "../json-schema/pointer.js";
import {
  admitsOtherKeys,
  declaredKeys,
  definition,
  propertySchema,
  type Definitions,
  type WireSchema,
} from "./mcp-definitions.js";
import { isPlainObject, type SchemaObject } from "../json-schema/walk.js";

type Problem = Omit<Diagnostic, "file">;

/** The manifest's sections of MCP wire objects: the MCP definition each entry is (the icons are `Implementation.icons`). */
const SECTIONS: readonly { key: string; def: string; property?: string }[] = [
  { key: "tools", def: "Tool" },
  { key: "resources", def: "Resource" },
  { key: "resourceTemplates", def: "ResourceTemplate" },
  { key: "prompts", def: "Prompt" },
  { key: "icons", def: "Implementation", property: "icons" },
];

/** The two kinds of resource entries are easy to mix up: where a stray key says the entry belongs. */
const MISPLACED: { readonly [section: string]: { key: string; hint: string } } = {
  resources: { key: "uriTemplate", hint: 'a template belongs under "resourceTemplates" (static resources have "uri")' },
  resourceTemplates: { key: "uri", hint: 'templates have "uriTemplate", a static resource belongs under "resources"' },
};

interface Theirs {
  revision: string;
  spoken: boolean;
  defs: Definitions;
  schema: WireSchema;
}

interface Place {
  pointer: string;
  value: SchemaObject;
  section: string;
  ours: WireSchema;
  theirs: Theirs[];
}

export interface WireKeysInput {
  manifest: SchemaObject;
  /** schema/manifest.schema.json. */
  manifestSchema: SchemaObject;
  /** Revisions the manifest speaks (a subset of `bundled`). */
  spoken: readonly string[];
  /** Every bundled revision, oldest first: a key one of them declares is a field of MCP, not an extra. */
  bundled: readonly string[];
  definitionsOf(revision: string): Definitions;
}

/** Warnings for the unknown keys of wire objects; deletes (from `manifest`) each key no spoken revision admits. */
export function checkWireKeys(input: WireKeysInput): Problem[] {
  const out: Problem[] = [];
  const oursDefs = (
    isPlainObject(input.manifestSchema.definitions) ? input.manifestSchema.definitions : {}
  ) as Definitions;
  const root: WireSchema = { name: "manifest", schema: input.manifestSchema };
  const spoken = new Set(input.spoken);

  const visit = (place: Place): void => {
    const oursKeys = new Set(declaredKeys(place.ours));
    for (const key of Object.keys(place.value)) {
      const at = `${place.pointer}/${escapePointerToken(key)}`;
      if (oursKeys.has(key)) {
        const ours = propertySchema(oursDefs, place.ours, key);
        const theirs = ours ? childrenOf(place.theirs, key) : [];
        // a leaf, a tool schema, `_meta`, or mcpgen's own (`examples`, `auth`, `cache`: closed by the manifest schema)
        if (!ours || theirs.length === 0) continue;
        const v = place.value[key];
        const items: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [`${at}/${i}`, x]) : [[at, v]];
        for (const [pointer, value] of items)
          if (isPlainObject(value)) visit({ pointer, value, section: place.section, ours, theirs });
        continue;
      }
      if (place.theirs.some((t) => declaredKeys(t.schema).includes(key))) continue; // a field of MCP the manifest format does not list yet: published where declared
      const verdict = unknownKey(place, key, at, oursKeys);
      if (verdict.problem) out.push(verdict.problem);
      if (verdict.drop) delete place.value[key];
    }
  };

  for (const section of SECTIONS) {
    const ours = propertySchema(oursDefs, root, section.key);
    const list = input.manifest[section.key];
    if (!ours || !Array.isArray(list)) continue;
    const theirs: Theirs[] = input.bundled.flatMap((revision) => {
      const defs = input.definitionsOf(revision);
      const owner = definition(defs, section.def);
      const schema = owner && section.property !== undefined ? propertySchema(defs, owner, section.property) : owner;
      return schema ? [{ revision, spoken: spoken.has(revision), defs, schema }] : [];
    });
    list.forEach((value, i) => {
      if (isPlainObject(value)) visit({ pointer: `/${section.key}/${i}`, value, section: section.key, ours, theirs });
    });
  }
  return out;
}

function childrenOf(theirs: Theirs[], key: string): Theirs[] {
  return theirs.flatMap((t) => {
    const schema = propertySchema(t.defs, t.schema, key);
    return schema ? [{ ...t, schema }] : [];
  });
}

function unknownKey(
  place: Place,
  key: string,
  at: string,
  oursKeys: Set<string>,
): { problem?: Problem; drop: boolean } {
  const speaking = place.theirs.filter((t) => t.spoken);
  // the newest spoken revision names the type (`Annotations`, not 2024-11-05's inline one)
  const name = (speaking.at(-1) ?? place.theirs.at(-1))!.schema.name;
  const known = new Set([...oursKeys, ...place.theirs.flatMap((t) => declaredKeys(t.schema))]);
  const near = didYouMean(key, known);
  const hint = near ? ` (did you mean ${JSON.stringify(near)}?)` : "";
  // no spoken revision publishes this object at all (icons in a 2024-11-05 server): nothing to decide
  const admitting = speaking.length === 0 || speaking.some((t) => admitsOtherKeys(t.schema));
  if (!admitting) {
    const revisions = speaking.map((t) => t.revision).join(", ");
    return {
      drop: true,
      problem: {
        severity: "warning",
        pointer: at,
        message: `unknown property ${JSON.stringify(key)}${hint}: MCP's ${name} admits no other properties (${revisions}), so it is left out of what is published`,
      },
    };
  }
  const misplaced = MISPLACED[place.section];
  if (misplaced && misplaced.key === key && place.pointer.split("/").length === 3) {
    return {
      drop: false,
      problem: {
        severity: "warning",
        pointer: at,
        message: `unknown property ${JSON.stringify(key)} in ${place.section === "resources" ? "a resource" : "a resource template"}; ${misplaced.hint} (published as given)`,
      },
    };
  }
  if (near)
    return {
      drop: false,
      problem: {
        severity: "warning",
        pointer: at,
        message: `${JSON.stringify(key)} is not a field of MCP's ${name}${hint}; MCP admits other properties, so it is published as given`,
      },
    };
  return { drop: false };
}
