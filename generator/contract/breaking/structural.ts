/**
 * Structural checks of `mcpgen breaking`: which entries disappeared, and where inside a tool's
 * schemas, a prompt's arguments or a template's variables a change sits, with a JSON pointer
 * into each manifest. Whether a type-level change really breaks is the checker's call
 * (checker.ts); these checks find and name the place.
 */
import { escapePointerToken } from "../../json-schema/pointer.js";
import { isPlainObject } from "../../json-schema/walk.js";
import { resolveLocalRef } from "../../json-schema/ref.js";
import type { ServerModel, ToolModel } from "../../model/server-ir.js";
import { compareShapes, describeShape, valueShape } from "../schema-shape.js";
import { keywordChanges } from "./keywords.js";
import type { Finding, RuleId } from "./rules.js";
import { entryWarnings, schemaWarnings, toolWarnings } from "./warnings.js";

export interface Located extends Omit<Finding, "severity"> {
  /** For type-level rules: which checker verdict decides it. */
  check?: "input" | "output" | "args";
}

const MAX_DEPTH = 64;
const esc = escapePointerToken;
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    isPlainObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );

export interface Side {
  root: unknown;
  schema: unknown;
  pointer: string;
}

/** Follows local `$ref`s, keeping the pointer of where the schema really is. */
function deref(side: Side, rootPointer: string): Side {
  let { schema, pointer } = side;
  for (let hops = 0; isPlainObject(schema) && typeof schema.$ref === "string" && hops < MAX_DEPTH; hops++) {
    const r = resolveLocalRef(side.root, schema.$ref);
    if (!r) break;
    schema = r.schema;
    pointer = rootPointer + r.pointer;
  }
  return { root: side.root, schema, pointer };
}

const requiredOf = (s: unknown): Set<string> =>
  new Set(
    isPlainObject(s) && Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === "string") : [],
  );
const propsOf = (s: unknown): { [k: string]: unknown } =>
  isPlainObject(s) && isPlainObject(s.properties) ? s.properties : {};

