/**
 * JSON Schema (draft-07 and 2020-12 keywords) → TypeScript declarations, for tool input/output
 * schemas. Written for this job instead of json-schema-to-typescript so that names are derived
 * from the owner and the property path (`GetForecastInputLocation`, `GetForecastOutputDaysItem`,
 * never `Location1`), local `$ref` targets are declared once under a path name, and a clash is a
 * reported error. Output is plain TS source (formatting is the print stage's job); no `any`.
 *
 * Typing choices: an object with `properties` and no `additionalProperties` is closed (no index
 * signature) so typos in literals are compile errors; `additionalProperties: true` or a schema,
 * and `patternProperties`, add an index signature; `not`, `if/then/else` and validation-only
 * keywords (`minimum`, `pattern`, ...) do not narrow the type. `format`, `default` and
 * `deprecated` become JSDoc tags.
 */
import { escapePointerToken } from "../../json-schema/pointer.js";
import { isPlainObject, type SchemaObject } from "../../json-schema/walk.js";
import { resolveLocalRef } from "../../json-schema/ref.js";
import { propertyKey, toTypeName } from "../../names/identifiers.js";
import type { NameRegistry } from "../../names/registry.js";
import { WITH_DEFAULTS, type InputDefaults } from "../../model/input-defaults.js";

/** A problem an emitter found at a pointer of its input; the caller adds the file and position (a `Diagnostic`). */
export interface Problem {
  severity: "error" | "warning";
  pointer: string;
  message: string;
}

export interface SchemaTypeRequest {
  /** The whole schema (root of `$ref` resolution). */
  schema: unknown;
  /** Name of the root type (`GetForecastInput`). */
  rootName: string;
  /** Pointer of the schema inside the input file, for diagnostics (`/tools/3/inputSchema`). */
  pointer: string;
  /** Original MCP name of the owner, shown in collision messages. */
  ownerName: string;
  /** Doc comment of the root declaration. */
  rootDoc?: string;
  /** Emit `Record<string, unknown>` without looking at the schema (it was reported as broken). */
  fallback?: boolean;
  /**
   * The defaults a server fills in (a tool's inputSchema): also declare the type its handler gets,
   * `<rootName>WithDefaults`, in which filled properties are required; nested declarations that
   * differ get the same suffix, the others are shared.
   */
  defaults?: { plan: InputDefaults; rootDoc?: string };
}

export interface SchemaTypeOutput {
  /** Declarations in a deterministic order: the root first, then nested ones as first reached. */
  declarations: string[];
  problems: Problem[];
}

const PRIMITIVES: Record<string, string> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "boolean",
  null: "null",
};
const OBJECT_KEYWORDS = ["properties", "additionalProperties", "patternProperties", "required"];

export function jsDoc(lines: (string | undefined)[]): string {
  const kept = lines.filter((l): l is string => l !== undefined && l.trim() !== "");
  if (kept.length === 0) return "";
  const body = kept
    .join("\n")
    .replace(/\*\//g, "*\\/")
    .split("\n")
    .map((l) => ` * ${l}`.trimEnd());
  return body.length ? `/**\n${body.join("\n")}\n */\n` : "";
}

function docOf(s: SchemaObject): string {
  const lines: (string | undefined)[] = [];
  if (typeof s.title === "string" && typeof s.description !== "string") lines.push(s.title);
  if (typeof s.description === "string") lines.push(s.description);
  if (typeof s.format === "string") lines.push(`@format ${s.format}`);
  if (s.default !== undefined) lines.push(`@default ${JSON.stringify(s.default)}`);
  if (s.deprecated === true) lines.push("@deprecated");
  return jsDoc(lines);
}

/** A JSON value as a TS literal type. */
function literalType(v: unknown): string {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  if (Array.isArray(v)) return `readonly [${v.map(literalType).join(", ")}]`;
  if (isPlainObject(v))
    return `{ ${Object.keys(v)
      .map((k) => `${propertyKey(k)}: ${literalType(v[k])}`)
      .join("; ")} }`;
  return "unknown";
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  const kept = unique.filter((t) => t !== "never");
  if (kept.length === 0) return "never";
  return kept.length === 1 ? kept[0]! : kept.map(paren).join(" | ");
}

function intersection(types: string[]): string {
  const kept = [...new Set(types)].filter((t) => t !== "unknown");
  if (kept.length === 0) return "unknown";
  return kept.length === 1 ? kept[0]! : kept.map(paren).join(" & ");
}

/** Parenthesises composite types when they become members of a union/intersection/array. */
function paren(t: string): string {
  if (/^[\w$.]+(\[\])*$|^"(?:[^"\\]|\\.)*"$|^-?\d[\d.eE+-]*$/.test(t)) return t;
  if (
    wrapped(t, "{", "}") ||
    wrapped(t, "[", "]") ||
    (/^[\w$.]+</.test(t) && wrapped(t.slice(t.indexOf("<")), "<", ">"))
  )
    return t;
  return `(${t})`;
}

