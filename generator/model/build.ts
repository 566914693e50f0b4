import { McpgenError } from "../errors.js";
import type { LoadedSchema } from "../load/load.js";
import { bundledRevisions } from "../load/schema-manifest.js";
import type { JSONSchema, MethodDef, ProtocolModel, TypeDef } from "./ir.js";
import { overlayFile, readOverlay, type MethodOverlay, type OverlayMethod } from "./overlay.js";
import { compareNames, isObject, SchemaReader, type SchemaMethod } from "./schema-facts.js";

export interface BuildOptions {
  /** Receives what had to be inferred for a schema that is not a bundled revision. */
  warn?: (message: string) => void;
}

type Responses = ReturnType<SchemaReader["responseDefs"]>;

/**
 * Builds the protocol model. Methods come from the schema's message unions; result types and
 * capability gates come from the reviewed overlay of the revision, and any disagreement between
 * the two fails the build naming the method. A schema that is not bundled borrows those facts
 * from the newest overlay that knows the method and warns about everything it inferred.
 */
export function buildModel(loaded: LoadedSchema, options: BuildOptions = {}): ProtocolModel {
  const warn = options.warn ?? (() => {});
  const reader = new SchemaReader(loaded.document, loaded.defsKey, loaded.source.display);
  const schemaMethods = reader.methods();
  const responses = reader.responseDefs();

  let revision: string;
  let era: ProtocolModel["era"];
  let batching: boolean;
  let methods: MethodDef[];
  if (loaded.bundled) {
    const overlay = readOverlay(loaded.bundled);
    methods = fromOverlay(reader, schemaMethods, responses, overlay);
    revision = overlay.revision;
    era = overlay.era;
    batching = overlay.batching;
  } else {
    if (!loaded.revision) {
      throw new McpgenError("cannot tell which protocol revision this schema is", {
        file: loaded.source.display,
        expected:
          "a schema.json inside a directory named after its revision (e.g. 2026-09-30/schema.json) or the revision option",
      });
    }
    revision = loaded.revision;
    ({ era, batching } = inferShape(reader, schemaMethods));
    warn(
      `${loaded.source.display}: revision ${revision} is not bundled with this mcpgen; inferred era "${era}" ` +
        `(${era === "legacy" ? "has" : "no"} initialize request) and batching ${batching} ` +
        `(${batching ? "has" : "no"} JSONRPCBatchRequest)`,
    );
    methods = inferMethods(reader, schemaMethods, responses, loaded.source.display, warn);
  }

  const types: TypeDef[] = Object.keys(reader.defs)
    .sort(compareNames)
    .map((name) => {
      const schema = reader.defs[name] as JSONSchema;
      const description = isObject(schema) && typeof schema.description === "string" ? schema.description : undefined;
      return description === undefined ? { name, schema } : { name, schema, description };
    });

  // Emitters share the document; freezing it turns an accidental mutation into an error instead
  // of output that depends on emitter order.
  deepFreeze(loaded.document);
  return {
    revision,
    era,
    dialect: loaded.dialect,
    defsKey: loaded.defsKey,
    batching,
    source: { display: loaded.source.display, sha256: loaded.source.sha256 },
    document: loaded.document,
    types,
    methods,
  };
}

function paramsFacts(reader: SchemaReader, messageType: string) {
  const def = reader.def(messageType)!;
  const props = isObject(def.properties) ? def.properties : {};
  const required = Array.isArray(def.required) && def.required.includes("params");
  if (props.params === undefined) return { paramsType: null, paramsPointer: null, paramsRequired: false };
  const params = props.params;
  const prefix = `#/${reader.defsKey}/`;
  // A named params type is a bare `$ref` (a `description` sibling does not change the type).
  const named =
    isObject(params) &&
    typeof params.$ref === "string" &&
    params.$ref.startsWith(prefix) &&
    Object.keys(params).every((k) => k === "$ref" || k === "description");
  return {
    paramsType: named ? reader.refName(params, reader.ptr(messageType, "properties", "params")) : null,
    paramsPointer: reader.ptr(messageType, "properties", "params"),
    paramsRequired: required,
  };
}

