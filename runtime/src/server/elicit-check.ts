/**
 * Checking accepted form-elicitation content against the `requestedSchema` the server sent (both
 * sides SHOULD validate it): required fields present, primitive types, enums, numeric bounds,
 * string lengths. The schema language is deliberately flat (one level of primitives), so this is
 * the whole of it.
 */
import type { ValidationIssue } from "../abi.js";
import type { ElicitSchema } from "../mcp-types.js";

function issue(path: string, keyword: string, message: string): ValidationIssue {
  return { instancePath: path, schemaPath: `#/properties${path}`, keyword, params: {}, message };
}

export function checkElicitContent(schema: ElicitSchema, content: unknown): ValidationIssue[] {
  if (typeof content !== "object" || content === null || Array.isArray(content))
    return [issue("", "type", "content must be an object")];
  const values = content as { [key: string]: unknown };
  const out: ValidationIssue[] = [];
  for (const name of schema.required ?? [])
    if (values[name] === undefined) out.push(issue(`/${name}`, "required", "is required"));
  for (const [name, field] of Object.entries(schema.properties)) {
    const v = values[name];
    if (v === undefined) continue;
    const path = `/${name}`;
    const f = field as {
      type: string;
      enum?: readonly unknown[];
      minimum?: number;
      maximum?: number;
      minLength?: number;
      maxLength?: number;
    };
    if (f.type === "array") {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
        out.push(issue(path, "type", "must be an array of strings"));
      continue;
    }
    const ok =
      f.type === "integer" ? Number.isInteger(v) : f.type === "number" ? typeof v === "number" : typeof v === f.type;
    if (!ok) {
      out.push(issue(path, "type", `must be ${f.type}`));
      continue;
    }
    if (f.enum !== undefined && !f.enum.includes(v)) out.push(issue(path, "enum", "must be one of the allowed values"));
    if (
      typeof v === "number" &&
      ((f.minimum !== undefined && v < f.minimum) || (f.maximum !== undefined && v > f.maximum))
    )
      out.push(issue(path, "range", "is out of range"));
    if (
      typeof v === "string" &&
      ((f.minLength !== undefined && v.length < f.minLength) || (f.maxLength !== undefined && v.length > f.maxLength))
    )
      out.push(issue(path, "length", "has the wrong length"));
  }
  return out;
}
