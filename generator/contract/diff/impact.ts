/**
 * `mcpgen diff --manifest`: which protocol changes touch one server (and its clients). The
 * server's use of the protocol is read from its model: the lists it serves, the capabilities it
 * declares, the wire fields its entries carry.
 */
import { loadManifest } from "../../load/manifest.js";
import { buildServerModel } from "../../model/build-server.js";
import type { ServerModel } from "../../model/server-ir.js";
import type { MethodFacts, ProtocolDiff } from "./protocol.js";

export interface Impact {
  kind:
    | "method-removed"
    | "method-changed"
    | "result-needs-field"
    | "result-field-changed"
    | "entry-field-removed"
    | "entry-field-required"
    | "capability-removed"
    | "revision-not-served";
  /** Where in the manifest this comes from (JSON pointer), "" for the server as a whole. */
  pointer: string;
  message: string;
  /** The method (method-*, result-*), wire type (entry-*) or capability path it is about. */
  subject?: string;
  /** The field of that result or wire type. */
  field?: string;
  /** The entry it is about (`tools/echo`), for entry-* impacts. */
  entry?: string;
}

/** Methods a server built from this manifest answers or sends, with why. */
function methodsUsed(model: ServerModel): Map<string, string> {
  const used = new Map<string, string>();
  const use = (why: string, ...methods: string[]) => methods.forEach((m) => used.has(m) || used.set(m, why));
  use(
    "lifecycle",
    "initialize",
    "notifications/initialized",
    "ping",
    "server/discover",
    "notifications/cancelled",
    "notifications/progress",
  );
  const caps = model.capabilities;
  if (model.tools.length || caps.tools) use("it has tools", "tools/list", "tools/call");
  if (caps.tools?.listChanged) use("it declares tools.listChanged", "notifications/tools/list_changed");
  if (model.resources.length || model.resourceTemplates.length || caps.resources)
    use("it has resources", "resources/list", "resources/read");
  if (model.resourceTemplates.length) use("it has resource templates", "resources/templates/list");
  if (caps.resources?.subscribe)
    use(
      "it declares resources.subscribe",
      "resources/subscribe",
      "resources/unsubscribe",
      "notifications/resources/updated",
    );
  if (caps.resources?.listChanged) use("it declares resources.listChanged", "notifications/resources/list_changed");
  if (model.prompts.length || caps.prompts) use("it has prompts", "prompts/list", "prompts/get");
  if (caps.prompts?.listChanged) use("it declares prompts.listChanged", "notifications/prompts/list_changed");
  if (caps.logging) use("it declares logging", "logging/setLevel", "notifications/message");
  if (caps.completions) use("it declares completions", "completion/complete");
  return used;
}

const ENTRY_TYPES = [
  ["tools", "Tool"],
  ["resources", "Resource"],
  ["resourceTemplates", "ResourceTemplate"],
  ["prompts", "Prompt"],
] as const;

function capabilityPaths(model: ServerModel): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(model.capabilities)) {
    out.push(k);
    if (k !== "experimental" && k !== "extensions" && v && typeof v === "object")
      for (const [s, on] of Object.entries(v)) if (on === true) out.push(`${k}.${s}`);
  }
  return out;
}

