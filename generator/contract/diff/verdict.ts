/**
 * `diff --manifest` answers "what must I change to serve <to>?". Each impact is either a change
 * for the server's author or something the mcpgen runtime and generated code already do for
 * every revision the manifest lists (docs/server-client.md, "Both eras from one server"):
 *
 * - methods gone, renamed or changed, and each revision's lifecycle: the runtime serves every
 *   listed revision with that revision's methods (2026-07-28: `server/discover` instead of
 *   `initialize`/`ping`, listen streams instead of `resources/subscribe`, per-request log levels);
 * - result fields it fills in itself (RUNTIME_RESULT_FIELDS), and every field of the results it
 *   builds from the manifest (lists, discovery, the lifecycle): all but HANDLER_RESULTS;
 * - entry fields and capabilities a revision does not define: the generated lists keep only the
 *   fields each revision defines (generator/model/wire-fields.ts);
 * - once the manifest lists the revision, the results its handlers return: the generated code
 *   already serves them in that revision (typed, and checked against outputSchema).
 *
 * Left to the author: listing the revision (`revisions`), entry fields a revision requires (data
 * only the manifest can give), and, before the revision is listed, fields of the results handlers
 * return that the revision requires or narrows. For a revision this mcpgen does not serve,
 * nothing is handled. Impacts that differ only in the entry they concern are one item listing
 * the entries.
 */
import { KNOWN_REVISIONS } from "../../load/manifest-format.js";
import type { ServerModel } from "../../model/server-ir.js";
import type { Impact } from "./impact.js";
import type { ProtocolDiff } from "./protocol.js";

export interface VerdictItem {
  kind: Impact["kind"];
  /** Short form, for the verdict line. */
  title: string;
  /** One line: what to change, or what the runtime does. */
  message: string;
  /** Entries it concerns (`tools/echo`), sorted by name; empty when it concerns the server as a whole. */
  entries: string[];
  /** Manifest pointers of the impacts it groups. */
  pointers: string[];
}

export interface Verdict {
  /** Nothing in the manifest or the handlers has to change to serve `to`. */
  nothingToDo: boolean;
  /** The verdict line: what to do, counted. */
  summary: string;
  /** What the author changes, the decisive one (listing the revision) first. */
  changes: VerdictItem[];
  /** What the runtime already does (empty for a revision this mcpgen does not serve). */
  handled: VerdictItem[];
  /** `handled` in one line ("" when empty). */
  handledSummary: string;
}

/** Result fields the runtime sets on every result it sends, whoever built the rest. */
const RUNTIME_RESULT_FIELDS = new Set(["_meta", "resultType", "ttlMs", "cacheScope", "nextCursor"]);
/** Methods whose results come from the author's handlers (the runtime adds RUNTIME_RESULT_FIELDS). */
const HANDLER_RESULTS = new Set(["tools/call", "prompts/get", "resources/read", "completion/complete"]);

const ORDER: Impact["kind"][] = [
  "revision-not-served",
  "entry-field-required",
  "entry-field-removed",
  "result-needs-field",
  "result-field-changed",
  "capability-removed",
  "method-removed",
  "method-changed",
];

/** A result field the runtime fills in (whoever built the rest of the result). */
function builtByRuntime(i: Impact): boolean {
  return RUNTIME_RESULT_FIELDS.has(i.field ?? "") || !HANDLER_RESULTS.has(i.subject ?? "");
}

