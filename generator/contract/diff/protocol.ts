/**
 * `mcpgen diff <revA> <revB>`: what changed between two protocol revisions, computed from the
 * protocol models (methods from the schema's message unions cross-checked against the reviewed
 * method tables, types from the schema's definitions) and the method tables' input requests
 * (2026-07-28 MRTR), never from prose.
 */
import { loadSchema } from "../../load/load.js";
import { isPlainObject } from "../../json-schema/walk.js";
import { buildModel } from "../../model/build.js";
import type { Direction, MethodDef, ProtocolModel, TypeDef } from "../../model/ir.js";
import { readOverlay } from "../../model/overlay.js";
import { compareShapes, describeShape, valueShape } from "../schema-shape.js";

/** A method as the diff sees it: a JSON-RPC message, or (2026-07-28) an input request embedded in a result. */
export interface MethodFacts {
  method: string;
  kind: "request" | "notification" | "input-request";
  from: Direction;
  messageType: string;
  resultType: string | null;
  capability: string | null;
}

export interface MethodChange {
  method: string;
  /** Which fact changed. */
  what: "direction" | "kind" | "capability" | "messageType" | "resultType";
  before: string | null;
  after: string | null;
}

export interface FieldChange {
  field: string;
  change: "added" | "removed" | "required" | "optional" | "narrowed" | "widened" | "changed";
  /** Present on added fields: whether the field is required. */
  required?: boolean;
  before?: string;
  after?: string;
}

export interface TypeChange {
  type: string;
  fields: FieldChange[];
  /** Union definitions (`anyOf`/`oneOf` of references): members gained and lost. */
  members?: { added: string[]; removed: string[] };
}

export interface CapabilityChange {
  side: "server" | "client";
  /** Dotted path inside ServerCapabilities / ClientCapabilities (`resources.subscribe`). */
  path: string;
  change: "added" | "removed";
}

export interface ProtocolDiff {
  from: string;
  to: string;
  methods: {
    added: MethodFacts[];
    removed: MethodFacts[];
    /** A method removed and one added that carry the same message or params type. */
    renamed: { from: string; to: string; via: string }[];
    /** Same method, different direction, kind, gate, message or result type. */
    changed: MethodChange[];
  };
  capabilities: {
    /** Capability fields of ServerCapabilities / ClientCapabilities. */
    fields: CapabilityChange[];
    /** Methods whose capability gate changed (also listed under methods.changed). */
    gates: MethodChange[];
  };
  types: {
    added: string[];
    removed: string[];
    changed: TypeChange[];
  };
}

export function loadProtocol(input: string, warn?: (m: string) => void): ProtocolModel {
  return buildModel(loadSchema(input), warn ? { warn } : {});
}

/** JSON-RPC methods of the model plus the revision's input requests (bundled revisions only). */
export function methodFacts(model: ProtocolModel): MethodFacts[] {
  const out: MethodFacts[] = model.methods.map((m: MethodDef) => ({
    method: m.method,
    kind: m.kind,
    from: m.from,
    messageType: m.messageType,
    resultType: m.resultType,
    capability: m.capability,
  }));
  let inputRequests: ReturnType<typeof readOverlay>["inputRequests"];
  try {
    inputRequests = readOverlay(model.revision).inputRequests;
  } catch {
    inputRequests = undefined; // an unbundled revision has no reviewed table of its own
  }
  for (const [method, r] of Object.entries(inputRequests ?? {})) {
    if (out.some((m) => m.method === method)) continue;
    out.push({
      method,
      kind: "input-request",
      from: "server",
      messageType: r.messageType,
      resultType: r.resultType,
      capability: r.capability,
    });
  }
  return out.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

const byName = <T extends { method: string }>(list: T[]) => new Map(list.map((m) => [m.method, m]));

function diffMethods(a: MethodFacts[], b: MethodFacts[]): ProtocolDiff["methods"] {
  const A = byName(a);
  const B = byName(b);
  let added = b.filter((m) => !A.has(m.method));
  const gone = a.filter((m) => !B.has(m.method));
  let removed = gone;
  const renamed: ProtocolDiff["methods"]["renamed"] = [];
  for (const r of gone) {
    const twin = added.find((n) => n.messageType === r.messageType);
    if (!twin) continue;
    renamed.push({ from: r.method, to: twin.method, via: `message type ${r.messageType}` });
    added = added.filter((n) => n !== twin);
    removed = removed.filter((n) => n !== r);
  }
  const changed: MethodChange[] = [];
  for (const before of a) {
    const after = B.get(before.method);
    if (!after) continue;
    const facts = [
      ["direction", before.from, after.from],
      ["kind", before.kind, after.kind],
      ["capability", before.capability, after.capability],
      ["messageType", before.messageType, after.messageType],
      ["resultType", before.resultType, after.resultType],
    ] as const;
    for (const [what, x, y] of facts) if (x !== y) changed.push({ method: before.method, what, before: x, after: y });
  }
  return { added, removed, renamed, changed };
}

type Props = { properties: { [k: string]: unknown }; required: Set<string> };

function objectProps(schema: unknown): Props | null {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return null;
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [],
  );
  return { properties: schema.properties, required };
}