/** `target` is the method table of `diff.to` (result types of methods that did not change). */
export function manifestImpact(diff: ProtocolDiff, model: ServerModel, target: MethodFacts[]): Impact[] {
  const out: Impact[] = [];
  const used = methodsUsed(model);
  const typeChanges = new Map(diff.types.changed.map((t) => [t.type, t.fields]));
  const removedTypes = new Set(diff.types.removed);

  for (const m of diff.methods.removed) {
    const why = used.get(m.method);
    if (why)
      out.push({
        kind: "method-removed",
        pointer: "",
        message: `uses ${m.method} (${why}), removed in ${diff.to}`,
        subject: m.method,
      });
  }
  for (const r of diff.methods.renamed) {
    const why = used.get(r.from);
    if (why)
      out.push({
        kind: "method-removed",
        pointer: "",
        message: `uses ${r.from} (${why}), renamed to ${r.to} in ${diff.to}`,
        subject: r.from,
      });
  }
  for (const c of diff.methods.changed) {
    const why = used.get(c.method);
    if (!why || c.what === "messageType") continue;
    const show = (v: string | null) =>
      v === null ? "none" : c.what !== "direction" ? v : v === "client" ? "C->S" : v === "server" ? "S->C" : "both";
    out.push({
      kind: "method-changed",
      pointer: "",
      message: `uses ${c.method} (${why}): ${c.what} ${show(c.before)} -> ${show(c.after)} in ${diff.to}`,
      subject: c.method,
      field: c.what,
    });
  }
  // Results this server sends: fields they must now carry.
  const inA = new Set(diff.methods.removed.map((m) => m.method));
  for (const method of [...used.keys()].sort()) {
    const to = target.find((m) => m.method === method);
    // Results of methods new in `to` are not a change to this server's existing results.
    if (!to?.resultType || diff.methods.added.some((m) => m.method === method) || inA.has(method)) continue;
    const result = to.resultType;
    for (const f of typeChanges.get(result) ?? []) {
      if ((f.change === "added" && f.required) || f.change === "required") {
        out.push({
          kind: "result-needs-field",
          pointer: "",
          message: `its ${method} results (${result}) need ${f.field} in ${diff.to}`,
          subject: method,
          field: f.field,
        });
      } else if (f.change === "narrowed" || f.change === "changed") {
        out.push({
          kind: "result-field-changed",
          pointer: "",
          message: `its ${method} results (${result}): ${f.field} ${f.change} (${f.before} -> ${f.after}) in ${diff.to}`,
          subject: method,
          field: f.field,
        });
      }
    }
  }
  // Wire fields its entries publish.
  for (const [section, type] of ENTRY_TYPES) {
    const fields = typeChanges.get(type) ?? [];
    const entries = model[section];
    for (const e of entries) {
      for (const f of fields) {
        if (f.change === "removed" && f.field in e.definition) {
          out.push({
            kind: "entry-field-removed",
            pointer: `${e.pointer}/${f.field}`,
            message: `${type} ${JSON.stringify(e.name)} sets ${f.field}, removed from ${type} in ${diff.to} (not published there)`,
            subject: type,
            field: f.field,
            entry: `${section}/${e.name}`,
          });
        }
        if (((f.change === "added" && f.required) || f.change === "required") && !(f.field in e.definition)) {
          out.push({
            kind: "entry-field-required",
            pointer: e.pointer,
            message: `${type} ${JSON.stringify(e.name)} lacks ${f.field}, required in ${diff.to}`,
            subject: type,
            field: f.field,
            entry: `${section}/${e.name}`,
          });
        }
      }
    }
    if (removedTypes.has(type) && entries.length)
      out.push({
        kind: "entry-field-removed",
        pointer: `/${section}`,
        message: `${type} no longer exists in ${diff.to}`,
        subject: type,
      });
  }
  const removedCaps = new Set(
    diff.capabilities.fields.filter((c) => c.side === "server" && c.change === "removed").map((c) => c.path),
  );
  for (const p of capabilityPaths(model)) {
    if (removedCaps.has(p))
      out.push({
        kind: "capability-removed",
        pointer: `/capabilities/${p.replace(".", "/")}`,
        message: `declares capability ${p}, removed from ServerCapabilities in ${diff.to}`,
        subject: p,
      });
  }
  if (!model.revisions.includes(diff.to)) {
    out.push({
      kind: "revision-not-served",
      pointer: "/revisions",
      message: `does not list ${diff.to} in revisions (speaks ${model.revisions.join(", ")})`,
    });
  }
  return out;
}

export function loadManifestModel(path: string): ServerModel {
  return buildServerModel(loadManifest(path));
}
