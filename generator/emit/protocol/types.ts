/**
 * Emits `types.ts`: one exported TS declaration per schema definition (JSDoc from the schema's
 * descriptions), followed by the per-method maps. Output is raw text; the print stage formats it.
 */
import type { EmittedFile, JSONSchema, ProtocolModel, TypeDef } from "../../model/ir.js";
import { compileSync, type CompileOptions } from "./types/jsts.js";
import { emitMethodMaps, GENERIC_DEFINITIONS, MAP_NAMES } from "./types/method-maps.js";
import { metaDefinitions, normaliseSchema, TypesEmitError } from "./types/normalise.js";

export { TypesEmitError } from "./types/normalise.js";

const COMPILE_OPTIONS: CompileOptions = {
  bannerComment: "",
  format: false, // one prettier pass over the whole file happens in the print stage
  // An object without `additionalProperties` is closed, as in the spec's own TS; an explicit
  // `additionalProperties: {}` still becomes `[k: string]: unknown`.
  additionalProperties: false,
  unknownAny: true,
  ignoreMinAndMaxItems: true, // `maxItems` would otherwise turn arrays into tuple unions
  declareExternallyReferenced: true,
  unreachableDefinitions: false,
  strictIndexSignatures: false,
  enableConstEnums: false,
  inferStringEnumKeysFromValues: false,
};

export function emitTypes(model: ProtocolModel): EmittedFile[] {
  const names = new Set(model.types.map((t) => t.name));
  for (const name of MAP_NAMES) {
    if (names.has(name) && !(name in GENERIC_DEFINITIONS)) {
      throw new TypesEmitError(`definition "${name}" collides with a generated per-method map name`);
    }
  }
  const refPrefix = `#/${model.defsKey}/`;
  const openDefinitions = metaDefinitions(
    model.types.map((t) => t.schema),
    refPrefix,
  );
  const chunks: string[] = [
    `// Types of every definition in the MCP ${model.revision} schema, then per-method maps (see RequestMap).`,
  ];
  for (const def of model.types) chunks.push(emitDefinition(model, def, names, refPrefix, openDefinitions));
  chunks.push(emitMethodMaps(model, names));
  return [{ path: "types.ts", contents: `${chunks.join("\n\n")}\n` }];
}

/**
 * The declarations of the definitions named in `wanted`, in model order, exactly as `emitTypes`
 * writes them into `types.ts` (the runtime's checked-in wire types reuse this; see wire-types.ts).
 * `wanted` must be closed under `$ref`; the caller computes that closure.
 */
export function emitDefinitions(model: ProtocolModel, wanted: ReadonlySet<string>): string[] {
  const names = new Set(model.types.map((t) => t.name));
  const refPrefix = `#/${model.defsKey}/`;
  const openDefinitions = metaDefinitions(
    model.types.map((t) => t.schema),
    refPrefix,
  );
  for (const name of wanted)
    if (!names.has(name)) throw new TypesEmitError(`${refPrefix}${name}: no such definition in ${model.revision}`);
  return model.types
    .filter((t) => wanted.has(t.name))
    .map((def) => emitDefinition(model, def, names, refPrefix, openDefinitions));
}

function emitDefinition(
  model: ProtocolModel,
  def: TypeDef,
  names: ReadonlySet<string>,
  refPrefix: string,
  openDefinitions: ReadonlySet<string>,
): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(def.name)) {
    throw new TypesEmitError(`${refPrefix}${def.name}: definition name is not a valid TypeScript identifier`);
  }
  const alias = collapsedUnionTarget(model, def);
  let schema: JSONSchema;
  if (alias !== null) {
    schema = { tsType: alias, ...(def.description === undefined ? {} : { description: def.description }) };
  } else if (typeof def.schema === "boolean") {
    schema = { tsType: def.schema ? "unknown" : "never" };
  } else {
    schema = normaliseSchema(def.schema, { refPrefix, names, definition: `${refPrefix}${def.name}`, openDefinitions });
  }
  let text: string;
  try {
    text = compileSync(schema as object, def.name, COMPILE_OPTIONS).trim();
  } catch (err) {
    throw new TypesEmitError(`${refPrefix}${def.name}: json-schema-to-typescript failed: ${(err as Error).message}`);
  }
  const declared = [...text.matchAll(/^export (?:interface|type|enum|const enum) ([\w$]+)/gm)].map((m) => m[1]);
  if (declared.length !== 1 || declared[0] !== def.name) {
    throw new TypesEmitError(
      `${refPrefix}${def.name}: expected exactly one declaration named ${def.name}, got ${declared.join(", ") || "none"}`,
    );
  }
  const generic = GENERIC_DEFINITIONS[def.name];
  return generic === undefined ? text : makeGeneric(text, def.name, generic.map, generic.method);
}

/**
 * Turns `export interface X {…}` / `export type X = …` into
 * `export type X<M extends Method | void = void> = M extends Method ? Map[M]["params"] : …`.
 */
function makeGeneric(text: string, name: string, map: string, method: string): string {
  const head = new RegExp(`^export (interface ${name} \\{|type ${name} = )`, "m").exec(text);
  if (head === null) throw new TypesEmitError(`${name}: unexpected declaration shape`);
  const before = text.slice(0, head.index);
  const prefix = `export type ${name}<M extends ${method} | void = void> = M extends ${method} ? ${map}[M]["params"] : `;
  if (head[1]!.startsWith("interface")) return `${before}${prefix}{${text.slice(head.index + head[0].length)}`;
  const body = text.slice(head.index + head[0].length).replace(/;\s*$/, "");
  return `${before}${prefix}(${body});`;
}

/**
 * 2026-07-28's schema.json spells a one-member union (`ClientNotification`) as a copy of its only
 * member; declare it as an alias of that member instead of a second identical interface.
 */
function collapsedUnionTarget(model: ProtocolModel, def: TypeDef): string | null {
  if (!/^(Client|Server)(Request|Notification|Result)$/.test(def.name) || typeof def.schema === "boolean") return null;
  if ("anyOf" in def.schema || "oneOf" in def.schema || "$ref" in def.schema) return null;
  const wanted = withoutDescription(def.schema);
  const matches = model.types.filter(
    (t) => t.name !== def.name && typeof t.schema !== "boolean" && withoutDescription(t.schema) === wanted,
  );
  return matches.length === 1 ? matches[0]!.name : null;
}

function withoutDescription(schema: { [key: string]: unknown }): string {
  const { description: _ignored, ...rest } = schema;
  return JSON.stringify(rest);
}
