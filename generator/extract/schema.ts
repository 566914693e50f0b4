/**
 * TypeScript types → JSON Schema (2020-12), through the checker so aliases, generics,
 * intersections, `Record`, `Pick` and imported types are all seen as the compiler resolves them.
 * Named interfaces and object aliases declared in the author's files become `$defs` (shared, and
 * the only way to express recursion); library types are inlined. What JSON cannot carry
 * (functions, methods, `any`, `bigint`, unresolved type parameters, `undefined` outside an
 * optional property) is reported at the declaration that uses it, never turned into `{}`.
 */
import { Node, ts, type Symbol as MorphSymbol, type Type } from "ts-morph";
import { readDoc, type Doc } from "./jsdoc.js";
import { applyDoc, type JsonSchema } from "./keywords.js";
import { escapePointerToken } from "../json-schema/pointer.js";
import type { Problems } from "./problems.js";

export type { JsonSchema };

const MAX_DEPTH = 64;
const MAX_INSTANCES = 32;

export interface RootExtras {
  /** `@param input.city text` descriptions of the root's properties. */
  paramDocs?: ReadonlyMap<string, string>;
  /** Defaults read from a destructuring parameter, `({ days = 3 }) => ...`. */
  defaults?: ReadonlyMap<string, unknown>;
}

/** Converts the types of one schema (one tool's input or output); `$defs` are local to it. */
export class SchemaBuilder {
  private readonly defs = new Map<string, JsonSchema>();
  private readonly defNames = new Map<ts.Type, string>();
  private root: ts.Type | undefined;
  private depth = 0;
  private tooDeep = false;
  /** Instantiations per generic declaration: `Deep<T[]>` inside `Deep<T>` never closes. */
  private readonly instances = new Map<MorphSymbol, number>();

  constructor(
    private readonly problems: Problems,
    /** Manifest pointer of this schema, e.g. `/tools/0/inputSchema`. */
    private readonly base: string,
    /** Inputs arrive as JSON: a type the wire cannot produce (Date, enums) is worth a warning. */
    private readonly direction: "input" | "output",
  ) {}

  build(type: Type, at: Node, extras: RootExtras = {}): JsonSchema {
    this.root = isNamed(type) ? type.compilerType : undefined;
    let schema = this.structure(type, at, this.base, extras);
    // a named root (`): Promise<Note>`) carries its declaration's JSDoc as a $def would
    const decl = this.root ? namedDeclaration(type) : undefined;
    if (decl) schema = applyDoc(schema, readDoc(decl), (m) => this.problems.error(decl, this.base, m));
    if (this.defs.size === 0) return schema;
    return { ...schema, $defs: Object.fromEntries(this.defs) };
  }

  /** A root that is a union of separately found members (a return type minus `ToolError`). */
  buildUnion(members: Type[], at: Node): JsonSchema {
    const schema = this.union(members, at, this.base);
    return this.defs.size === 0 ? schema : { ...schema, $defs: Object.fromEntries(this.defs) };
  }

  /** A property's (or element's) type: the root itself and named types become `$ref`s. */
  private convert(type: Type, at: Node, ptr: string): JsonSchema {
    if (this.root !== undefined && type.compilerType === this.root) return { $ref: "#" };
    // named types stop recursion, but a generic that instantiates itself anew at every level
    // (`type Deep<T> = { next: Deep<T[]> }`) would not
    if (this.depth >= MAX_DEPTH) {
      if (!this.tooDeep) this.problems.error(at, ptr, `type nests deeper than ${MAX_DEPTH} levels`);
      this.tooDeep = true;
      return {};
    }
    this.depth++;
    try {
      return isNamed(type) ? this.ref(type, at, ptr) : this.structure(type, at, ptr, {});
    } finally {
      this.depth--;
    }
  }

  private ref(type: Type, at: Node, ptr: string): JsonSchema {
    const name = defName(type);
    const known = this.defNames.get(type.compilerType);
    if (known !== undefined) return { $ref: `#/$defs/${escapePointerToken(known)}` };
    const generic = namedSymbol(type)!;
    const count = (this.instances.get(generic) ?? 0) + 1;
    this.instances.set(generic, count);
    if (count > MAX_INSTANCES) {
      if (count === MAX_INSTANCES + 1)
        this.problems.error(
          at,
          ptr,
          `${generic.getName()} is instantiated anew at every level (${type.getText(at).slice(0, 80)}...): a generic that expands without end has no finite schema`,
        );
      return {};
    }
    if (this.defs.has(name)) {
      this.problems.error(at, ptr, `two different types are named ${name} in one schema; rename one of them`);
      return {};
    }
    this.defNames.set(type.compilerType, name);
    this.defs.set(name, {}); // reserved before converting, so a recursive reference finds it
    const decl = namedDeclaration(type);
    const defPtr = `${this.base}/$defs/${escapePointerToken(name)}`;
    const schema = this.structure(type, decl ?? at, defPtr, {});
    this.defs.set(
      name,
      applyDoc(schema, readDoc(decl), (m) => this.problems.error(decl ?? at, defPtr, m)),
    );
    return { $ref: `#/$defs/${escapePointerToken(name)}` };
  }