/** Result definitions the receiving side may answer with, per the schema's result unions. */
function resultUnion(reader: SchemaReader, from: SchemaMethod["from"]): Set<string> | null {
  const unions =
    from === "client" ? ["ServerResult"] : from === "server" ? ["ClientResult"] : ["ServerResult", "ClientResult"];
  const sets: Set<string>[] = [];
  for (const u of unions) {
    const members = reader.unionMembers(u);
    if (!members) return null;
    const set = new Set(members);
    // `EmptyResult` is an alias of bare `Result`, which the unions list instead.
    if (set.has("Result")) set.add("EmptyResult");
    sets.push(set);
  }
  return new Set([...sets[0]!].filter((n) => sets.every((s) => s.has(n))));
}

function fromOverlay(
  reader: SchemaReader,
  schemaMethods: SchemaMethod[],
  responses: Responses,
  overlay: MethodOverlay,
): MethodDef[] {
  const file = overlayFile(overlay.revision);
  const problems: string[] = [];
  const inSchema = new Map(schemaMethods.map((m) => [m.method, m]));
  for (const m of schemaMethods) {
    if (!overlay.methods[m.method]) {
      problems.push(
        `method "${m.method}" (${m.messageType}, in ${m.unions.join(", ")}) is in the schema but not in ${file}`,
      );
    }
  }
  for (const [name, o] of Object.entries(overlay.methods).sort(([a], [b]) => compareNames(a, b))) {
    const s = inSchema.get(name);
    if (!s) {
      problems.push(
        `method "${name}" (${o.messageType}) is in ${file} but not in the schema's message unions (removed or renamed?)`,
      );
      continue;
    }
    if (s.kind !== o.kind)
      problems.push(`method "${name}": ${file} says kind "${o.kind}", the schema says "${s.kind}"`);
    if (s.from !== o.from)
      problems.push(`method "${name}": ${file} says from "${o.from}", the schema's unions say "${s.from}"`);
    if (s.messageType !== o.messageType) {
      problems.push(`method "${name}": ${file} says message type ${o.messageType}, the schema says ${s.messageType}`);
    }
    if (s.kind === "request") problems.push(...checkResult(reader, name, s, o, responses, file));
  }
  problems.push(...checkInputRequests(reader, overlay, file));
  const hasBatch = reader.has("JSONRPCBatchRequest");
  if (hasBatch !== overlay.batching) {
    problems.push(
      `${file} says batching ${overlay.batching}, the schema ${hasBatch ? "defines" : "does not define"} JSONRPCBatchRequest`,
    );
  }
  const hasInit = inSchema.has("initialize");
  if ((overlay.era === "legacy") !== hasInit) {
    problems.push(`${file} says era "${overlay.era}", the schema ${hasInit ? "has" : "has no"} initialize request`);
  }
  if (problems.length) {
    throw new McpgenError(
      `the schema and the reviewed method overlay ${file} disagree; review the schema change and update the overlay:\n  - ${problems.join("\n  - ")}`,
      { file: reader.file, pointer: "/" + reader.defsKey },
    );
  }
  return schemaMethods.map((s) => {
    const o = overlay.methods[s.method]!;
    return methodDef(reader, s, o.resultType, o.capability, responses);
  });
}

function checkResult(
  reader: SchemaReader,
  name: string,
  s: SchemaMethod,
  o: OverlayMethod,
  responses: Responses,
  file: string,
): string[] {
  const out: string[] = [];
  const result = o.resultType!;
  if (!reader.has(result)) return [`method "${name}": result type ${result} from ${file} is not defined in the schema`];
  const allowed = resultUnion(reader, s.from);
  if (allowed && !allowed.has(result)) {
    out.push(
      `method "${name}": result type ${result} from ${file} is not in the schema's ${s.from === "server" ? "ClientResult" : s.from === "client" ? "ServerResult" : "ClientResult and ServerResult"}`,
    );
  }
  const response = responses.get(s.messageType);
  if (response && !response.members.includes(result)) {
    out.push(
      `method "${name}": ${response.responseType} allows ${response.members.join(" | ")}, not ${result} from ${file}`,
    );
  }
  if (!response && responses.size > 0) {
    out.push(`method "${name}": the schema names responses (…ResultResponse) but none for ${s.messageType}`);
  }
  return out;
}

