/**
 * Entries → manifest objects. Tool: name from the member (or `@name`), description from the
 * JSDoc text, `inputSchema` from the first parameter, `outputSchema` from the awaited return
 * type when it is structured output, annotations and `execution` from tags. Prompt: arguments
 * from the first parameter's (string) properties. Resource: `@uri` names a static resource or,
 * with `{variables}`, a resource template.
 */
import { ts, type Node, type Type } from "ts-morph";
import { readDoc, type Doc } from "./jsdoc.js";
import { SchemaBuilder, type JsonSchema } from "./schema.js";
import type { Entry } from "./entries.js";
import type { Problems } from "./problems.js";
import { toMemberName } from "../names/index.js";

type Obj = { [key: string]: unknown };

const ANNOTATIONS: Record<string, string> = {
  readOnly: "readOnlyHint",
  destructive: "destructiveHint",
  idempotent: "idempotentHint",
  openWorld: "openWorldHint",
};
const TASK_SUPPORT = ["forbidden", "optional", "required"];

export interface Sections {
  tools: Obj[];
  prompts: Obj[];
  resources: Obj[];
  resourceTemplates: Obj[];
}

export function buildSections(entries: Entry[], problems: Problems): Sections {
  const out: Sections = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
  for (const entry of entries) {
    const doc = readDoc(entry.docNode);
    const name = mcpName(entry, doc, problems);
    if (entry.section === "tools") out.tools.push(tool(entry, name, doc, out.tools.length, problems));
    else if (entry.section === "prompts") out.prompts.push(prompt(entry, name, doc, out.prompts.length, problems));
    else {
      const r = resource(entry, name, doc, problems);
      if (r && "uriTemplate" in r) out.resourceTemplates.push(r);
      else if (r) out.resources.push(r);
    }
  }
  return out;
}

/** `@name` may rename the MCP entry, but it must still map to the member the handlers use. */
function mcpName(entry: Entry, doc: Doc, problems: Problems): string {
  const name = doc.tags.get("name") || entry.key;
  const member = toMemberName(name);
  if (member !== entry.key) {
    problems.error(
      entry.node,
      `/${entry.section}/${entry.key}`,
      `${entry.section} member ${entry.key} would be generated as ${JSON.stringify(member)} (from the MCP name ${JSON.stringify(name)}), so the handlers would not match; rename it ${JSON.stringify(member)}${doc.tags.has("name") ? " or change @name" : ""}`,
    );
  }
  return name;
}

function common(doc: Doc): Obj {
  const o: Obj = {};
  const title = doc.tags.get("title");
  if (title) o.title = title;
  if (doc.description) o.description = doc.description;
  return o;
}

function tool(entry: Entry, name: string, doc: Doc, index: number, problems: Problems): Obj {
  const ptr = `/tools/${index}`;
  const out: Obj = { name, ...common(doc) };
  const params = entry.signature.getParameters();
  const first = params[0];
  const paramDecl = entry.parameters[0] ?? entry.node;
  if (first) {
    let type = first.getTypeAtLocation(entry.node);
    // `(input?: {...})`: a call without arguments; the schema is the object's
    if (type.isUnion() && type.getUnionTypes().some((t) => t.isUndefined())) {
      const defined = type.getUnionTypes().filter((t) => !t.isUndefined());
      if (defined.length === 1) type = defined[0]!;
    }
    const input = new SchemaBuilder(problems, `${ptr}/inputSchema`, "input");
    const schema = input.build(type, paramDecl, {
      paramDocs: doc.params,
      defaults: destructuredDefaults(entry.parameters[0]),
    });
    if (schema.type !== "object")
      problems.error(
        paramDecl,
        `${ptr}/inputSchema`,
        `a tool's input is an object of named arguments, not ${type.getText(entry.node)}`,
      );
    out.inputSchema = schema;
  } else out.inputSchema = { type: "object" };
  if (params.length > 2)
    problems.error(entry.node, ptr, "a tool handler takes (input, ctx); extra parameters get nothing");
  const output = structuredOutput(entry.signature.getReturnType(), entry.node);
  if (output === "none") {
    // text or content blocks: no outputSchema
  } else if (output === "void") {
    problems.error(
      entry.node,
      `${ptr}/outputSchema`,
      "a tool handler must return its structured output (an object), text, or content blocks",
    );
  } else {
    const builder = new SchemaBuilder(problems, `${ptr}/outputSchema`, "output");
    const schema = Array.isArray(output) ? builder.buildUnion(output, entry.node) : builder.build(output, entry.node);
    out.outputSchema =
      schema.type === undefined && (schema.anyOf || schema.oneOf) ? { type: "object", ...schema } : schema;
  }
  const annotations: Obj = {};
  for (const [tag, hint] of Object.entries(ANNOTATIONS)) {
    const v = doc.tags.get(tag);
    if (v === undefined) continue;
    if (v !== "" && v !== "true" && v !== "false")
      problems.error(entry.docNode, `${ptr}/annotations/${hint}`, `@${tag} takes no value, or true/false`);
    annotations[hint] = v !== "false";
  }
  if (Object.keys(annotations).length > 0) out.annotations = annotations;
  const task = doc.tags.get("taskSupport");
  if (task !== undefined) {
    if (!TASK_SUPPORT.includes(task))
      problems.error(
        entry.docNode,
        `${ptr}/execution/taskSupport`,
        `@taskSupport must be one of ${TASK_SUPPORT.join(", ")}`,
      );
    out.execution = { taskSupport: task };
  }
  return out;
}

