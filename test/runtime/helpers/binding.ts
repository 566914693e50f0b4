/**
 * Hand-made ProtocolBindings for runtime tests, shaped like the generated ones (method table from
 * the reviewed overlay, validators that fill ajv-style `errors`), covering only what the tests need.
 */
import type { MethodInfo, ProtocolBinding, ValidationIssue, Validator } from "@mcpgen/runtime";

type Kind = "string" | "number" | "object" | "array" | "boolean";
/** Property name → type; a trailing "?" makes it optional. */
type Shape = Record<string, `${Kind}` | `${Kind}?`>;

function typeOf(v: unknown): Kind | "null" | "other" {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "string" || t === "number" || t === "object" || t === "boolean" ? t : "other";
}

/** A validator for a flat object shape (nested shapes by "a.b" keys are not needed here). */
export function shape(spec: Shape, nested: Record<string, Shape> = {}): Validator {
  const check = (data: unknown, s: Shape, base: string, out: ValidationIssue[]): void => {
    if (typeOf(data) !== "object") {
      out.push({ instancePath: base, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" });
      return;
    }
    const o = data as Record<string, unknown>;
    for (const [key, t] of Object.entries(s)) {
      const optional = t.endsWith("?");
      const kind = (optional ? t.slice(0, -1) : t) as Kind;
      if (!(key in o)) {
        if (!optional) out.push({ instancePath: base, schemaPath: "#/required", keyword: "required", params: { missingProperty: key }, message: `must have required property '${key}'` });
        continue;
      }
      if (typeOf(o[key]) !== kind) {
        out.push({ instancePath: `${base}/${key}`, schemaPath: `#/properties/${key}/type`, keyword: "type", params: { type: kind }, message: `must be ${kind}` });
      } else if (nested[key]) {
        check(o[key], nested[key]!, `${base}/${key}`, out);
      }
    }
  };
  const v = ((data: unknown) => {
    const out: ValidationIssue[] = [];
    check(data, spec, "", out);
    v.errors = out.length ? out : null;
    return out.length === 0;
  }) as Validator;
  return v;
}

const any: Validator = Object.assign((_: unknown): _ is unknown => true, { errors: null });

type Row = [method: string, kind: MethodInfo["kind"], from: MethodInfo["from"], capability: string | null, paramsRequired: boolean];

const ROWS: Row[] = [
  ["initialize", "request", "client", null, true],
  ["ping", "request", "both", null, false],
  ["tools/list", "request", "client", "tools", false],
  ["tools/call", "request", "client", "tools", true],
  ["prompts/list", "request", "client", "prompts", false],
  ["resources/list", "request", "client", "resources", false],
  ["resources/read", "request", "client", "resources", true],
  ["resources/subscribe", "request", "client", "resources.subscribe", true],
  ["resources/unsubscribe", "request", "client", "resources.subscribe", true],
  ["logging/setLevel", "request", "client", "logging", true],
  ["completion/complete", "request", "client", "completions", true],
  ["sampling/createMessage", "request", "server", "sampling", true],
  ["elicitation/create", "request", "server", "elicitation", true],
  ["roots/list", "request", "server", "roots", false],
  ["notifications/initialized", "notification", "client", null, false],
  ["notifications/cancelled", "notification", "both", null, true],
  ["notifications/progress", "notification", "both", null, true],
  ["notifications/message", "notification", "server", "logging", true],
  ["notifications/resources/updated", "notification", "server", "resources.subscribe", true],
  ["notifications/tools/list_changed", "notification", "server", "tools.listChanged", false],
  ["notifications/roots/list_changed", "notification", "client", "roots.listChanged", false],
  ["notifications/elicitation/complete", "notification", "server", "elicitation.url", true],
];

const PARAMS: Record<string, Validator> = {
  initialize: shape({ protocolVersion: "string", capabilities: "object", clientInfo: "object" }, { clientInfo: { name: "string", version: "string" } }),
  "tools/call": shape({ name: "string", arguments: "object?" }),
  "resources/read": shape({ uri: "string" }),
  "resources/subscribe": shape({ uri: "string" }),
  "resources/unsubscribe": shape({ uri: "string" }),
  "sampling/createMessage": shape({ messages: "array", maxTokens: "number" }),
  "elicitation/create": shape({ message: "string" }),
  "notifications/message": shape({ level: "string", data: "string?" }),
  "notifications/resources/updated": shape({ uri: "string" }),
  "notifications/cancelled": any,
  "notifications/progress": any,
};

const RESULTS: Record<string, Validator> = {
  initialize: shape({ protocolVersion: "string", capabilities: "object", serverInfo: "object" }, { serverInfo: { name: "string", version: "string" } }),
  ping: any,
  "tools/list": shape({ tools: "array" }),
  "tools/call": shape({ content: "array", isError: "boolean?" }),
  "resources/read": shape({ contents: "array" }),
  "sampling/createMessage": shape({ role: "string", content: "object", model: "string" }),
  "elicitation/create": shape({ action: "string" }),
  "roots/list": shape({ roots: "array" }),
};

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export function makeBinding(revision: string): ProtocolBinding {
  const methods: Record<string, MethodInfo> = {};
  for (const [method, kind, from, capability, paramsRequired] of ROWS) {
    if (revision < "2025-06-18" && method === "elicitation/create") continue;
    if (revision < "2025-11-25" && method === "notifications/elicitation/complete") continue;
    const cap = revision === "2024-11-05" && method === "completion/complete" ? null : capability;
    methods[method] = { kind, from, capability: cap, paramsRequired, paramsType: null, resultType: kind === "request" ? "Result" : null };
  }
  const keep = <T>(table: Record<string, T>) => Object.fromEntries(Object.entries(table).filter(([m]) => m in methods));
  return { revision, era: "legacy", batching: revision === "2025-03-26", methods, params: keep(PARAMS), results: keep(RESULTS) };
}

export const bindings: ProtocolBinding[] = REVISIONS.map(makeBinding);
export const latest = bindings[bindings.length - 1]!;
export const byRevision = (rev: string) => bindings.find((b) => b.revision === rev)!;