function walkSchemas(
  entry: string,
  mode: "input" | "output",
  a: Side,
  b: Side,
  roots: { a: string; b: string },
  path: string,
  out: Located[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const oa = deref(a, roots.a);
  const ob = deref(b, roots.b);
  const add = (rule: RuleId, message: string, oldPtr: string, newPtr: string) =>
    out.push({
      rule,
      entry,
      message: `${entry} ${mode}${path ? ` ${path}` : ""}: ${message}`,
      old: oldPtr,
      new: newPtr,
      check: mode,
    });
  const walk = (sa: unknown, pa: string, sb: unknown, pb: string, sub: string) =>
    walkSchemas(
      entry,
      mode,
      { root: oa.root, schema: sa, pointer: pa },
      { root: ob.root, schema: sb, pointer: pb },
      roots,
      sub,
      out,
      depth + 1,
    );

  const sa = valueShape(oa.schema, oa.root, true);
  const sb = valueShape(ob.schema, ob.root, true);
  const c = compareShapes(sa, sb);
  const what = `${describeShape(sa)} -> ${describeShape(sb)}`;
  // number and integer are one TypeScript type: the checker cannot see this one either way
  const integerOnly = (x: typeof sa, y: typeof sa) =>
    x.types.has("number") &&
    !y.types.has("number") &&
    y.types.has("integer") &&
    [...x.types].every((t) => t === "number" || y.types.has(t));
  if (mode === "input" && (c === "narrowed" || c === "changed")) {
    const lostValues = sa.values !== null && sb.values !== null && [...sa.values].some((v) => !sb.values!.has(v));
    if (lostValues)
      add(
        "TOOL_INPUT_ENUM_VALUE_REMOVED",
        `enum lost ${[...sa.values!].filter((v) => !sb.values!.has(v)).join(", ")}`,
        oa.pointer,
        ob.pointer,
      );
    else if (integerOnly(sa, sb)) add("TOOL_INPUT_INTEGER_NARROWED", "number -> integer", oa.pointer, ob.pointer);
    else add("TOOL_INPUT_TYPE_NARROWED", `accepts less (${what})`, oa.pointer, ob.pointer);
  }
  if (mode === "output" && (c === "widened" || c === "changed")) {
    if (integerOnly(sb, sa)) add("TOOL_OUTPUT_INTEGER_WIDENED", "integer -> number", oa.pointer, ob.pointer);
    else add("TOOL_OUTPUT_TYPE_WIDENED", `may hold more (${what})`, oa.pointer, ob.pointer);
  }
  for (const k of keywordChanges(mode, oa.schema, ob.schema))
    add(k.rule, k.message, at(oa, k.keywords), at(ob, k.keywords));
  schemaWarnings(entry, mode, path, oa, ob, out);

  const pa = propsOf(oa.schema);
  const pb = propsOf(ob.schema);
  const ra = requiredOf(oa.schema);
  const rb = requiredOf(ob.schema);
  const isObjA = isPlainObject(oa.schema) && (oa.schema.type === "object" || "properties" in oa.schema);
  const isObjB = isPlainObject(ob.schema) && (ob.schema.type === "object" || "properties" in ob.schema);
  if (isObjA && isObjB) {
    const apA = (oa.schema as { additionalProperties?: unknown }).additionalProperties;
    const apB = (ob.schema as { additionalProperties?: unknown }).additionalProperties;
    if (mode === "input") {
      for (const p of [...rb].filter((x) => !ra.has(x))) {
        const was = p in pa ? "an optional property became required" : "new required property";
        add(
          "TOOL_INPUT_PROPERTY_REQUIRED",
          `${was}: ${p}`,
          p in pa ? `${oa.pointer}/properties/${esc(p)}` : `${oa.pointer}/required`,
          `${ob.pointer}/required`,
        );
      }
      // a closed object refuses what it no longer declares (unless a patternProperties entry takes it)
      if (apB === false) {
        for (const p of Object.keys(pa).filter((x) => !Object.hasOwn(pb, x) && !matchesPattern(ob.schema, x))) {
          add(
            "TOOL_INPUT_PROPERTY_REMOVED",
            `property removed from an object that rejects unknown properties: ${p} (calls sending it now fail)`,
            `${oa.pointer}/properties/${esc(p)}`,
            `${ob.pointer}/additionalProperties`,
          );
        }
      }
      if (apA !== false && apB === false) {
        add(
          "TOOL_INPUT_ADDITIONAL_PROPERTIES_CLOSED",
          "additionalProperties closed (extra arguments are now rejected)",
          oa.pointer,
          `${ob.pointer}/additionalProperties`,
        );
      } else if (!isRestriction(apA) && isRestriction(apB)) {
        add(
          "TOOL_INPUT_ADDITIONAL_PROPERTIES_CLOSED",
          "additionalProperties restricted by a schema (extra arguments must now match it)",
          oa.pointer,
          `${ob.pointer}/additionalProperties`,
        );
      }
    } else {
      for (const p of ra) {
        if (!(p in pb) && !rb.has(p))
          add(
            "TOOL_OUTPUT_PROPERTY_REMOVED",
            `property removed: ${p}`,
            `${oa.pointer}/properties/${esc(p)}`,
            ob.pointer,
          );
        else if (!rb.has(p))
          add(
            "TOOL_OUTPUT_PROPERTY_OPTIONAL",
            `property became optional: ${p}`,
            `${oa.pointer}/required`,
            `${ob.pointer}/properties/${esc(p)}`,
          );
      }
      if (isRestriction(apA) && !isRestriction(apB)) {
        add(
          "TOOL_OUTPUT_ADDITIONAL_PROPERTIES_OPENED",
          `additionalProperties ${apA === false ? "no longer false" : "no longer restricted"} (results may carry properties they could not before)`,
          `${oa.pointer}/additionalProperties`,
          ob.pointer,
        );
      }
    }
    for (const p of Object.keys(pa).filter((x) => x in pb)) {
      walk(
        pa[p],
        `${oa.pointer}/properties/${esc(p)}`,
        pb[p],
        `${ob.pointer}/properties/${esc(p)}`,
        `${path}.${p}`.replace(/^\./, ""),
      );
    }
    if (isPlainObject(apA) && isPlainObject(apB))
      walk(
        apA,
        `${oa.pointer}/additionalProperties`,
        apB,
        `${ob.pointer}/additionalProperties`,
        `${path}.*`.replace(/^\./, ""),
      );
  }
  const sub = (s: unknown, key: string): unknown => (isPlainObject(s) ? s[key] : undefined);
  for (const [key, label] of [
    ["items", "[]"],
    ["propertyNames", " (property names)"],
    ["contains", " (contains)"],
  ] as const) {
    const x = sub(oa.schema, key);
    const y = sub(ob.schema, key);
    if (isPlainObject(x) && isPlainObject(y))
      walk(x, `${oa.pointer}/${key}`, y, `${ob.pointer}/${key}`, `${path}${label}`);
  }
  // tuples (2020-12 prefixItems, draft-07 items arrays) and patternProperties: position by position, pattern by pattern
  for (const key of ["prefixItems", "items"] as const) {
    const x = sub(oa.schema, key);
    const y = sub(ob.schema, key);
    if (Array.isArray(x) && Array.isArray(y))
      for (let i = 0; i < Math.min(x.length, y.length); i++)
        walk(x[i], `${oa.pointer}/${key}/${i}`, y[i], `${ob.pointer}/${key}/${i}`, `${path}[${i}]`);
  }
  const ppA = sub(oa.schema, "patternProperties");
  const ppB = sub(ob.schema, "patternProperties");
  if (isPlainObject(ppA) && isPlainObject(ppB)) {
    for (const k of Object.keys(ppA).filter((x) => Object.hasOwn(ppB, x)))
      walk(
        ppA[k],
        `${oa.pointer}/patternProperties/${esc(k)}`,
        ppB[k],
        `${ob.pointer}/patternProperties/${esc(k)}`,
        `${path}.${k}`,
      );
  }
}

/** The pointer of the first of `keywords` the schema has, else of the schema. */
function at(side: Side, keywords: string[]): string {
  const k = isPlainObject(side.schema) ? keywords.find((x) => Object.hasOwn(side.schema as object, x)) : undefined;
  return k === undefined ? side.pointer : `${side.pointer}/${esc(k)}`;
}

/** A subschema that rejects something (`true`, `{}` and absence accept everything). */
const isRestriction = (s: unknown) => s === false || (isPlainObject(s) && Object.keys(s).length > 0);

/** Whether a `patternProperties` entry of `schema` covers the property name (an invalid pattern covers nothing). */
function matchesPattern(schema: unknown, name: string): boolean {
  const pp =
    isPlainObject(schema) && isPlainObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  return pp.some((p) => {
    try {
      return new RegExp(p, "u").test(name);
    } catch {
      return false;
    }
  });
}

function compareTool(a: ToolModel, b: ToolModel, out: Located[]): void {
  const entry = `tools/${a.name}`;
  const ia = `${a.pointer}/inputSchema`;
  const ib = `${b.pointer}/inputSchema`;
  walkSchemas(
    entry,
    "input",
    { root: a.inputSchema, schema: a.inputSchema, pointer: ia },
    { root: b.inputSchema, schema: b.inputSchema, pointer: ib },
    { a: ia, b: ib },
    "",
    out,
    0,
  );
  if (a.outputSchema !== null && b.outputSchema === null) {
    out.push({
      rule: "TOOL_OUTPUT_REMOVED",
      entry,
      message: `${entry}: outputSchema removed (clients lose the typed structured result)`,
      old: `${a.pointer}/outputSchema`,
      new: b.pointer,
    });
  } else if (a.outputSchema !== null && b.outputSchema !== null) {
    const oa = `${a.pointer}/outputSchema`;
    const ob = `${b.pointer}/outputSchema`;
    walkSchemas(
      entry,
      "output",
      { root: a.outputSchema, schema: a.outputSchema, pointer: oa },
      { root: b.outputSchema, schema: b.outputSchema, pointer: ob },
      { a: oa, b: ob },
      "",
      out,
      0,
    );
  }
}

interface Keyed {
  key: string;
  name: string;
  pointer: string;
  /** What stays the same across a rename. */
  identity: string;
}

function matchEntries(section: string, a: Keyed[], b: Keyed[], out: Located[]): [Keyed, Keyed][] {
  const B = new Map(b.map((e) => [e.key, e]));
  const A = new Set(a.map((e) => e.key));
  const added = b.filter((e) => !A.has(e.key));
  const pairs: [Keyed, Keyed][] = [];
  for (const e of a) {
    const twin = B.get(e.key);
    if (twin) {
      pairs.push([e, twin]);
      continue;
    }
    const renamed = added.find((n) => n.identity === e.identity);
    const entry = `${section}/${e.key}`;
    if (renamed)
      out.push({
        rule: "ENTRY_RENAMED",
        entry,
        message: `${entry} renamed to ${renamed.key} (clients calling ${e.key} break)`,
        old: e.pointer,
        new: renamed.pointer,
      });
    else out.push({ rule: "ENTRY_REMOVED", entry, message: `${entry} removed`, old: e.pointer, new: null });
  }
  return pairs;
}

export function structuralFindings(a: ServerModel, b: ServerModel): Located[] {
  const out: Located[] = [];
  const tool = (t: ToolModel): Keyed => ({
    key: t.name,
    name: t.name,
    pointer: t.pointer,
    identity: canon([t.inputSchema, t.outputSchema]),
  });
  const toolsB = new Map(b.tools.map((t) => [t.name, t]));
  for (const [x] of matchEntries("tools", a.tools.map(tool), b.tools.map(tool), out)) {
    const ta = a.tools.find((t) => t.name === x.key)!;
    const tb = toolsB.get(x.key)!;
    compareTool(ta, tb, out);
    toolWarnings(ta, tb, out);
  }

  const prompt = (p: ServerModel["prompts"][number]): Keyed => ({
    key: p.name,
    name: p.name,
    pointer: p.pointer,
    identity: canon(p.arguments),
  });
  for (const [x, y] of matchEntries("prompts", a.prompts.map(prompt), b.prompts.map(prompt), out)) {
    const pa = a.prompts.find((p) => p.name === x.key)!;
    const pb = b.prompts.find((p) => p.name === y.key)!;
    entryWarnings("prompts", pa.name, pa, pb, out);
    pb.arguments.forEach((arg, i) => {
      if (!arg.required) return;
      const before = pa.arguments.findIndex((o) => o.name === arg.name);
      if (before >= 0 && pa.arguments[before]!.required) return;
      const entry = `prompts/${pa.name}`;
      out.push({
        rule: "PROMPT_ARGUMENT_REQUIRED",
        entry,
        message: `${entry}: ${before >= 0 ? "argument became required" : "new required argument"}: ${arg.name}`,
        old: before >= 0 ? `${pa.pointer}/arguments/${before}` : pa.pointer,
        new: `${pb.pointer}/arguments/${i}/required`,
        check: "args",
      });
    });
  }

  const resource = (r: ServerModel["resources"][number]): Keyed => ({
    key: r.uri,
    name: r.name,
    pointer: r.pointer,
    identity: r.name,
  });
  for (const [x, y] of matchEntries("resources", a.resources.map(resource), b.resources.map(resource), out)) {
    entryWarnings(
      "resources",
      x.key,
      a.resources.find((r) => r.uri === x.key)!,
      b.resources.find((r) => r.uri === y.key)!,
      out,
    );
  }

  const template = (t: ServerModel["resourceTemplates"][number]): Keyed => ({
    key: t.name,
    name: t.name,
    pointer: t.pointer,
    identity: t.uriTemplate,
  });
  for (const [x, y] of matchEntries(
    "resourceTemplates",
    a.resourceTemplates.map(template),
    b.resourceTemplates.map(template),
    out,
  )) {
    const ta = a.resourceTemplates.find((t) => t.name === x.key)!;
    const tb = b.resourceTemplates.find((t) => t.name === y.key)!;
    entryWarnings("resourceTemplates", ta.name, ta, tb, out);
    const sig = (t: typeof ta) =>
      t.variables.map((v) => `${v.name}${v.optional ? "?" : ""}${v.explode ? "*" : ""}`).join(",");
    if (sig(ta) !== sig(tb)) {
      const entry = `resourceTemplates/${ta.name}`;
      out.push({
        rule: "TEMPLATE_VARIABLES_CHANGED",
        entry,
        message: `${entry}: variables {${sig(ta)}} -> {${sig(tb)}} (${ta.uriTemplate} -> ${tb.uriTemplate})`,
        old: `${ta.pointer}/uriTemplate`,
        new: `${tb.pointer}/uriTemplate`,
      });
    }
  }
  return out;
}