/**
 * The awaited return without the runtime's result wrappers: `toolResult({ structuredContent })`
 * contributes its structured content, `toolError(...)` nothing. "none" for text/content returns, "void" when nothing is returned.
 */
function structuredOutput(returned: Type, at: Node): Type | Type[] | "none" | "void" {
  let t = returned;
  for (let i = 0; i < 8 && t.getSymbol()?.getName() === "Promise" && t.getTypeArguments().length === 1; i++)
    t = t.getTypeArguments()[0]!;
  const members = t.isUnion() && !t.isBoolean() ? t.getUnionTypes() : [t];
  const kept: Type[] = [];
  for (const m of members) {
    // toolResult()/toolError() results carry the runtime's symbol brand
    const branded = m.getProperties().some((p) => p.getName().startsWith("__@resultBrand"));
    const structured = branded ? m.getProperty("structuredContent") : undefined;
    if (structured) kept.push(structured.getTypeAtLocation(at));
    else if (!branded) kept.push(m);
  }
  if (kept.every((k) => k.isUndefined() || k.getFlags() & ts.TypeFlags.Void)) return "void";
  const isContent = (k: Type) =>
    k.isString() ||
    k.isStringLiteral() ||
    k.isArray() ||
    (k.getProperty("content") !== undefined &&
      k.getProperty("content")!.getValueDeclaration()?.getType().isArray() === true);
  if (kept.every(isContent)) return "none";
  return kept.length === members.length ? t : kept.length === 1 ? kept[0]! : kept;
}

function prompt(entry: Entry, name: string, doc: Doc, index: number, problems: Problems): Obj {
  const ptr = `/prompts/${index}`;
  const out: Obj = { name, ...common(doc) };
  const first = entry.signature.getParameters()[0];
  if (!first) return out;
  const at = entry.parameters[0] ?? entry.node;
  const type = first.getTypeAtLocation(entry.node);
  const args: Obj[] = [];
  for (const p of type.getProperties()) {
    const decl = p.getDeclarations()[0] ?? at;
    const t = p.getTypeAtLocation(entry.node);
    const nonUndefined = t.isUnion() ? t.getUnionTypes().filter((m) => !m.isUndefined()) : [t];
    if (!(nonUndefined.length === 1 && nonUndefined[0]!.isString())) {
      problems.error(
        decl,
        `${ptr}/arguments/${args.length}`,
        `prompt argument ${p.getName()} is ${t.getText(entry.node)}; prompt arguments are strings on the wire`,
      );
    }
    const d = readDoc(decl);
    const arg: Obj = { name: p.getName() };
    const description = d.description ?? doc.params.get(p.getName());
    if (description) arg.description = description;
    if (!p.isOptional()) arg.required = true;
    args.push(arg);
  }
  if (args.length > 0) out.arguments = args;
  return out;
}

function resource(entry: Entry, name: string, doc: Doc, problems: Problems): Obj | undefined {
  const uri = doc.tags.get("uri");
  if (!uri) {
    problems.error(
      entry.docNode,
      `/resources/${entry.key}`,
      "a resource handler needs a `@uri scheme://...` tag (with {variables} for a resource template)",
    );
    return undefined;
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    problems.error(
      entry.docNode,
      `/resources/${entry.key}`,
      `@uri ${JSON.stringify(uri)} is not an absolute URI with a scheme (e.g. notes://all, file:///{+path})`,
    );
    return undefined;
  }
  const out: Obj = uri.includes("{") ? { uriTemplate: uri, name } : { uri, name };
  Object.assign(out, common(doc));
  const mime = doc.tags.get("mimeType");
  if (mime) out.mimeType = mime;
  return out;
}

/** `({ days = 3, units = "metric" }: Input) =>`: literal initializers are the schema defaults. */
function destructuredDefaults(param: Node | undefined): Map<string, unknown> {
  const defaults = new Map<string, unknown>();
  const pattern = param && ts.isParameter(param.compilerNode) ? param.compilerNode.name : undefined;
  if (!pattern || !ts.isObjectBindingPattern(pattern)) return defaults;
  for (const el of pattern.elements) {
    if (!el.initializer || el.dotDotDotToken) continue;
    const key = el.propertyName ?? el.name;
    if (!ts.isIdentifier(key) && !ts.isStringLiteral(key)) continue;
    const value = literal(el.initializer);
    if (value !== undefined) defaults.set(key.text, value);
  }
  return defaults;
}

function literal(e: ts.Expression): unknown {
  if (ts.isStringLiteralLike(e)) return e.text;
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand))
    return -Number(e.operand.text);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (e.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(e)) {
    const items = e.elements.map(literal);
    return items.every((i) => i !== undefined) ? items : undefined;
  }
  if (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e))
    return literal(e.expression);
  return undefined;
}

export type { JsonSchema };