/** True when the bracket opening `t` closes at its last character (strings skipped). */
function wrapped(t: string, open: string, close: string): boolean {
  if (!t.startsWith(open) || !t.endsWith(close)) return false;
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '"') {
      for (i++; i < t.length && t[i] !== '"'; i++) if (t[i] === "\\") i++;
      continue;
    }
    if (c === "{" || c === "[" || c === "(" || c === "<") depth++;
    else if (c === "}" || c === "]" || c === ")" || c === ">") {
      depth--;
      if (depth === 0 && i < t.length - 1) return false;
    }
  }
  return true;
}

function isObjectWithProperties(s: SchemaObject): boolean {
  return (
    isPlainObject(s.properties) && Object.keys(s.properties).length > 0 && (s.type === undefined || s.type === "object")
  );
}

/**
 * Name suffixes of the members of an anyOf/oneOf/allOf list: a member's `title`, else its
 * string `const` discriminator, else its position (`Option2` for anyOf, `Variant2` for oneOf,
 * `Part2` for allOf). Members of one list whose derived suffixes coincide use their positions.
 */
function variantSuffixes(list: readonly unknown[], keyword: string): string[] {
  const positional = (i: number) =>
    `${keyword === "allOf" ? "Part" : keyword === "oneOf" ? "Variant" : "Option"}${i + 1}`;
  const derived = list.map((s, i) => {
    if (isPlainObject(s)) {
      if (typeof s.title === "string" && toTypeName(s.title)) return toTypeName(s.title);
      if (isPlainObject(s.properties)) {
        for (const key of Object.keys(s.properties).sort()) {
          const p = s.properties[key];
          if (isPlainObject(p) && typeof p.const === "string" && toTypeName(p.const)) return toTypeName(p.const);
        }
      }
    }
    return positional(i);
  });
  return derived.map((d, i) => (derived.indexOf(d) !== derived.lastIndexOf(d) ? positional(i) : d));
}

/** Type name for the schema at `pointer` inside the root, following the same rules as the walk. */
function nameForPointer(root: unknown, rootName: string, pointer: string): string {
  const tokens = pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  let name = rootName;
  let cur: unknown = root;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const parent = cur as SchemaObject;
    if ((t === "properties" || t === "$defs" || t === "definitions") && next !== undefined) {
      name += toTypeName(next) || "Property";
      cur = isPlainObject(parent[t]) ? (parent[t] as SchemaObject)[next] : undefined;
      i++;
    } else if ((t === "anyOf" || t === "oneOf" || t === "allOf") && next !== undefined) {
      const list = Array.isArray(parent[t]) ? (parent[t] as unknown[]) : [];
      name += variantSuffixes(list, t)[Number(next)] ?? `Option${Number(next) + 1}`;
      cur = list[Number(next)];
      i++;
    } else if ((t === "items" || t === "prefixItems") && next !== undefined && /^\d+$/.test(next)) {
      name += `Item${Number(next) + 1}`;
      const list = parent[t];
      cur = Array.isArray(list) ? list[Number(next)] : undefined;
      i++;
    } else if (t === "patternProperties" && next !== undefined) {
      const keys = isPlainObject(parent.patternProperties) ? Object.keys(parent.patternProperties) : [];
      name += `Pattern${keys.indexOf(next) + 1}`;
      cur = isPlainObject(parent.patternProperties) ? parent.patternProperties[next] : undefined;
      i++;
    } else {
      name +=
        t === "items" || t === "additionalItems" ? "Item" : t === "additionalProperties" ? "Value" : toTypeName(t);
      cur = isPlainObject(parent) ? parent[t] : undefined;
    }
  }
  return name;
}