/** `listed`: the manifest lists the target revision, so its handlers already answer it (typed and output-checked by the generated code). */
function handledByRuntime(i: Impact, listed: boolean): boolean {
  switch (i.kind) {
    case "method-removed":
    case "method-changed":
    case "capability-removed":
      return true;
    case "entry-field-removed":
      return i.field !== undefined;
    case "result-needs-field":
    case "result-field-changed":
      return listed || builtByRuntime(i);
    default:
      return false;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Up to `shown` items, then a count. */
function shortList(items: string[], shown = 6): string {
  return items.length <= shown
    ? items.join(", ")
    : `${items.slice(0, shown).join(", ")} and ${items.length - shown} more`;
}

const NOUNS: { [section: string]: string } = {
  tools: "tool",
  prompts: "prompt",
  resources: "resource",
  resourceTemplates: "resource template",
};

/** The entries of a group: how many, of what, which. */
function entriesOf(group: Impact[]): { count: string; names: string } {
  const entries = group.flatMap((g) => (g.entry ? [g.entry] : []));
  const noun = NOUNS[entries[0]?.slice(0, entries[0].indexOf("/")) ?? ""] ?? "entry";
  return {
    count: plural(entries.length, noun, noun === "entry" ? "entries" : `${noun}s`),
    names: shortList(entries.map((e) => e.slice(e.indexOf("/") + 1))),
  };
}

function describe(
  group: Impact[],
  diff: ProtocolDiff,
  model: ServerModel,
  manifest: string,
  handled: boolean,
): { title: string; message: string } {
  const i = group[0]!;
  const strip = (m: string) => m.replace(/ in \d{4}-\d{2}-\d{2}.*$/, "");
  if (i.entry !== undefined) {
    const { count, names } = entriesOf(group);
    const where = shortList(
      group.map((g) => g.pointer),
      3,
    );
    if (i.kind === "entry-field-required") {
      return {
        title: `add ${i.field} to ${count}`,
        message: `add ${i.field} to ${count}: ${names} (${i.subject}.${i.field} is required in ${diff.to}; ${where})`,
      };
    }
    const fate = handled ? "left out of what the server publishes there" : "not defined there";
    return {
      title: `${i.subject}.${i.field} on ${count}`,
      message: `${i.subject}.${i.field}, set on ${count} (${names}), is removed in ${diff.to}: ${fate}`,
    };
  }
  switch (i.kind) {
    case "revision-not-served":
      if (!(KNOWN_REVISIONS as readonly string[]).includes(diff.to)) {
        return {
          title: `list "${diff.to}" once mcpgen serves it`,
          message: `/revisions: ${manifest} lists ${model.revisions.join(", ")}; "${diff.to}" can be added once mcpgen serves it`,
        };
      }
      return {
        title: `add "${diff.to}" to revisions`,
        message: `/revisions: add "${diff.to}" (${manifest} lists ${model.revisions.join(", ")}), then run mcpgen generate`,
      };
    case "entry-field-removed":
      return {
        title: `${i.subject} is gone`,
        message: `${i.subject} no longer exists in ${diff.to}: the entries at ${i.pointer} cannot be served there`,
      };
    case "result-needs-field":
      if (!handled)
        return {
          title: `${i.subject} results need ${i.field}`,
          message: `its ${i.subject} handlers must return ${i.field} (required in ${diff.to})`,
        };
      break;
    case "result-field-changed":
      if (!handled)
        return {
          title: `${i.subject} results: ${i.field} changed`,
          message: `${i.message.replace(/^its /, "its handlers' ")}: check what they return`,
        };
      break;
  }
  return { title: strip(i.message), message: i.message };
}

/** One line for what the runtime does: methods, result fields, entry fields and capabilities left out. */
function handledLine(items: Impact[], diff: ProtocolDiff, listed: boolean): string {
  if (items.length === 0) return "";
  const of = (k: Impact["kind"]) => items.filter((i) => i.kind === k);
  const uniq = (xs: (string | undefined)[]) => [...new Set(xs.filter((x): x is string => x !== undefined))].sort();
  const parts: string[] = [];
  const gone = uniq(of("method-removed").map((i) => i.subject));
  const changed = of("method-changed").map(
    (i) => `${i.subject} ${i.message.replace(/^.*\): /, "").replace(/ in \d{4}-\d{2}-\d{2}$/, "")}`,
  );
  if (gone.length || changed.length)
    parts.push(
      `answers each revision with its own methods (${[...(gone.length ? [`${diff.to} has no ${gone.join(", ")}`] : []), ...changed].join("; ")})`,
    );
  const results = [...of("result-needs-field"), ...of("result-field-changed")];
  const fields = uniq(results.filter(builtByRuntime).map((i) => i.field));
  if (fields.length) parts.push(`sets ${fields.join(", ")} on its results`);
  const byHandlers = uniq(results.filter((i) => !builtByRuntime(i)).map((i) => `${i.subject} ${i.field}`));
  if (byHandlers.length) parts.push(`its handlers' results already answer ${diff.to} (${byHandlers.join(", ")})`);
  const entryFields = grouped(of("entry-field-removed")).map(
    (g) => `${g[0]!.subject}.${g[0]!.field} (${entriesOf(g).count})`,
  );
  const dropped = [
    ...entryFields.sort(),
    ...uniq(of("capability-removed").map((i) => i.subject)).map((c) => `capability ${c}`),
  ];
  if (dropped.length) parts.push(`leaves ${dropped.join(", ")} out of what it publishes in ${diff.to}`);
  return `Handled by the mcpgen runtime${listed ? "" : ` once ${diff.to} is listed`}, nothing to change (${plural(items.length, "protocol change")}): it ${parts.join("; ")}.`;
}

/** Impacts that differ only in the entry they concern are one item. */
function grouped(impacts: Impact[]): Impact[][] {
  const groups = new Map<string, Impact[]>();
  for (const i of impacts) {
    const k =
      i.entry !== undefined
        ? `${i.kind}\u0000${i.subject}\u0000${i.field}`
        : `${i.kind}\u0000${i.pointer}\u0000${i.message}`;
    groups.set(k, [...(groups.get(k) ?? []), i]);
  }
  return [...groups.values()];
}

export function verdictFor(diff: ProtocolDiff, impact: Impact[], model: ServerModel, manifest: string): Verdict {
  const served = (KNOWN_REVISIONS as readonly string[]).includes(diff.to);
  const listed = model.revisions.includes(diff.to);
  const handledImpacts = served ? impact.filter((i) => handledByRuntime(i, listed)) : [];
  const isHandled = new Set(handledImpacts);
  const rank = (k: Impact["kind"]) => ORDER.indexOf(k);
  const items = (impacts: Impact[], handled: boolean): VerdictItem[] =>
    grouped(impacts)
      .map((g) => ({
        kind: g[0]!.kind,
        ...describe(g, diff, model, manifest, handled),
        entries: g.flatMap((x) => (x.entry ? [x.entry] : [])),
        pointers: g.map((x) => x.pointer),
      }))
      .sort((a, b) => rank(a.kind) - rank(b.kind) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const changes = items(
    impact.filter((i) => !isHandled.has(i)),
    false,
  );
  const handled = items(handledImpacts, true);
  const handledSummary = handledLine(handledImpacts, diff, listed);

  const titles = changes.map((c) => c.title).join("; ");
  let summary: string;
  if (!served) {
    summary = `${diff.to} is not a revision this mcpgen serves (it serves ${KNOWN_REVISIONS.join(", ")}), so nothing is handled for you: ${plural(changes.length, "change")}${changes.length ? `: ${titles}` : ""}`;
  } else if (changes.length === 0) {
    const n = handledImpacts.length;
    const touch = n
      ? `; the mcpgen runtime handles the ${plural(n, "protocol change")} that ${n === 1 ? "touches" : "touch"} it`
      : ", and no protocol change touches it";
    summary = `Nothing to do: ${manifest} already serves ${diff.to}${touch}`;
  } else {
    const rest = handledImpacts.length
      ? ` (the mcpgen runtime handles the rest: ${plural(handledImpacts.length, "protocol change")})`
      : "";
    summary = `${plural(changes.length, "change")} to serve ${diff.to}: ${titles}${rest}`;
  }
  return { nothingToDo: served && changes.length === 0, summary, changes, handled, handledSummary };
}
