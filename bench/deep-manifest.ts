/**
 * Deterministic generator of a large, realistic manifest: N tools whose input and output
 * schemas nest objects and arrays of objects several levels deep, with $defs/$ref, anyOf,
 * oneOf with const discriminators, big enums, nullable types and maps. Used by the manifest
 * benchmark (bench/manifest.ts) and the types tests, so the 50-tool case is reproducible without
 * committing megabytes of JSON.
 */

type Json = { [key: string]: unknown };

const VERBS = ["get", "list", "create", "update", "delete", "search", "sync", "export", "import", "archive"];
const NOUNS = ["forecast", "station", "alert", "invoice", "customer", "ticket", "repo", "issue", "order", "shipment"];
const ENUM_40 = Array.from({ length: 40 }, (_, i) => `value_${String(i).padStart(2, "0")}`);

function leaf(i: number): Json {
  if (i % 11 === 3) return { enum: ENUM_40, description: "One of forty values" };
  switch (i % 6) {
    case 0:
      return { type: "string", description: `Text field ${i}`, maxLength: 200 };
    case 1:
      return { type: "integer", minimum: 0, default: i };
    case 2:
      return { type: ["string", "null"], format: "date-time" };
    case 3:
      return { type: "string", enum: ["low", "medium", "high"] };
    case 4:
      return { type: "boolean", default: false };
    default:
      return { type: "number", description: "A measurement" };
  }
}

/**
 * Size of each nesting level. "typical" is a rich real-world tool (a few fields per level);
 * "heavy" is several times larger (every level has a map and a $ref), for stress runs.
 */
export type Breadth = "typical" | "heavy";

/** An object `depth` levels deep; levels hold leaves, arrays of objects, maps and $refs. */
function nested(depth: number, seed: number, breadth: Breadth): Json {
  const heavy = breadth === "heavy";
  const properties: Json = {};
  for (let i = 0; i < (heavy ? 4 : 3); i++) properties[`field_${i}`] = leaf(seed + i);
  if (depth > 0) {
    properties[`level-${depth}`] = nested(depth - 1, seed + 1, breadth);
    if (depth % 3 === 0)
      properties.entries = { type: "array", items: nested(Math.min(1, depth - 1), seed + 2, breadth) };
  }
  if (heavy || depth % 2 === 0) properties.tags = { type: "object", additionalProperties: { type: "string" } };
  if (heavy || depth % 3 === 1) properties.ref = { $ref: "#/$defs/address" };
  return { type: "object", description: `Level ${depth}`, properties, required: ["field_0"] };
}

const ADDRESS: Json = {
  type: "object",
  properties: {
    street: { type: "string" },
    city: { type: "string" },
    zip: { type: ["string", "null"] },
    country: { enum: ["FR", "DE", "US", "JP"] },
  },
  required: ["city"],
};

export function makeDeepManifest(toolCount = 50, depth = 6, breadth: Breadth = "typical"): Json {
  const tools: Json[] = [];
  for (let t = 0; t < toolCount; t++) {
    const name = `${VERBS[t % VERBS.length]}_${NOUNS[Math.floor(t / VERBS.length) % NOUNS.length]}${t >= 100 ? `_${t}` : ""}`;
    tools.push({
      name,
      title: name.replace(/_/g, " "),
      description: `Tool ${t}: ${name}`,
      inputSchema: {
        type: "object",
        $defs: { address: ADDRESS },
        properties: {
          query: nested(depth, t, breadth),
          mode: {
            oneOf: [
              {
                type: "object",
                properties: { kind: { const: "fast" }, budget: { type: "integer" } },
                required: ["kind"],
              },
              {
                type: "object",
                properties: { kind: { const: "thorough" }, passes: { type: "array", items: { type: "string" } } },
                required: ["kind", "passes"],
              },
            ],
          },
          idOrName: { anyOf: [{ type: "integer" }, { type: "string" }] },
        },
        required: ["query"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        $defs: { address: ADDRESS },
        properties: {
          result: nested(depth, t + 7, breadth),
          items: { type: "array", items: nested(2, t, breadth) },
          cursor: { type: ["string", "null"] },
        },
        required: ["result"],
      },
      annotations: { readOnlyHint: t % 2 === 0 },
    });
  }
  return {
    $schema: "../../../schema/manifest.schema.json",
    name: "deep-bench",
    version: "1.0.0",
    revisions: ["2025-06-18", "2025-11-25", "2026-07-28"],
    tools,
    prompts: [{ name: "triage", arguments: [{ name: "ticket", required: true }, { name: "tone" }] }],
    resourceTemplates: [{ uriTemplate: "tickets://{id}", name: "ticket" }],
  };
}

/** The manifest file's exact text: 50 tools, 6 levels deep (3 for "light"). */
export function deepManifestText(size: Breadth | "light" = "typical"): string {
  const manifest = size === "light" ? makeDeepManifest(50, 3, "typical") : makeDeepManifest(50, 6, size);
  return JSON.stringify(manifest, null, 2) + "\n";
}