/** Field-level changes between two definitions (top-level properties; protocol types are flat). */
function diffFields(before: unknown, after: unknown, rootA: unknown, rootB: unknown): FieldChange[] {
  const pa = objectProps(before);
  const pb = objectProps(after);
  if (!pa || !pb) {
    const sa = valueShape(before, rootA, false);
    const sb = valueShape(after, rootB, false);
    const c = compareShapes(sa, sb);
    if (pa || pb)
      return [
        {
          field: "",
          change: "changed",
          before: pa ? "object" : describeShape(sa),
          after: pb ? "object" : describeShape(sb),
        },
      ];
    return c === "same" ? [] : [{ field: "", change: c, before: describeShape(sa), after: describeShape(sb) }];
  }
  const out: FieldChange[] = [];
  const names = [...new Set([...Object.keys(pa.properties), ...Object.keys(pb.properties)])].sort();
  for (const f of names) {
    const inA = f in pa.properties;
    const inB = f in pb.properties;
    if (!inA) out.push({ field: f, change: "added", required: pb.required.has(f) });
    else if (!inB) out.push({ field: f, change: "removed" });
    else {
      if (pa.required.has(f) && !pb.required.has(f)) out.push({ field: f, change: "optional" });
      if (!pa.required.has(f) && pb.required.has(f)) out.push({ field: f, change: "required" });
      let sa = valueShape(pa.properties[f], rootA, false);
      let sb = valueShape(pb.properties[f], rootB, false);
      // An inline schema that became a named one (or back) compares by what it accepts.
      if ((sa.ref === null) !== (sb.ref === null)) {
        sa = valueShape(pa.properties[f], rootA, true);
        sb = valueShape(pb.properties[f], rootB, true);
      }
      const c = compareShapes(sa, sb);
      if (c !== "same") out.push({ field: f, change: c, before: describeShape(sa), after: describeShape(sb) });
    }
  }
  return out;
}

function diffTypes(a: ProtocolModel, b: ProtocolModel): ProtocolDiff["types"] {
  const A = new Map(a.types.map((t: TypeDef) => [t.name, t]));
  const B = new Map(b.types.map((t: TypeDef) => [t.name, t]));
  const added = [...B.keys()].filter((n) => !A.has(n)).sort();
  const removed = [...A.keys()].filter((n) => !B.has(n)).sort();
  const changed: TypeChange[] = [];
  for (const [name, t] of [...A].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const u = B.get(name);
    if (!u) continue;
    const ma = unionMembers(t.schema);
    const mb = unionMembers(u.schema);
    if (ma && mb) {
      const added = mb.filter((m) => !ma.includes(m));
      const removed = ma.filter((m) => !mb.includes(m));
      if (added.length || removed.length) changed.push({ type: name, fields: [], members: { added, removed } });
      continue;
    }
    const fields = diffFields(t.schema, u.schema, a.document, b.document);
    if (fields.length) changed.push({ type: name, fields });
  }
  return { added, removed, changed };
}

/** Sorted member names of a union of references, else null. */
function unionMembers(schema: unknown): string[] | null {
  if (!isPlainObject(schema)) return null;
  const list = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (!list || !list.every((m) => isPlainObject(m) && typeof m.$ref === "string")) return null;
  return list.map((m) => String((m as { $ref: string }).$ref).replace(/^.*\//, "")).sort();
}

/** Capability paths (`tasks`, `resources.subscribe`) of a capabilities definition, one level deep. */
function capabilityPaths(model: ProtocolModel, typeName: string): Set<string> {
  const out = new Set<string>();
  const def = model.types.find((t) => t.name === typeName)?.schema;
  const props = objectProps(def);
  if (!props) return out;
  for (const [k, v] of Object.entries(props.properties)) {
    out.add(k);
    const sub = objectProps(v);
    if (sub) for (const s of Object.keys(sub.properties)) out.add(`${k}.${s}`);
  }
  return out;
}

function diffCapabilities(
  a: ProtocolModel,
  b: ProtocolModel,
  methods: ProtocolDiff["methods"],
): ProtocolDiff["capabilities"] {
  const fields: CapabilityChange[] = [];
  for (const [side, type] of [
    ["server", "ServerCapabilities"],
    ["client", "ClientCapabilities"],
  ] as const) {
    const pa = capabilityPaths(a, type);
    const pb = capabilityPaths(b, type);
    for (const p of [...pb].filter((x) => !pa.has(x)).sort()) fields.push({ side, path: p, change: "added" });
    for (const p of [...pa].filter((x) => !pb.has(x)).sort()) fields.push({ side, path: p, change: "removed" });
  }
  return { fields, gates: methods.changed.filter((c) => c.what === "capability") };
}

export function diffProtocols(a: ProtocolModel, b: ProtocolModel): ProtocolDiff {
  const methods = diffMethods(methodFacts(a), methodFacts(b));
  return {
    from: a.revision,
    to: b.revision,
    methods,
    capabilities: diffCapabilities(a, b, methods),
    types: diffTypes(a, b),
  };
}