  private structure(type: Type, at: Node, ptr: string, extras: RootExtras): JsonSchema {
    const text = () =>
      type.getText(at, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
    const fail = (why: string): JsonSchema => {
      this.problems.error(at, ptr, `cannot express type ${text()} as JSON Schema: ${why}`);
      return {};
    };
    if ((type.compilerType as { intrinsicName?: string }).intrinsicName === "error")
      return fail(
        "the type does not resolve (a missing import, or a global type from an @types package: import it explicitly)",
      );
    if (type.isAny())
      return fail("`any` says nothing about the value (use a precise type, or `unknown` for any JSON value)");
    if (type.isUnknown()) return {};
    if (type.isTypeParameter()) return fail("unresolved type parameter (instantiate the generic with a concrete type)");
    const flags = type.getFlags();
    if (flags & ts.TypeFlags.Never) return fail("`never` has no values");
    if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void))
      return fail("JSON has no undefined (make the property optional instead)");
    if (flags & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) return fail("JSON numbers are not bigints");
    if (flags & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol)) return fail("symbols have no JSON form");
    if (type.isNull()) return { type: "null" };
    if (type.isString()) return { type: "string" };
    if (type.isNumber()) return { type: "number" };
    if (type.isBoolean()) return { type: "boolean" };
    if (type.isLiteral() || type.isBooleanLiteral()) return this.literalGroup([type], at, ptr);
    if (type.isUnion()) return this.union(type.getUnionTypes(), at, ptr);
    if (type.isIntersection()) {
      const parts = type.getIntersectionTypes();
      const base = parts.filter((p) => !isBrand(p));
      // `string & { readonly __brand: "Email" }`: the brand exists only for the compiler.
      if (base.length === 1 && base.length < parts.length) return this.structure(base[0]!, at, ptr, extras);
      if (parts.some((p) => !p.isObject()))
        return fail("an intersection with a primitive that is not a brand (`T & { __brand: ... }`)");
    }
    if (flags & ts.TypeFlags.NonPrimitive) return { type: "object" };
    const symbol = type.getSymbol();
    if (symbol?.getName() === "Date" && isLibrary(symbol)) {
      this.problems.warn(
        at,
        ptr,
        "Date becomes a date-time string on the wire: handlers receive and return strings, so the generated type is `string` (declare `string` with `@format date-time` to keep types exact)",
      );
      return { type: "string", format: "date-time" };
    }
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0)
      return fail("functions have no JSON form");
    if (type.isArray() || type.isReadonlyArray()) {
      const element = type.getArrayElementType() ?? type.getTypeArguments()[0];
      return element
        ? { type: "array", items: this.convert(element, at, `${ptr}/items`) }
        : fail("array without an element type");
    }
    if (type.isTuple()) return this.tuple(type, at, ptr);
    // `A & B` of objects: the checker merges their properties
    if (!type.isObject() && !type.isIntersection()) return fail("not a JSON value type");
    return this.object(type, at, ptr, extras, fail);
  }

  private object(type: Type, at: Node, ptr: string, extras: RootExtras, fail: (why: string) => JsonSchema): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const methods = type.getProperties().filter(isMethod);
    if (methods.length > 0)
      return fail(
        `it has methods (${methods.map((m) => displayName(m.getName())).join(", ")}); only data can be sent as JSON`,
      );
    for (const prop of type.getProperties()) {
      const name = prop.getName();
      const decl = prop.getValueDeclaration() ?? prop.getDeclarations()[0];
      const where = decl ?? at;
      const propPtr = `${ptr}/properties/${escapePointerToken(name)}`;
      if (name.startsWith("__@")) {
        this.problems.error(where, propPtr, `symbol-keyed property ${displayName(name)} has no JSON form`);
        continue;
      }
      let propType = prop.getTypeAtLocation(at);
      let optional = prop.isOptional();
      if (propType.isUnion() && propType.getUnionTypes().some((t) => t.isUndefined())) {
        optional = true;
        const rest = propType.getUnionTypes().filter((t) => !t.isUndefined());
        propType = rest.length === 1 ? rest[0]! : propType;
        if (rest.length !== 1) {
          properties[name] = this.union(rest, where, propPtr);
        }
      }
      if (properties[name] === undefined) properties[name] = this.convert(propType, where, propPtr);
      const doc = this.propertyDoc(decl, name, extras);
      properties[name] = applyDoc(properties[name]!, doc, (m) => this.problems.error(where, propPtr, m));
      if (extras.defaults?.has(name) && properties[name]!.default === undefined)
        properties[name]!.default = extras.defaults.get(name);
      if (!optional) required.push(name);
    }
    const schema: JsonSchema = { type: "object", properties };
    if (required.length > 0) schema.required = required;
    const index = type.getStringIndexType();
    if (index) schema.additionalProperties = this.convert(index, at, `${ptr}/additionalProperties`);
    else if (type.getNumberIndexType())
      return fail("number-keyed index signatures have no JSON form (JSON keys are strings; use Record<string, T>)");
    if (Object.keys(properties).length === 0 && index) delete schema.properties;
    return schema;
  }

  /** Tags on the property, then on the aliases its declared type goes through (`to: Email`). */
  private propertyDoc(decl: Node | undefined, name: string, extras: RootExtras): Doc {
    const doc = readDoc(decl);
    const merged: Doc = { tags: new Map(), params: new Map() };
    for (const alias of aliasChain(decl).reverse()) {
      const d = readDoc(alias);
      for (const [k, v] of d.tags) merged.tags.set(k, v);
    }
    for (const [k, v] of doc.tags) merged.tags.set(k, v);
    const description = doc.description ?? extras.paramDocs?.get(name);
    if (description !== undefined) merged.description = description;
    return merged;
  }

  private tuple(type: Type, at: Node, ptr: string): JsonSchema {
    const elements = type.getTupleElements();
    const target = (type.compilerType as ts.TupleTypeReference).target;
    const prefixItems: JsonSchema[] = [];
    let rest: JsonSchema | undefined;
    let minItems = 0;
    elements.forEach((element, i) => {
      const flag = target.elementFlags[i] ?? ts.ElementFlags.Required;
      if (flag & ts.ElementFlags.Variable) rest = this.convert(element, at, `${ptr}/items`);
      else {
        // an optional element's type carries `| undefined`; absence is what minItems says
        const defined =
          flag & ts.ElementFlags.Optional && element.isUnion()
            ? element.getUnionTypes().filter((m) => !m.isUndefined())
            : [element];
        const elementPtr = `${ptr}/prefixItems/${i}`;
        prefixItems.push(
          defined.length === 1 ? this.convert(defined[0]!, at, elementPtr) : this.union(defined, at, elementPtr),
        );
        if (flag & ts.ElementFlags.Required) minItems = i + 1;
      }
    });
    const schema: JsonSchema = { type: "array", prefixItems, minItems };
    if (rest) schema.items = rest;
    else {
      schema.items = false;
      schema.maxItems = prefixItems.length;
    }
    return schema;
  }

  private union(members: Type[], at: Node, ptr: string): JsonSchema {
    const literals = members.filter((m) => m.isLiteral() || m.isBooleanLiteral() || m.isNull());
    const others = members.filter((m) => !literals.includes(m));
    const hasNull = literals.some((m) => m.isNull());
    const trues = literals.filter((m) => m.isBooleanLiteral());
    const values = literals.filter((m) => !m.isNull() && !m.isBooleanLiteral());
    const parts: JsonSchema[] = [];
    // `boolean` is `true | false` to the checker; both together read back as boolean
    if (trues.length === 2) parts.push({ type: "boolean" });
    const group = [...values, ...(trues.length === 1 ? trues : [])];
    if (group.length > 0) parts.push(this.literalGroup(group, at, ptr));
    const objects = others.filter((m) => m.isObject() && !m.isArray() && !m.isTuple());
    const discriminated =
      objects.length === others.length && others.length > 1 && discriminant(others, at) !== undefined;
    others.forEach((m, i) => parts.push(this.convert(m, at, `${ptr}/${discriminated ? "oneOf" : "anyOf"}/${i}`)));
    if (hasNull) {
      const only = parts.length === 1 ? parts[0]! : undefined;
      if (only && Array.isArray(only.enum)) return { enum: [...(only.enum as unknown[]), null] };
      if (only && typeof only.type === "string" && Object.keys(only).length === 1) return { type: [only.type, "null"] };
      parts.push({ type: "null" });
    }
    if (parts.length === 1) return parts[0]!;
    if (parts.every((p) => typeof p.type === "string" && Object.keys(p).length === 1))
      return { type: parts.map((p) => p.type) };
    return discriminated && !hasNull ? { oneOf: parts } : { anyOf: parts };
  }

  private literalGroup(members: Type[], at: Node, ptr: string): JsonSchema {
    const values = members.map((m) => literalValue(m));
    if (this.direction === "input" && members.some((m) => m.isEnumLiteral())) {
      this.problems.warn(
        at,
        ptr,
        "an enum-typed input: the generated input type is a union of its values, which a handler typed with the enum does not accept (use a union of literals)",
      );
    }
    return values.length === 1 ? { const: values[0] } : { enum: values };
  }
}

