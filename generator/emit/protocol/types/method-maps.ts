/**
 * The per-method type maps at the end of types.ts: which methods each side may send, and for each
 * method its params, result (requests) or params (notifications), taken from `model.methods`.
 */
import type { JSONSchema, MethodDef, ProtocolModel } from "../../../model/ir.js";
import { TypesEmitError } from "./normalise.js";
import { resolvePointer, unescapePointerToken } from "../../../json-schema/pointer.js";
import { isPlainObject } from "../../../json-schema/walk.js";

/** Names this file adds next to the schema's definitions; a definition with one of these names is an error (except the two below). */
export const MAP_NAMES = [
  "RequestMap",
  "NotificationMap",
  "RequestMethod",
  "NotificationMethod",
  "ClientRequestMethod",
  "ServerRequestMethod",
  "ClientNotificationMethod",
  "ServerNotificationMethod",
  "RequestParams",
  "ResultOf",
  "NotificationParams",
] as const;

/**
 * Since 2025-11-25 the schema itself defines `RequestParams` and `NotificationParams` (the common
 * params shape). Those definitions become generic aliases with a defaulted parameter: without a
 * type argument they are the schema's shape, with a method they are that method's params.
 */
export const GENERIC_DEFINITIONS: { [name: string]: { map: string; method: string } } = {
  RequestParams: { map: "RequestMap", method: "RequestMethod" },
  NotificationParams: { map: "NotificationMap", method: "NotificationMethod" },
};

export function emitMethodMaps(model: ProtocolModel, defined: ReadonlySet<string>): string {
  const requests = model.methods.filter((m) => m.kind === "request");
  const notifications = model.methods.filter((m) => m.kind === "notification");
  const out: string[] = [];
  out.push(`/**
 * Per-method maps for MCP ${model.revision}, derived from the method table.
 *
 * - \`RequestMap[M]\` is \`{ params; result }\` and \`NotificationMap[M]\` is \`{ params }\`. When a
 *   message may omit \`params\` on the wire, the map's \`params\` property is optional, so
 *   \`RequestParams<M>\` / \`NotificationParams<M>\` include \`undefined\` for exactly those methods
 *   (a caller can then write \`undefined extends RequestParams<M> ? [params?: …] : [params: …]\`).
 * - Every params type carries \`_meta\`: where a message type redefines \`params\` without the base
 *   \`_meta\` (revisions up to 2025-06-18), the base \`_meta\` is merged in here.
 * - \`ResultOf<M>\` is the result type; where the schema pins a response (\`…ResultResponse\`), its
 *   \`result\` is used (in 2026-07-28 that includes \`InputRequiredResult\`), and where results carry
 *   \`resultType\`, each member is narrowed to its discriminant (\`"input_required"\` for
 *   \`InputRequiredResult\`, \`"complete"\` otherwise), since the spec makes any other value invalid.
 * - Methods either side may send appear in both the client and the server unions.
 */`);
  out.push(`export interface RequestMap {\n${requests.map((m) => requestEntry(model, m, defined)).join("\n")}\n}`);
  out.push(
    `/** Notification methods of MCP ${model.revision}; see {@link RequestMap}. */\nexport interface NotificationMap {\n${notifications
      .map((m) => notificationEntry(model, m, defined))
      .join("\n")}\n}`,
  );
  out.push(
    `/** Every request method of MCP ${model.revision}. */\nexport type RequestMethod = ${literalUnion(requests)};`,
  );
  out.push(
    `/** Every notification method of MCP ${model.revision}. */\nexport type NotificationMethod = ${literalUnion(notifications)};`,
  );
  out.push(
    `/** Requests a client may send. */\nexport type ClientRequestMethod = ${literalUnion(requests.filter(sentBy("client")))};`,
  );
  out.push(
    `/** Requests a server may send. */\nexport type ServerRequestMethod = ${literalUnion(requests.filter(sentBy("server")))};`,
  );
  out.push(
    `/** Notifications a client may send. */\nexport type ClientNotificationMethod = ${literalUnion(notifications.filter(sentBy("client")))};`,
  );
  out.push(
    `/** Notifications a server may send. */\nexport type ServerNotificationMethod = ${literalUnion(notifications.filter(sentBy("server")))};`,
  );
  out.push(
    `/** The result of request method \`M\`. */\nexport type ResultOf<M extends RequestMethod> = RequestMap[M]["result"];`,
  );
  for (const [name, { map, method }] of Object.entries(GENERIC_DEFINITIONS)) {
    if (defined.has(name)) continue; // the schema's definition was made generic instead
    out.push(
      `/** The params of ${map === "RequestMap" ? "request" : "notification"} method \`M\` (includes \`undefined\` when params may be omitted). */\nexport type ${name}<M extends ${method}> = ${map}[M]["params"];`,
    );
  }
  return out.join("\n\n");
}

