/**
 * ProtocolBindings built at test time from the vendored schema and the reviewed method overlay,
 * with in-memory ajv validators: the same table and the same validation semantics the generated
 * `generated/<rev>/index.ts` bindings carry, for runtime tests until those land on main.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { MethodInfo, ProtocolBinding, Validator } from "@mcpgen/runtime";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const require = createRequire(import.meta.url);

interface OverlayEntry {
  kind: MethodInfo["kind"];
  from: MethodInfo["from"];
  messageType: string;
  resultType: string | null;
  capability: string | null;
}

const cache = new Map<string, ProtocolBinding>();

/** Compile on first use: tests touch a handful of methods, and compiling all of them costs seconds. */
function lazy(table: Record<string, Validator>, key: string, compile: () => Validator): void {
  let v: Validator | undefined;
  Object.defineProperty(table, key, { enumerable: true, get: () => (v ??= compile()) });
}

export function schemaBinding(revision: string): ProtocolBinding {
  const hit = cache.get(revision);
  if (hit) return hit;
  const schema = JSON.parse(readFileSync(`${root}schema/${revision}/schema.json`, "utf8"));
  const overlay = JSON.parse(readFileSync(`${root}schema/methods.${revision}.json`, "utf8")) as {
    era: "legacy" | "modern"; batching: boolean; methods: Record<string, OverlayEntry>;
  };
  const defsKey = schema.$defs ? "$defs" : "definitions";
  const AjvClass = defsKey === "$defs" ? require("ajv/dist/2020").default : require("ajv").default;
  const ajv = new AjvClass({ strict: false, validateFormats: false });
  ajv.addSchema(schema, "mcp");
  const methods: Record<string, MethodInfo> = {};
  const params: Record<string, Validator> = {};
  const results: Record<string, Validator> = {};
  for (const [method, e] of Object.entries(overlay.methods)) {
    const message = schema[defsKey][e.messageType];
    methods[method] = {
      kind: e.kind, from: e.from, capability: e.capability,
      paramsRequired: Array.isArray(message.required) && message.required.includes("params"),
      paramsType: null, resultType: e.resultType,
    };
    if (message.properties?.params) lazy(params, method, () => ajv.compile({ $ref: `mcp#/${defsKey}/${e.messageType}/properties/params` }));
    if (e.resultType) lazy(results, method, () => ajv.compile({ $ref: `mcp#/${defsKey}/${e.resultType}` }));
  }
  const binding: ProtocolBinding = { revision, era: overlay.era, batching: overlay.batching, methods, params, results };
  cache.set(revision, binding);
  return binding;
}
