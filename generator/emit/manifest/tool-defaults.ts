/**
 * Every `default` in a tool's schemas checked against the schema it is the default of, with the
 * engine and sanitising of the generated validators: a default the server's own validator rejects
 * misleads every client that fills it in, and the docs generated from it. An error naming the
 * pointer of the `default`; under --lenient (schemas captured from a server) a warning.
 */
import { walkSchema } from "../../json-schema/walk.js";
import type { ServerModel } from "../../model/server-ir.js";
import { toolSubschemas } from "./validators.js";
import type { Problem } from "./schema-to-ts.js";

/** How much of a rejected default a message quotes. */
const MAX_QUOTED = 80;

export function checkToolDefaults(model: ServerModel, lenient: boolean): Problem[] {
  return toolDefaultsCheck(model, lenient).problems;
}

/** checkToolDefaults, and the pointers of the schemas whose `default` it rejected (a server does not fill those in). */
export function toolDefaultsCheck(
  model: ServerModel,
  lenient: boolean,
): { problems: Problem[]; rejected: Set<string> } {
  const problems: Problem[] = [];
  const rejected = new Set<string>();
  for (const tool of model.tools) {
    for (const [role, schema, fallback] of [
      ["inputSchema", tool.inputSchema, tool.inputFallback],
      ["outputSchema", tool.outputSchema, tool.outputFallback],
    ] as const) {
      if (schema === null || fallback) continue;
      const root = `${tool.pointer}/${role}`;
      const defaults: { at: string; value: unknown }[] = [];
      walkSchema(schema, "", (s, at) => {
        if (Object.hasOwn(s, "default")) defaults.push({ at, value: s.default });
      });
      if (defaults.length === 0) continue;
      const at = toolSubschemas(schema, root);
      for (const d of defaults) {
        const check = at(d.at);
        if (!check || check.validate(d.value)) continue;
        rejected.add(`${root}${d.at}`);
        const quoted = JSON.stringify(d.value);
        problems.push({
          severity: lenient ? "warning" : "error",
          pointer: `${root}${d.at}/default`,
          message: `default ${quoted.length > MAX_QUOTED ? `${quoted.slice(0, MAX_QUOTED)}...` : quoted} does not satisfy its own schema: ${check.errors()}${lenient ? "" : " (--lenient makes this a warning)"}`,
        });
      }
    }
  }
  return { problems, rejected };
}
