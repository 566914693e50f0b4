/**
 * Checks a tool's `inputSchema` / `outputSchema` the way real servers publish them: full JSON
 * Schema, sometimes broken. Problems are warnings with the schema's pointer; a schema that
 * cannot be typed falls back to `Record<string, unknown>` (flagged as `fallback`) instead of
 * failing the run.
 */
import type { ValidateFunction } from "ajv";
import type { Diagnostic } from "./diagnostics.js";
import { isPlainObject, walkSchema } from "../json-schema/walk.js";
import { resolveLocalRef } from "../json-schema/ref.js";
import { didYouMean } from "./did-you-mean.js";

export interface ToolSchemaCheck {
  diagnostics: Omit<Diagnostic, "file">[];
  /** True when the whole schema is typed as `Record<string, unknown>`. */
  fallback: boolean;
  /**
   * The schema to publish instead, when the given one would make the server's own tools/list
   * invalid (an inputSchema without a root `type` gets `"type": "object"`, which MCP requires).
   */
  repaired?: { [key: string]: unknown };
}

export function checkToolSchema(
  schema: unknown,
  pointer: string,
  role: "inputSchema" | "outputSchema",
  metaValidate: ValidateFunction,
  legacyRootObject: boolean,
  lenient = false,
): ToolSchemaCheck {
  const diagnostics: ToolSchemaCheck["diagnostics"] = [];
  const warn = (p: string, message: string) => diagnostics.push({ severity: "warning", pointer: p, message });
  const fallbackNote = "typed as Record<string, unknown>";
  if (!isPlainObject(schema)) return { diagnostics, fallback: true }; // the manifest schema already reported it
  if (Object.keys(schema).length === 0) {
    if (role === "inputSchema") {
      warn(pointer, `empty inputSchema; published as {"type":"object"}, which MCP requires; ${fallbackNote}`);
      return { diagnostics, fallback: true, repaired: { type: "object" } };
    }
    warn(pointer, `empty ${role}; MCP expects {"type":"object",...}; ${fallbackNote}`);
    return { diagnostics, fallback: true };
  }
  if (!metaValidate(schema)) {
    const reported = new Set<string>();
    for (const e of metaValidate.errors ?? []) {
      // the draft-07 meta-schema explains one bad value several ways (enum, array, anyOf): keep the first
      if (reported.has(e.instancePath)) continue;
      reported.add(e.instancePath);
      const what = `not a valid JSON Schema: ${e.message ?? e.keyword}${e.keyword === "enum" ? ` (${(e.params as { allowedValues?: unknown[] }).allowedValues?.map((v) => JSON.stringify(v)).join(", ")})` : ""}`;
      // an error by default (the types would silently lose everything); --lenient for schemas captured from servers
      if (lenient) warn(pointer + e.instancePath, `${what}; ${fallbackNote} (--lenient)`);
      else
        diagnostics.push({
          severity: "error",
          pointer: pointer + e.instancePath,
          message: `${what} (--lenient makes this a warning and types the ${role} as Record<string, unknown>)`,
        });
    }
    return { diagnostics, fallback: true };
  }
  const rootType = schema.type;
  const objectRoot = rootType === "object" || (Array.isArray(rootType) && rootType.includes("object"));
  // a root that only `$ref`s an object definition (zod-to-json-schema, pydantic) is an object too
  const refTarget = typeof schema.$ref === "string" ? resolveLocalRef(schema, schema.$ref)?.schema : undefined;
  const objectByShape = isPlainObject(schema.properties) || (isPlainObject(refTarget) && refTarget.type === "object");
  let repaired: { [key: string]: unknown } | undefined;
  if (role === "inputSchema" && rootType === undefined) {
    // Published as is, the server's own tools/list would fail validation in every strict client.
    repaired = { type: "object", ...schema };
    warn(
      pointer,
      `root "type" is missing; "type": "object" added to the published inputSchema, as MCP requires${objectByShape ? " (typed as an object)" : `; ${fallbackNote}`}`,
    );
    if (!objectByShape) return { diagnostics, fallback: true, repaired };
  } else if (role === "inputSchema" && !objectRoot) {
    warn(
      pointer + "/type",
      `root "type" must be "object" for inputSchema, found ${JSON.stringify(rootType)}; ${fallbackNote}`,
    );
    return { diagnostics, fallback: true };
  } else if (
    role === "outputSchema" &&
    legacyRootObject &&
    rootType !== "object" &&
    !(rootType === undefined && objectByShape)
  ) {
    // ≤2025-11-25 requires an object root for outputSchema; 2026-07-28 allows any schema.
    diagnostics.push({
      severity: "error",
      pointer: pointer + (rootType === undefined ? "" : "/type"),
      message: `root "type" of outputSchema must be "object" for revisions before 2026-07-28 (found ${JSON.stringify(rootType)}); drop those revisions or wrap the output in an object`,
    });
  }
  walkSchema(schema, pointer, (s, p) => {
    checkRequired(s, p, warn);
    const ref = s.$ref;
    if (typeof ref !== "string") return;
    if (!ref.startsWith("#"))
      warn(
        p + "/$ref",
        `external $ref ${JSON.stringify(ref)} is not followed (MCP forbids network dereferencing by default); typed as unknown`,
      );
    else if (!resolveLocalRef(schema, ref))
      warn(p + "/$ref", `$ref ${JSON.stringify(ref)} does not resolve inside this schema; typed as unknown`);
  });
  return repaired === undefined ? { diagnostics, fallback: false } : { diagnostics, fallback: false, repaired };
}

/**
 * `required` naming a property that `properties` does not declare is almost always a typo: the
 * type then demands a property of type `unknown` that nothing documents. Skipped where the
 * property may come from elsewhere (composition, `$ref`, pattern properties).
 */
function checkRequired(
  s: { [key: string]: unknown },
  p: string,
  warn: (pointer: string, message: string) => void,
): void {
  if (!Array.isArray(s.required) || !isPlainObject(s.properties)) return;
  if (
    ["allOf", "anyOf", "oneOf", "$ref", "patternProperties", "if", "dependentSchemas", "dependencies"].some(
      (k) => k in s,
    )
  )
    return;
  const declared = Object.keys(s.properties);
  s.required.forEach((name, i) => {
    if (typeof name !== "string" || declared.includes(name)) return;
    const near = didYouMean(name, declared);
    warn(
      `${p}/required/${i}`,
      `required names ${JSON.stringify(name)}, which "properties" does not declare${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
    );
  });
}
