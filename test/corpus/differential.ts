/**
 * The differential check shared by the corpus tests: one instance through the emitted validator
 * and both in-memory ajv engines, plus the mutations that must make any valid instance invalid.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Validator } from "@mcpgen/runtime";
import type { ValidateFunction } from "ajv";
import {
  examplesDir,
  readDocument,
  type InMemoryEngines,
  type LoadedValidators,
} from "../generator/validators-fixture.js";

export interface Verdicts {
  emitted: boolean;
  draft07: boolean;
  ajv2020: boolean;
}

export function verdicts(emitted: LoadedValidators, engines: InMemoryEngines, type: string, data: unknown): Verdicts {
  const e: Validator = emitted.validator(type);
  const d: ValidateFunction = engines.draft07(type);
  const a: ValidateFunction = engines.ajv2020(type);
  return { emitted: e(data), draft07: d(data), ajv2020: a(data) };
}

/**
 * The failures the emitted validator reported on its last call, compared with in-memory ajv's
 * draft-07 engine (same options): everything but `schemaPath`, which is relative to whichever
 * function reported it. Returns a description of the difference, or null when they match.
 */
export function errorsDiffer(emitted: LoadedValidators, engines: InMemoryEngines, type: string): string | null {
  const pick = (
    errors:
      ReadonlyArray<{ instancePath: string; keyword: string; message?: string; params: unknown }> | null | undefined,
  ) =>
    JSON.stringify(
      (errors ?? []).map(({ instancePath, keyword, message, params }) => ({ instancePath, keyword, message, params })),
    );
  const a = pick(emitted.validator(type).errors);
  const b = pick(engines.draft07(type).errors);
  return a === b ? null : `emitted ${a} vs in-memory ${b}`;
}

export function agree(v: Verdicts): boolean {
  return v.emitted === v.draft07 && v.draft07 === v.ajv2020;
}

export interface Example {
  type: string;
  file: string;
  data: unknown;
}

/** The spec's example messages, `<TypeName>/<name>.json`, sorted. */
export function examples(): Example[] {
  const dir = examplesDir();
  const out: Example[] = [];
  for (const type of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, type)).sort()) {
      if (!file.endsWith(".json")) continue;
      out.push({ type, file: `${type}/${file}`, data: JSON.parse(readFileSync(join(dir, type, file), "utf8")) });
    }
  }
  return out;
}

type Obj = { [key: string]: unknown };
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Follows local `$ref`s of a definition to the schema that states its shape. */
function deref(document: Obj, defsKey: string, schema: unknown): Obj | null {
  let s = schema;
  for (let hops = 0; hops < 10 && isObj(s) && typeof s.$ref === "string"; hops++) {
    s = (document[defsKey] as Obj)[s.$ref.slice(`#/${defsKey}/`.length)];
  }
  return isObj(s) ? s : null;
}

/** A value of a JSON type that `schema` certainly rejects, or undefined when none is obvious. */
function wrongValue(schema: Obj | null): unknown {
  if (!schema) return undefined;
  if (typeof schema.const === "string") return 42;
  const types =
    typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : null;
  if (!types) return undefined;
  const candidates: unknown[] = [42.5, "not-the-right-type", true, ["x"], { x: 1 }, null];
  return candidates.find((c) => {
    const t = jsonType(c);
    return !(types.includes(t) || (t === "integer" && types.includes("number")));
  });
}

export interface Mutant {
  label: string;
  data: unknown;
}

/**
 * Copies of a valid instance of `type` that must be invalid: each required top-level property
 * removed, and each top-level property whose schema states a type (or const) given a value of
 * another type. Recurses one level into `params`/`result` for message types, where the interesting
 * fields live.
 */
export function mutants(revision: string, type: string, data: unknown): Mutant[] {
  const document = readDocument(revision);
  const defsKey = "$defs" in document ? "$defs" : "definitions";
  const out: Mutant[] = [];
  const visit = (schema: Obj | null, value: unknown, path: string[]): void => {
    if (!schema || !isObj(value) || !isObj(schema.properties)) return;
    const properties = schema.properties as Obj;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    for (const key of Object.keys(value).sort()) {
      if (required.includes(key)) {
        out.push({ label: `${[...path, key].join(".")} removed`, data: replaceAt(data, [...path, key], undefined) });
      }
      if (!(key in properties)) continue;
      const propertySchema = deref(document, defsKey, properties[key]);
      const wrong = wrongValue(propertySchema);
      if (wrong !== undefined) {
        out.push({
          label: `${[...path, key].join(".")} = ${JSON.stringify(wrong)}`,
          data: replaceAt(data, [...path, key], wrong),
        });
      }
      if (path.length === 0 && (key === "params" || key === "result")) visit(propertySchema, value[key], [key]);
    }
  };
  visit(deref(document, defsKey, (document[defsKey] as Obj)[type]), data, []);
  return out;
}

/** Deep copy of `data` with the property at `path` set to `value` (removed when undefined). */
function replaceAt(data: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(data) as Obj;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Obj;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