function sentBy(side: "client" | "server"): (m: MethodDef) => boolean {
  return (m) => m.from === side || m.from === "both";
}

function literalUnion(methods: readonly MethodDef[]): string {
  if (methods.length === 0) return "never";
  return methods.map((m) => JSON.stringify(m.method)).join(" | ");
}

function requestEntry(model: ProtocolModel, m: MethodDef, defined: ReadonlySet<string>): string {
  const optional = m.paramsRequired ? "" : "?";
  return `${JSON.stringify(m.method)}: { params${optional}: ${paramsExpr(model, m, defined, "Request")}; result: ${resultExpr(model, m, defined)} };`;
}

function notificationEntry(model: ProtocolModel, m: MethodDef, defined: ReadonlySet<string>): string {
  const optional = m.paramsRequired ? "" : "?";
  return `${JSON.stringify(m.method)}: { params${optional}: ${paramsExpr(model, m, defined, "Notification")} };`;
}

function paramsExpr(
  model: ProtocolModel,
  m: MethodDef,
  defined: ReadonlySet<string>,
  base: "Request" | "Notification",
): string {
  let expr: string;
  let schema: JSONSchema | undefined;
  if (m.paramsType !== null) {
    need(defined, m.paramsType, m, "paramsType");
    expr = m.paramsType;
    schema = definition(model, m.paramsType);
  } else if (m.paramsPointer !== null) {
    need(defined, m.messageType, m, "messageType");
    const message = definition(model, m.messageType);
    const paramsOptional = !(
      isPlainObject(message) &&
      Array.isArray(message["required"]) &&
      message["required"].includes("params")
    );
    expr = paramsOptional ? `NonNullable<${m.messageType}["params"]>` : `${m.messageType}["params"]`;
    schema = resolvePointer(model.document, m.paramsPointer) as JSONSchema | undefined;
    if (schema === undefined)
      throw new TypesEmitError(`${m.method}: paramsPointer ${m.paramsPointer} does not resolve in the schema`);
  } else {
    return "undefined";
  }
  const baseMeta = baseMetaExpr(model, base, defined);
  if (baseMeta !== null && !carriesMeta(model, schema, new Set())) expr = `${expr} & { _meta?: ${baseMeta} }`;
  return expr;
}

/**
 * The common `_meta` type: the base message's `params._meta` (≤2025-06-18), else the schema's
 * common params definition (`RequestParams._meta`, ≥2025-11-25); null when the schema has neither.
 */
function baseMetaExpr(
  model: ProtocolModel,
  base: "Request" | "Notification",
  defined: ReadonlySet<string>,
): string | null {
  if (defined.has(base)) {
    const params = property(model, definition(model, base), "params");
    if (params !== undefined && carriesMeta(model, params, new Set())) return `NonNullable<${base}["params"]>["_meta"]`;
  }
  const common = `${base}Params`;
  if (defined.has(common) && carriesMeta(model, definition(model, common), new Set())) return `${common}["_meta"]`;
  return null;
}