export function schemaToTypes(req: SchemaTypeRequest, registry: NameRegistry): SchemaTypeOutput {
  const declarations: string[] = [];
  const problems: Problem[] = [];
  /** Schema pointer (inside the root) → declared type name. */
  const declared = new Map<string, string>();
  /** The same for the handler's input type (`applied`: where defaults are filled in), where it differs. */
  const declaredApplied = new Map<string, string>();
  const root = req.schema;
  const plan = req.defaults?.plan;
  /** Whether the schema at `pointer`, reached where defaults apply (`applied`), types differently for the handler. */
  const applies = (applied: boolean, pointer: string) => applied && plan !== undefined && plan.has(pointer);
  const mapOf = (applied: boolean) => (applied ? declaredApplied : declared);

  const claim = (name: string, pointer: string) =>
    registry.claim(name, { pointer: req.pointer + pointer, name: `${req.ownerName}${pointer ? ` ${pointer}` : ""}` });

  if (req.fallback || (!isPlainObject(root) && typeof root !== "boolean")) {
    claim(req.rootName, "");
    declarations.push(`${req.rootDoc ?? ""}export type ${req.rootName} = Record<string, unknown>;\n`);
    return { declarations, problems };
  }

  /**
   * Aliases being built, with the nesting level (`guard`) they started at: a reference back to
   * one at the same level (`type A = A | B`) is a cycle TS rejects; inside an object member or
   * an array element (guard deeper) recursion is fine.
   */
  const building = new Map<string, number>();
  let guard = 0;
  const guarded = <T>(fn: () => T): T => {
    guard++;
    try {
      return fn();
    } finally {
      guard--;
    }
  };

  /**
   * Declares the schema at `pointer` under `name` (interface when it is an object with properties);
   * `applied`: its handler variant, `name` + WITH_DEFAULTS (nested names still derive from `name`).
   */
  const declare = (s: unknown, pointer: string, name: string, doc: string, applied = false): string => {
    const map = mapOf(applied);
    const existing = map.get(pointer);
    if (existing) return existing;
    const declName = applied ? name + WITH_DEFAULTS : name;
    claim(declName, pointer);
    map.set(pointer, declName);
    const slot = declarations.length;
    declarations.push(""); // reserve the position so the order is parents before children
    if (
      isPlainObject(s) &&
      isObjectWithProperties(s) &&
      !hasComposition(s) &&
      !Array.isArray(s.type) &&
      s.nullable !== true
    ) {
      declarations[slot] =
        `${doc}export interface ${declName} ${guarded(() => objectBody(s, pointer, name, applied))}\n`;
    } else {
      building.set(declName, guard);
      declarations[slot] = `${doc}export type ${declName} = ${typeOf(s, pointer, name, true, applied)};\n`;
      building.delete(declName);
    }
    return declName;
  };

  /** `name`, or `unknown` when using it here would make an alias reference itself directly. */
  const useName = (name: string, refPointer: string): string => {
    const start = building.get(name);
    if (start === undefined || guard > start) return name;
    problems.push({
      severity: "warning",
      pointer: req.pointer + refPointer,
      message: `$ref makes ${name} contain itself directly (no object or array in between); typed as unknown here`,
    });
    return "unknown";
  };

  const hasComposition = (s: SchemaObject) =>
    Array.isArray(s.anyOf) ||
    Array.isArray(s.oneOf) ||
    Array.isArray(s.allOf) ||
    typeof s.$ref === "string" ||
    s.enum !== undefined ||
    s.const !== undefined;

  const refType = (ref: string, pointer: string, applied: boolean): string => {
    const target = resolveLocalRef(root, ref);
    if (!target) return "unknown"; // reported by the manifest checks
    const a = applies(applied, target.pointer);
    if (target.pointer === "") return useName(a ? req.rootName + WITH_DEFAULTS : req.rootName, pointer);
    const known = mapOf(a).get(target.pointer);
    if (known) return useName(known, pointer);
    const name = nameForPointer(root, req.rootName, target.pointer);
    return declare(target.schema, target.pointer, name, isPlainObject(target.schema) ? docOf(target.schema) : "", a);
  };

  /**
   * Type expression of the schema at `pointer`; `name` is its path-derived name if it needs one. `isDecl` avoids re-declaring itself.
   * `applied`: reached where the server fills in defaults (the handler's input type).
   */
  const typeOf = (s: unknown, pointer: string, name: string, isDecl = false, applied = false): string => {
    if (s === true) return "unknown";
    if (s === false) return "never";
    if (!isPlainObject(s)) return "unknown";
    const a = applies(applied, pointer);
    if (!isDecl && mapOf(a).has(pointer)) return mapOf(a).get(pointer)!;

    const parts: string[] = [];
    if (typeof s.$ref === "string") parts.push(refType(s.$ref, pointer, a));
    if (s.const !== undefined) parts.push(literalType(s.const));
    else if (Array.isArray(s.enum)) parts.push(union(s.enum.map(literalType)));
    else parts.push(baseType(s, pointer, name, isDecl, a));

    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const list = s[keyword];
      if (!Array.isArray(list) || list.length === 0) continue;
      const suffixes = variantSuffixes(list, keyword);
      // allOf members describe the same value; which anyOf/oneOf member a value matches is not known
      const members = list.map((m, i) =>
        member(m, `${pointer}/${keyword}/${i}`, name + suffixes[i], a && keyword === "allOf"),
      );
      parts.push(keyword === "allOf" ? intersection(members) : union(members));
    }
    let t = intersection(parts.filter((p) => p !== "object-any"));
    if (parts.every((p) => p === "object-any")) t = "unknown";
    if (s.nullable === true && t !== "unknown") t = union([t, "null"]);
    return t;
  };

  /** A composition member or nested position: objects with properties get their own declaration. */
  const member = (s: unknown, pointer: string, name: string, applied = false): string => {
    const a = applies(applied, pointer);
    if (isPlainObject(s) && isObjectWithProperties(s) && !mapOf(a).has(pointer))
      return declare(s, pointer, name, docOf(s), a);
    return typeOf(s, pointer, name, false, a);
  };

  /** The type implied by `type` and the object/array keywords; "object-any" means no constraint worth an intersection. */
  const baseType = (s: SchemaObject, pointer: string, name: string, isDecl: boolean, applied: boolean): string => {
    const types = Array.isArray(s.type)
      ? s.type.filter((x): x is string => typeof x === "string")
      : typeof s.type === "string"
        ? [s.type]
        : [];
    const looksObject = OBJECT_KEYWORDS.some((k) => s[k] !== undefined);
    const looksArray = s.items !== undefined || s.prefixItems !== undefined;
    if (types.length === 0) {
      if (looksObject) return objectType(s, pointer, name, isDecl, applied);
      if (looksArray) return arrayType(s, pointer, name, applied);
      return "object-any"; // no type constraint; combined with composition or unknown
    }
    const members = types.map((t) => {
      if (t === "object") return objectType(s, pointer, name, isDecl && types.length === 1, applied);
      if (t === "array") return arrayType(s, pointer, name, applied);
      return PRIMITIVES[t] ?? "unknown";
    });
    // "no constraint" is only meaningful alone (it then yields to a composition)
    if (members.length === 1) return members[0]!;
    return union(members.map((m) => (m === "object-any" ? "Record<string, unknown>" : m)));
  };

  const objectType = (s: SchemaObject, pointer: string, name: string, isDecl: boolean, applied: boolean): string => {
    if (isObjectWithProperties(s) && !isDecl) return declare(s, pointer, name, docOf(s), applied);
    const body = objectBody(s, pointer, name, applied);
    if (body === "{}")
      return hasComposition(s)
        ? "object-any"
        : s.additionalProperties === false
          ? "Record<string, never>"
          : "Record<string, unknown>";
    return body;
  };

  const objectBody = (s: SchemaObject, pointer: string, name: string, applied: boolean): string => {
    const props = isPlainObject(s.properties) ? s.properties : {};
    const required = new Set(
      Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [],
    );
    const members: string[] = [];
    const memberTypes: string[] = [];
    let anyOptional = false;
    for (const key of Object.keys(props)) {
      const p = props[key];
      const childPointer = `${pointer}/properties/${escapePointerToken(key)}`;
      const t = guarded(() => member(p, childPointer, name + (toTypeName(key) || "Property"), applied));
      // present for the handler when the server fills in its default
      const optional = !required.has(key) && !(applied && plan !== undefined && plan.fills(pointer, key));
      anyOptional ||= optional;
      memberTypes.push(t);
      members.push(`${isPlainObject(p) ? docOf(p) : ""}${propertyKey(key)}${optional ? "?" : ""}: ${t};`);
    }
    for (const key of required)
      if (!Object.prototype.hasOwnProperty.call(props, key)) {
        members.push(`${propertyKey(key)}: unknown;`);
        memberTypes.push("unknown");
      }
    const index: string[] = [];
    if (isPlainObject(s.patternProperties)) {
      Object.keys(s.patternProperties).forEach((pattern, i) =>
        index.push(
          guarded(() =>
            member(
              (s.patternProperties as SchemaObject)[pattern],
              `${pointer}/patternProperties/${escapePointerToken(pattern)}`,
              `${name}Pattern${i + 1}`,
            ),
          ),
        ),
      );
    }
    const ap = s.additionalProperties;
    if (ap === true || (ap === undefined && Object.keys(props).length === 0 && index.length === 0))
      index.push("unknown");
    else if (ap !== undefined && ap !== false)
      index.push(guarded(() => member(ap, `${pointer}/additionalProperties`, `${name}Value`)));
    if (index.length) {
      const indexType = union([...index, ...memberTypes, ...(anyOptional ? ["undefined"] : [])]);
      if (members.length === 0 && indexType === "unknown") return "{}"; // no constraint at all
      members.push(`[key: string]: ${indexType};`);
    }
    return members.length ? `{\n${members.join("\n")}\n}` : "{}";
  };

  const arrayType = (s: SchemaObject, pointer: string, name: string, applied: boolean): string =>
    guarded(() => arrayTypeInner(s, pointer, name, applied));

  const arrayTypeInner = (s: SchemaObject, pointer: string, name: string, applied: boolean): string => {
    const tuple = Array.isArray(s.prefixItems)
      ? { key: "prefixItems", list: s.prefixItems, rest: s.items }
      : Array.isArray(s.items)
        ? { key: "items", list: s.items, rest: s.additionalItems }
        : undefined;
    if (tuple) {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      const elems = tuple.list.map((e: unknown, i: number) => {
        const t = member(e, `${pointer}/${tuple.key}/${i}`, `${name}Item${i + 1}`);
        return i >= min ? `${paren(t)}?` : t;
      });
      const restKey = tuple.key === "prefixItems" ? "items" : "additionalItems";
      if (tuple.rest !== false)
        elems.push(
          `...${paren(tuple.rest === undefined || tuple.rest === true ? "unknown" : member(tuple.rest, `${pointer}/${restKey}`, `${name}Item`))}[]`,
        );
      return `[${elems.join(", ")}]`;
    }
    const item = s.items === undefined ? "unknown" : member(s.items, `${pointer}/items`, `${name}Item`, applied);
    return `${paren(item)}[]`;
  };

  declare(root, "", req.rootName, req.rootDoc ?? (isPlainObject(root) ? docOf(root) : ""));
  if (plan !== undefined && plan.has(""))
    declare(root, "", req.rootName, req.defaults?.rootDoc ?? (isPlainObject(root) ? docOf(root) : ""), true);
  return { declarations, problems };
}