function literalValue(t: Type): unknown {
  if (t.isBooleanLiteral()) return t.getText() === "true";
  const v = t.getLiteralValue();
  if (typeof v === "object" && v !== null) return Number((v as ts.PseudoBigInt).base10Value); // bigint literals are refused earlier
  return v;
}

/** A property every member has with a distinct single literal type: members are exclusive. */
function discriminant(members: Type[], at: Node): string | undefined {
  const first = members[0]!;
  for (const prop of first.getProperties()) {
    const name = prop.getName();
    const seen = new Set<unknown>();
    const ok = members.every((m) => {
      const p = m.getProperty(name);
      if (!p || p.isOptional()) return false;
      const t = p.getTypeAtLocation(at);
      if (!(t.isLiteral() || t.isBooleanLiteral())) return false;
      const v = literalValue(t);
      if (seen.has(v)) return false;
      seen.add(v);
      return true;
    });
    if (ok) return name;
  }
  return undefined;
}

/** The checker spells `[Symbol.iterator]` as `__@iterator@<id>`; the id is an internal counter. */
function displayName(name: string): string {
  const m = /^__@(.+)@\d+$/.exec(name);
  return m ? `[Symbol.${m[1]}]` : name;
}

function isBrand(t: Type): boolean {
  return t.isObject() && t.getProperties().length > 0 && t.getProperties().every((p) => p.getName().startsWith("__"));
}