/** 2026-07-28 server-to-client requests are embedded in results (MRTR); make sure they stay out of the method table. */
function checkInputRequests(reader: SchemaReader, overlay: MethodOverlay, file: string): string[] {
  const members = reader.unionMembers("InputRequest");
  const listed = overlay.inputRequests ?? {};
  if (!members) {
    return Object.keys(listed).length ? [`${file} lists inputRequests but the schema has no InputRequest union`] : [];
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const def of members) {
    const method = reader.methodConst(def);
    if (method === undefined) {
      out.push(`InputRequest member ${def} has no method name`);
      continue;
    }
    seen.add(method);
    const o = listed[method];
    if (!o)
      out.push(`input request "${method}" (${def}, in InputRequest) is in the schema but not in ${file} inputRequests`);
    else if (o.messageType !== def)
      out.push(`input request "${method}": ${file} says ${o.messageType}, the schema says ${def}`);
    else if (!reader.has(o.resultType))
      out.push(`input request "${method}": result type ${o.resultType} is not defined in the schema`);
  }
  for (const method of Object.keys(listed).sort(compareNames)) {
    if (!seen.has(method))
      out.push(
        `input request "${method}" is in ${file} but not in the schema's InputRequest union (removed or renamed?)`,
      );
  }
  return out;
}

function methodDef(
  reader: SchemaReader,
  s: SchemaMethod,
  resultType: string | null,
  capability: string | null,
  responses: Responses,
): MethodDef {
  const response = s.kind === "request" ? responses.get(s.messageType) : undefined;
  return {
    method: s.method,
    kind: s.kind,
    from: s.from,
    messageType: s.messageType,
    ...paramsFacts(reader, s.messageType),
    resultType: s.kind === "request" ? resultType : null,
    resultPointer: s.kind !== "request" ? null : response ? response.pointer : reader.ptr(resultType!),
    capability,
  };
}

function inferShape(reader: SchemaReader, schemaMethods: SchemaMethod[]) {
  const era: ProtocolModel["era"] = schemaMethods.some((m) => m.method === "initialize") ? "legacy" : "modern";
  return { era, batching: reader.has("JSONRPCBatchRequest") };
}

function inferMethods(
  reader: SchemaReader,
  schemaMethods: SchemaMethod[],
  responses: Responses,
  display: string,
  warn: (message: string) => void,
): MethodDef[] {
  const overlays = bundledRevisions().reverse().map(readOverlay);
  const borrowed = new Map<string, string[]>();
  const methods = schemaMethods.map((s) => {
    const known = overlays.find((o) => o.methods[s.method]);
    const facts = known?.methods[s.method];
    if (known) {
      const list = borrowed.get(known.revision) ?? [];
      list.push(s.method);
      borrowed.set(known.revision, list);
    }
    let capability: string | null = facts?.capability ?? null;
    if (!facts) {
      warn(
        `${display}: method "${s.method}" (${s.messageType}) is in no reviewed overlay; assumed ungated (no capability)`,
      );
      capability = null;
    } else if (facts.kind !== s.kind || facts.messageType !== s.messageType) {
      warn(
        `${display}: method "${s.method}" is ${s.kind} ${s.messageType} here but ${facts.kind} ${facts.messageType} in ${overlayFile(known!.revision)}; using its capability ${JSON.stringify(capability)}`,
      );
    }
    let resultType: string | null = null;
    if (s.kind === "request") resultType = inferResult(reader, s, facts, responses, display, warn);
    return methodDef(reader, s, resultType, capability, responses);
  });
  for (const [rev, names] of borrowed) {
    warn(`${display}: capability gates and result types taken from ${overlayFile(rev)} for: ${names.join(", ")}`);
  }
  return methods;
}

function inferResult(
  reader: SchemaReader,
  s: SchemaMethod,
  facts: OverlayMethod | undefined,
  responses: Responses,
  display: string,
  warn: (message: string) => void,
): string {
  const response = responses.get(s.messageType);
  if (response) {
    const complete = response.members.filter((n) => n !== "InputRequiredResult");
    if (complete.length === 1) return complete[0]!;
    throw new McpgenError(`method "${s.method}": cannot tell the result type from ${response.members.join(" | ")}`, {
      file: display,
      pointer: response.pointer,
      expected: "one result definition besides InputRequiredResult",
    });
  }
  if (facts?.resultType && reader.has(facts.resultType)) return facts.resultType;
  const byName = s.messageType.endsWith("Request") ? s.messageType.slice(0, -"Request".length) + "Result" : null;
  if (byName && reader.has(byName)) {
    warn(`${display}: method "${s.method}": result type ${byName} inferred from the name of ${s.messageType}`);
    return byName;
  }
  throw new McpgenError(`method "${s.method}" (${s.messageType}): cannot determine its result type`, {
    file: display,
    pointer: reader.ptr(s.messageType),
    expected: `a ${s.messageType.replace(/Request$/, "")}ResultResponse definition, a reviewed overlay entry, or a ${byName ?? "…Result"} definition`,
  });
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