function resultExpr(model: ProtocolModel, m: MethodDef, defined: ReadonlySet<string>): string {
  if (m.resultType === null) throw new TypesEmitError(`${m.method}: request without a result type in the model`);
  need(defined, m.resultType, m, "resultType");
  let members = [m.resultType];
  let expr = m.resultType;
  if (m.resultPointer !== null) {
    const schema = resolvePointer(model.document, m.resultPointer) as JSONSchema | undefined;
    if (schema === undefined)
      throw new TypesEmitError(`${m.method}: resultPointer ${m.resultPointer} does not resolve in the schema`);
    expr = pointerExpr(model, m.resultPointer, defined) ?? expr;
    members = unionRefs(model, schema) ?? members;
  }
  if (!members.every((name) => property(model, definition(model, name), "resultType") !== undefined)) return expr;
  return members
    .map((name) => `(${name} & { resultType: ${name === "InputRequiredResult" ? '"input_required"' : '"complete"'} })`)
    .join(" | ");
}

/** `/$defs/X` → `X`, `/$defs/X/properties/result` → `X["result"]`; null for any other pointer. */
function pointerExpr(model: ProtocolModel, pointer: string, defined: ReadonlySet<string>): string | null {
  const parts = pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((p) => unescapePointerToken(decodeURIComponent(p)));
  if (parts[0] !== model.defsKey || parts[1] === undefined || !defined.has(parts[1])) return null;
  let expr = parts[1];
  for (let i = 2; i < parts.length; i += 2) {
    if (parts[i] !== "properties" || parts[i + 1] === undefined) return null;
    expr += `[${JSON.stringify(parts[i + 1])}]`;
  }
  return expr;
}

function need(defined: ReadonlySet<string>, name: string, m: MethodDef, field: string): void {
  if (!defined.has(name)) throw new TypesEmitError(`${m.method}: ${field} "${name}" is not a definition of the schema`);
}

function definition(model: ProtocolModel, name: string): JSONSchema | undefined {
  return model.types.find((t) => t.name === name)?.schema;
}

/** Does every value this schema admits (objects only) declare a `_meta` property? */
function carriesMeta(model: ProtocolModel, schema: JSONSchema | undefined, seen: Set<string>): boolean {
  if (!isPlainObject(schema)) return false;
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const name = refName(model, ref);
    if (name === null || seen.has(name)) return false;
    seen.add(name);
    return carriesMeta(model, definition(model, name), seen);
  }
  const props = schema["properties"];
  if (isPlainObject(props) && "_meta" in props) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0)
      return branches.every((b) => carriesMeta(model, b as JSONSchema, new Set(seen)));
  }
  const all = schema["allOf"];
  if (Array.isArray(all)) return all.some((b) => carriesMeta(model, b as JSONSchema, new Set(seen)));
  return false;
}

function property(
  model: ProtocolModel,
  schema: JSONSchema | undefined,
  name: string,
  depth = 0,
): JSONSchema | undefined {
  if (!isPlainObject(schema) || depth > 16) return undefined;
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const target = refName(model, ref);
    return target === null ? undefined : property(model, definition(model, target), name, depth + 1);
  }
  const props = schema["properties"];
  if (isPlainObject(props) && name in props) return props[name] as JSONSchema;
  const all = schema["allOf"];
  if (Array.isArray(all)) {
    for (const part of all) {
      const found = property(model, part as JSONSchema, name, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Definition names of a schema that is an `anyOf`/`oneOf` of plain local `$ref`s, else null. */
function unionRefs(model: ProtocolModel, schema: JSONSchema): string[] | null {
  if (!isPlainObject(schema)) return null;
  const branches = schema["anyOf"] ?? schema["oneOf"];
  if (!Array.isArray(branches)) {
    const ref = schema["$ref"];
    const name = typeof ref === "string" ? refName(model, ref) : null;
    return name === null ? null : [name];
  }
  const names: string[] = [];
  for (const b of branches) {
    const ref = isPlainObject(b) ? b["$ref"] : undefined;
    const name = typeof ref === "string" ? refName(model, ref) : null;
    if (name === null) return null;
    names.push(name);
  }
  return names;
}

function refName(model: ProtocolModel, ref: string): string | null {
  const prefix = `#/${model.defsKey}/`;
  return ref.startsWith(prefix) ? ref.slice(prefix.length) : null;
}
