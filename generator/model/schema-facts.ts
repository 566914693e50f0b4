import { McpgenError } from "../errors.js";
import type { Direction } from "./ir.js";

/** What the schema itself says about one JSON-RPC method, read from the message unions. */
export interface SchemaMethod {
  method: string;
  kind: "request" | "notification";
  from: Direction;
  messageType: string;
  /** The unions that list it (`ClientRequest`, ...), for messages. */
  unions: string[];
}

type Defs = { [name: string]: unknown };

const messageUnions = [
  { union: "ClientRequest", kind: "request", side: "client" },
  { union: "ServerRequest", kind: "request", side: "server" },
  { union: "ClientNotification", kind: "notification", side: "client" },
  { union: "ServerNotification", kind: "notification", side: "server" },
] as const;

/** Unions and aliases that are never message definitions themselves. */
const unionNames = new Set([
  "ClientRequest",
  "ServerRequest",
  "ClientNotification",
  "ServerNotification",
  "ClientResult",
  "ServerResult",
  "InputRequest",
  "InputResponse",
]);

export function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class SchemaReader {
  readonly defs: Defs;

  constructor(
    readonly document: { [key: string]: unknown },
    readonly defsKey: "definitions" | "$defs",
    readonly file: string,
  ) {
    this.defs = document[defsKey] as Defs;
  }

  ptr(...tokens: string[]): string {
    return "/" + [this.defsKey, ...tokens].map((t) => t.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.defs, name);
  }

  def(name: string): { [key: string]: unknown } | undefined {
    const d = this.has(name) ? this.defs[name] : undefined;
    return isObject(d) ? d : undefined;
  }

  fail(message: string, pointer: string, expected?: string): never {
    throw new McpgenError(message, { file: this.file, pointer, ...(expected ? { expected } : {}) });
  }

  /** Name of the definition a `{"$ref": "#/<defsKey>/Name"}` points at. */
  refName(schema: unknown, at: string): string {
    const ref = isObject(schema) ? schema.$ref : undefined;
    const prefix = `#/${this.defsKey}/`;
    if (typeof ref !== "string" || !ref.startsWith(prefix))
      this.fail("unexpected union member", at, `a $ref to ${prefix}<Name>`);
    const name = decodeURIComponent(ref.slice(prefix.length)).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!this.has(name)) this.fail(`$ref to undefined definition ${JSON.stringify(name)}`, at);
    return name;
  }

  /**
   * Members of a union definition, or null when the schema does not define it. Handles the three
   * shapes in the official schemas: `anyOf` of `$ref`s, a single-member union collapsed to one
   * `$ref`, and a single-member union collapsed to a full copy of its member (2026-07-28's
   * `ClientNotification` is a copy of `CancelledNotification`), resolved back to the named member.
   */
  unionMembers(union: string): string[] | null {
    const schema = this.def(union);
    if (!schema) return this.has(union) ? this.fail("not a union", this.ptr(union), "an object") : null;
    const list = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(list)) {
      const key = schema.anyOf ? "anyOf" : "oneOf";
      return list.map((m, i) => this.refName(m, this.ptr(union, key, String(i))));
    }
    if (typeof schema.$ref === "string") return [this.refName(schema, this.ptr(union))];
    const method = this.methodConst(union);
    if (method !== undefined) return [this.copiedMember(union, method)];
    return this.fail(
      "cannot read union members",
      this.ptr(union),
      "anyOf/oneOf of $refs, a single $ref, or a copy of one message definition",
    );
  }

  methodConst(name: string): string | undefined {
    const props = this.def(name)?.properties;
    const m = isObject(props) ? props.method : undefined;
    return isObject(m) && typeof m.const === "string" ? m.const : undefined;
  }

  private copiedMember(union: string, method: string): string {
    const candidates = Object.keys(this.defs)
      .filter((n) => n !== union && !unionNames.has(n) && this.methodConst(n) === method)
      .sort(compareNames);
    const self = stripDescription(this.defs[union]);
    const identical = candidates.filter((n) => stripDescription(this.defs[n]) === self);
    const pick = identical.length === 1 ? identical : candidates;
    if (pick.length !== 1) {
      this.fail(
        `single-member union is an inline copy of method ${JSON.stringify(method)} but ${pick.length} definitions match`,
        this.ptr(union),
        "exactly one named definition with the same schema",
      );
    }
    return pick[0]!;
  }

  /** All JSON-RPC methods the message unions declare, sorted by method name. */
  methods(): SchemaMethod[] {
    if (!this.has("ClientRequest")) {
      this.fail(
        "not an MCP schema: ClientRequest is not defined",
        "/" + this.defsKey,
        "a ClientRequest union of request definitions",
      );
    }
    const byMethod = new Map<string, SchemaMethod>();
    for (const { union, kind, side } of messageUnions) {
      for (const name of this.unionMembers(union) ?? []) {
        const method = this.methodConst(name);
        if (method === undefined)
          this.fail(
            `${union} member ${name} has no method name`,
            this.ptr(name, "properties", "method"),
            "a `const` string",
          );
        const prev = byMethod.get(method);
        if (!prev) {
          byMethod.set(method, { method, kind, from: side, messageType: name, unions: [union] });
          continue;
        }
        if (prev.messageType !== name || prev.kind !== kind) {
          this.fail(
            `method ${JSON.stringify(method)} is ${prev.kind} ${prev.messageType} in ${prev.unions.join(", ")} but ${kind} ${name} in ${union}`,
            this.ptr(union),
          );
        }
        if (prev.from !== side) prev.from = "both";
        if (!prev.unions.includes(union)) prev.unions.push(union);
      }
    }
    return [...byMethod.values()].sort((a, b) => compareNames(a.method, b.method));
  }

  /** Definition names a `result` schema allows: one `$ref`, or `anyOf`/`oneOf` of them. */
  resultMembers(schema: unknown, at: string): string[] {
    if (isObject(schema) && Array.isArray(schema.anyOf ?? schema.oneOf)) {
      const key = schema.anyOf ? "anyOf" : "oneOf";
      return (schema[key] as unknown[]).map((m, i) => this.refName(m, `${at}/${key}/${i}`));
    }
    return [this.refName(schema, at)];
  }

  /**
   * 2026-07-28 names the response of each request: `<X>ResultResponse` pins `result` for the
   * request `<X>Request`. Keyed by the request definition name.
   */
  responseDefs(): Map<string, { responseType: string; pointer: string; members: string[] }> {
    const out = new Map<string, { responseType: string; pointer: string; members: string[] }>();
    for (const name of Object.keys(this.defs).sort(compareNames)) {
      if (name === "JSONRPCResultResponse" || !name.endsWith("ResultResponse")) continue;
      const props = this.def(name)?.properties;
      const pointer = this.ptr(name, "properties", "result");
      if (!isObject(props) || props.result === undefined)
        this.fail("response definition without result", pointer, "a result schema");
      const request = name.slice(0, -"ResultResponse".length) + "Request";
      out.set(request, { responseType: name, pointer, members: this.resultMembers(props.result, pointer) });
    }
    return out;
  }
}

function stripDescription(schema: unknown): string {
  if (!isObject(schema)) return JSON.stringify(schema);
  const { description: _ignored, ...rest } = schema;
  return JSON.stringify(rest);
}
