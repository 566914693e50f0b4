/**
 * Made-up values from JSON Schemas we know nothing else about: tool arguments from a listed
 * tool's inputSchema, and elicitation answers from a requested schema.
 */

type Schema = { [key: string]: unknown };

const isSchema = (x: unknown): x is Schema => x !== null && typeof x === "object" && !Array.isArray(x);

/** One plausible value for a property schema: its default, else its first enum value, else one of its type. */
export function sampleValue(prop: Schema): unknown {
  if (prop.default !== undefined) return prop.default;
  if (Array.isArray(prop.enum) && prop.enum.length > 0) return prop.enum[0];
  if (prop.const !== undefined) return prop.const;
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  switch (type) {
    case "number":
    case "integer": {
      const min = typeof prop.minimum === "number" ? prop.minimum : 1;
      return type === "integer" ? Math.ceil(Math.max(min, 1)) : Math.max(min, 1);
    }
    case "string":
      return "test";
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "test";
  }
}

/** Values for the schema's required properties (the optional ones are left to the server's defaults). */
export function sampleArguments(inputSchema: unknown): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  if (!isSchema(inputSchema) || !isSchema(inputSchema.properties)) return out;
  const props = inputSchema.properties;
  const required = Array.isArray(inputSchema.required)
    ? inputSchema.required.filter((r): r is string => typeof r === "string")
    : [];
  for (const name of required) out[name] = sampleValue(isSchema(props[name]) ? props[name] : {});
  return out;
}

/** An elicitation answer: every property of the requested schema that has a primitive default. */
export function schemaDefaults(requestedSchema: unknown): { [key: string]: string | number | boolean } {
  const out: { [key: string]: string | number | boolean } = {};
  if (!isSchema(requestedSchema) || !isSchema(requestedSchema.properties)) return out;
  for (const [name, prop] of Object.entries(requestedSchema.properties)) {
    const d = isSchema(prop) ? prop.default : undefined;
    if (typeof d === "string" || typeof d === "number" || typeof d === "boolean") out[name] = d;
  }
  return out;
}
