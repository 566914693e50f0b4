/**
 * The `breaking` findings that warn (they fail only under --strict): changes a caller may feel
 * though every call still passes validation. A default that changed (or went) gives calls that
 * omit the value another one; a title or description is what a model reads to choose a tool and
 * fill in its arguments (one that appears where there was none documents, and is not reported); a tool's annotations tell a client whether to ask the user first, and only the
 * direction towards more risk matters (a tool that turns destructive, not one that turns safe).
 * Hints are compared with the defaults MCP gives them (https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations):
 * readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true.
 */
import { escapePointerToken } from "../../json-schema/pointer.js";
import { isPlainObject } from "../../json-schema/walk.js";
import type { ServerModel, ToolModel } from "../../model/server-ir.js";
import type { RuleId } from "./rules.js";
import type { Located, Side } from "./structural.js";

const TEXTS = ["title", "description"] as const;

/** Key order does not change a JSON value. */
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    isPlainObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
/** Reflowing a text (line breaks, runs of spaces) does not change what it says. */
const text = (v: unknown): string | undefined => (typeof v === "string" ? v.replace(/\s+/g, " ").trim() : undefined);
const quote = (v: string | undefined) =>
  v === undefined ? "(none)" : JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

/** The pointer of `key` in the object at `pointer` when it has one, else of the object. */
const ptr = (obj: unknown, pointer: string, key: string) =>
  isPlainObject(obj) && Object.hasOwn(obj, key) ? `${pointer}/${escapePointerToken(key)}` : pointer;

function texts(entry: string, where: string, a: unknown, pa: string, b: unknown, pb: string, out: Located[]): void {
  for (const key of TEXTS) {
    const x = text(isPlainObject(a) ? a[key] : undefined);
    const y = text(isPlainObject(b) ? b[key] : undefined);
    if (x !== undefined && x !== y)
      out.push({
        rule: "DESCRIPTION_CHANGED",
        entry,
        message: `${entry}${where}: ${key} ${quote(x)} -> ${quote(y)}`,
        old: ptr(a, pa, key),
        new: ptr(b, pb, key),
      });
  }
}

/** `default`, `title` and `description` of one pair of schemas `breaking` walks. */
export function schemaWarnings(
  entry: string,
  mode: "input" | "output",
  path: string,
  a: Side,
  b: Side,
  out: Located[],
): void {
  const where = ` ${mode}${path ? ` ${path}` : ""}`;
  texts(entry, where, a.schema, a.pointer, b.schema, b.pointer, out);
  const da = isPlainObject(a.schema) && Object.hasOwn(a.schema, "default") ? canon(a.schema.default) : undefined;
  const db = isPlainObject(b.schema) && Object.hasOwn(b.schema, "default") ? canon(b.schema.default) : undefined;
  if (da !== undefined && da !== db) {
    out.push({
      rule: "TOOL_DEFAULT_CHANGED",
      entry,
      message: `${entry}${where}: default ${da ?? "(none)"} -> ${db ?? "(none)"}`,
      old: ptr(a.schema, a.pointer, "default"),
      new: ptr(b.schema, b.pointer, "default"),
    });
  }
}

interface Hints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/** What the annotations say, with MCP's defaults; destructive and idempotent mean something only for a tool that writes. */
function hints(annotations: unknown): Hints {
  const h = isPlainObject(annotations) ? annotations : {};
  const flag = (key: string, fallback: boolean) => (typeof h[key] === "boolean" ? (h[key] as boolean) : fallback);
  const readOnly = flag("readOnlyHint", false);
  return {
    readOnly,
    destructive: !readOnly && flag("destructiveHint", true),
    idempotent: readOnly || flag("idempotentHint", false),
    openWorld: flag("openWorldHint", true),
  };
}

const RISKIER: readonly { rule: RuleId; key: string; worse: (a: Hints, b: Hints) => boolean; says: string }[] = [
  {
    rule: "TOOL_NO_LONGER_READ_ONLY",
    key: "readOnlyHint",
    worse: (a, b) => a.readOnly && !b.readOnly,
    says: "it is not read-only (readOnlyHint)",
  },
  {
    rule: "TOOL_BECAME_DESTRUCTIVE",
    key: "destructiveHint",
    worse: (a, b) => !a.destructive && b.destructive,
    says: "it may destroy data (destructiveHint)",
  },
  {
    rule: "TOOL_NO_LONGER_IDEMPOTENT",
    key: "idempotentHint",
    worse: (a, b) => a.idempotent && !b.idempotent,
    says: "a repeated call may have more effect (idempotentHint)",
  },
  {
    rule: "TOOL_BECAME_OPEN_WORLD",
    key: "openWorldHint",
    worse: (a, b) => !a.openWorld && b.openWorld,
    says: "it reaches outside entities (openWorldHint)",
  },
];

/** A tool's title, description and annotations. */
export function toolWarnings(a: ToolModel, b: ToolModel, out: Located[]): void {
  const entry = `tools/${a.name}`;
  texts(entry, "", a.definition, a.pointer, b.definition, b.pointer, out);
  const aa = a.definition.annotations;
  const ab = b.definition.annotations;
  const pa = isPlainObject(aa) ? `${a.pointer}/annotations` : a.pointer;
  const pb = isPlainObject(ab) ? `${b.pointer}/annotations` : b.pointer;
  const title = (x: unknown) => (isPlainObject(x) && Object.hasOwn(x, "title") ? { title: x.title } : {});
  texts(entry, " annotations", title(aa), pa, title(ab), pb, out);
  const [ha, hb] = [hints(aa), hints(ab)];
  for (const r of RISKIER) {
    if (r.worse(ha, hb))
      out.push({
        rule: r.rule,
        entry,
        message: `${entry}: annotations now say ${r.says}`,
        old: ptr(aa, pa, r.key),
        new: ptr(ab, pb, r.key),
      });
  }
}

/** Title and description of a prompt (and its arguments), a resource or a template matched by `breaking`. */
export function entryWarnings(
  section: "prompts" | "resources" | "resourceTemplates",
  key: string,
  a: ServerModel["prompts"][number] | ServerModel["resources"][number] | ServerModel["resourceTemplates"][number],
  b: typeof a,
  out: Located[],
): void {
  const entry = `${section}/${key}`;
  texts(entry, "", a.definition, a.pointer, b.definition, b.pointer, out);
  if (section !== "prompts") return;
  const argsA = Array.isArray(a.definition.arguments) ? a.definition.arguments : [];
  const argsB = Array.isArray(b.definition.arguments) ? b.definition.arguments : [];
  argsA.forEach((x: unknown, i: number) => {
    const name = isPlainObject(x) ? x.name : undefined;
    const j = argsB.findIndex((y: unknown) => isPlainObject(y) && y.name === name);
    if (j >= 0)
      texts(
        entry,
        ` argument ${String(name)}`,
        x,
        `${a.pointer}/arguments/${i}`,
        argsB[j],
        `${b.pointer}/arguments/${j}`,
        out,
      );
  });
}
