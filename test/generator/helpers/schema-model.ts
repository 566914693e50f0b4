/**
 * A ProtocolModel built straight from a bundled schema.json, for emitter tests that must not depend
 * on the model stage: `types` are the definitions; `methods` come from the schema's
 * Client/Server Request/Notification unions with the result naming rule of
 * spec-notes/revisions.md §4 (EmptyResult exceptions, pinned `…ResultResponse` in 2026-07-28).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Direction, JSONSchema, MethodDef, ProtocolModel, TypeDef } from "../../../generator/model/ir.js";

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export const SCHEMA_ROOT = "/work/shared/mcp-schema";

type Obj = { [key: string]: unknown };
const EMPTY_RESULT = new Set(["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

export function schemaModel(revision: string): ProtocolModel {
  const raw = readFileSync(`${SCHEMA_ROOT}/${revision}/schema.json`);
  const document = JSON.parse(raw.toString("utf8")) as Obj;
  const defsKey = "$defs" in document ? "$defs" : "definitions";
  const defs = document[defsKey] as { [name: string]: Obj };
  const types: TypeDef[] = Object.keys(defs)
    .sort()
    .map((name) => {
      const schema = defs[name] as JSONSchema;
      const description = defs[name]!["description"];
      return typeof description === "string" ? { name, schema, description } : { name, schema };
    });
  const prefix = `#/${defsKey}/`;
  const members = (union: string): string[] => {
    const d = defs[union];
    if (d === undefined) return [];
    const anyOf = d["anyOf"];
    if (Array.isArray(anyOf)) return anyOf.map((b) => String((b as Obj)["$ref"]).slice(prefix.length));
    const method = ((d["properties"] as Obj)["method"] as Obj)["const"];
    // one-member union spelled as a copy of its member (2026-07-28 ClientNotification)
    return Object.keys(defs).filter((n) => n !== union && ((defs[n]!["properties"] as Obj | undefined)?.["method"] as Obj | undefined)?.["const"] === method);
  };
  const from = new Map<string, Set<"client" | "server">>();
  for (const [union, side] of [
    ["ClientRequest", "client"],
    ["ServerRequest", "server"],
    ["ClientNotification", "client"],
    ["ServerNotification", "server"],
  ] as const) {
    for (const m of members(union)) {
      if (!from.has(m)) from.set(m, new Set());
      from.get(m)!.add(side);
    }
  }
  const methods: MethodDef[] = [];
  for (const [messageType, sides] of from) {
    const def = defs[messageType]!;
    const props = def["properties"] as Obj;
    const method = (props["method"] as Obj)["const"] as string;
    const kind = messageType.endsWith("Notification") ? "notification" : "request";
    const params = props["params"] as Obj | undefined;
    const paramsRef = params?.["$ref"];
    const direction: Direction = sides.size === 2 ? "both" : [...sides][0]!;
    let resultType: string | null = null;
    if (kind === "request") {
      resultType = EMPTY_RESULT.has(method) ? "EmptyResult" : `${messageType.slice(0, -"Request".length)}Result`;
      if (!(resultType in defs)) throw new Error(`${revision} ${method}: no ${resultType}`);
    }
    methods.push({
      method,
      kind,
      from: direction,
      messageType,
      paramsType: typeof paramsRef === "string" ? paramsRef.slice(prefix.length) : null,
      paramsPointer: params === undefined ? null : `/${defsKey}/${messageType}/properties/params`,
      paramsRequired: ((def["required"] as string[] | undefined) ?? []).includes("params"),
      resultType,
      capability: null,
    });
  }
  methods.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  return {
    revision,
    era: revision === "2026-07-28" ? "modern" : "legacy",
    dialect: defsKey === "$defs" ? "2020-12" : "draft-07",
    defsKey,
    batching: revision === "2025-03-26",
    source: { display: revision, sha256: createHash("sha256").update(raw).digest("hex") },
    document,
    types,
    methods,
  };
}