function isMethod(p: MorphSymbol): boolean {
  return p
    .getDeclarations()
    .some(
      (d) =>
        Node.isMethodDeclaration(d) ||
        Node.isMethodSignature(d) ||
        Node.isGetAccessorDeclaration(d) ||
        Node.isSetAccessorDeclaration(d),
    );
}

function isLibrary(symbol: MorphSymbol): boolean {
  return symbol.getDeclarations().every((d) => d.getSourceFile().getFilePath().includes("/node_modules/"));
}

function namedSymbol(type: Type): MorphSymbol | undefined {
  const alias = type.getAliasSymbol();
  if (alias) return alias;
  const symbol = type.getSymbol();
  if (!symbol) return undefined;
  const f = symbol.getFlags();
  return f & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class) ? symbol : undefined;
}

/** Interfaces and aliases of objects or unions declared in the author's own files. */
function isNamed(type: Type): boolean {
  const symbol = namedSymbol(type);
  if (!symbol || isLibrary(symbol)) return false;
  if (type.isUnion()) return type.getUnionTypes().some((m) => m.isObject() && !m.isArray());
  const objects = type.isObject() || (type.isIntersection() && type.getIntersectionTypes().every((p) => p.isObject()));
  return objects && !type.isArray() && !type.isTuple() && type.getCallSignatures().length === 0;
}

function namedDeclaration(type: Type): Node | undefined {
  return namedSymbol(type)?.getDeclarations()[0];
}

/** `Page<Note>` → `PageNote`, `Page<number>` → `PageNumber`: generic instances are distinct definitions. */
function defName(type: Type): string {
  const symbol = namedSymbol(type)!;
  const args = type.getAliasSymbol() ? type.getAliasTypeArguments() : type.getTypeArguments();
  const word = (a: Type) =>
    a
      .getText()
      .replaceAll("[]", "Array")
      .replace(/[^A-Za-z0-9_]/g, "")
      .replace(/^./, (c) => c.toUpperCase());
  return symbol.getName() + args.map((a) => (isNamed(a) ? defName(a) : word(a))).join("");
}

/** The type aliases a declaration's type annotation goes through: `to: Email` → [Email]. */
function aliasChain(decl: Node | undefined): Node[] {
  const chain: Node[] = [];
  let typeNode =
    decl && (Node.isPropertySignature(decl) || Node.isPropertyDeclaration(decl) || Node.isParameterDeclaration(decl))
      ? decl.getTypeNode()
      : undefined;
  for (let depth = 0; typeNode && Node.isTypeReference(typeNode) && depth < 16; depth++) {
    const target = typeNode.getTypeName().getSymbol();
    const aliasDecl = (target?.isAlias() ? target.getAliasedSymbol() : target)
      ?.getDeclarations()
      .find(Node.isTypeAliasDeclaration);
    if (!aliasDecl) break;
    chain.push(aliasDecl);
    typeNode = aliasDecl.getTypeNode();
  }
  return chain;
}
